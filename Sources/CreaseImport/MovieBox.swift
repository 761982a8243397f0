/// A cursor over the bytes of a QuickTime or MP4 box, reading big-endian fields with bounds
/// checks: every read either stays inside the box or throws a ``MovieFormatError`` naming the
/// box path and the byte offset in the file.
struct MovieBox {
  /// The box's type, such as `stts`.
  let type: String
  /// Where the box sits, as `moov/trak[2]/mdia/minf/stbl/stts`.
  let path: String
  /// The file offset of the box's first content byte.
  let fileOffset: Int
  private let bytes: ArraySlice<UInt8>
  private(set) var position: Int

  /// The content `bytes` of a box of `type` at `path`, which begins at `fileOffset` in the file.
  init(type: String, path: String, bytes: ArraySlice<UInt8>, fileOffset: Int) {
    self.type = type
    self.path = path
    self.bytes = bytes
    self.fileOffset = fileOffset
    position = bytes.startIndex
  }

  /// Bytes not read yet.
  var remaining: Int { bytes.endIndex - position }

  func error(_ message: String) -> MovieFormatError { place.error(message) }

  /// Where the box is read up to, for an error found once its bytes are let go.
  var place: Place { Place(path: path, offset: fileOffset + (position - bytes.startIndex)) }

  /// A place in a box: its path and a byte of the file.
  struct Place: Sendable {
    var path: String
    var offset: Int

    func error(_ message: String) -> MovieFormatError {
      MovieFormatError(box: path, offset: offset, message: message)
    }
  }

  mutating func skip(_ count: Int) throws(MovieFormatError) {
    guard count >= 0, count <= remaining else { throw error("\(type) ends before its fields do") }
    position += count
  }

  mutating func uint8() throws(MovieFormatError) -> UInt8 {
    guard remaining >= 1 else { throw error("\(type) ends before its fields do") }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func uint32() throws(MovieFormatError) -> UInt32 {
    guard remaining >= 4 else { throw error("\(type) ends before its fields do") }
    defer { position += 4 }
    return bytes[position..<position + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }

  mutating func uint64() throws(MovieFormatError) -> UInt64 {
    guard remaining >= 8 else { throw error("\(type) ends before its fields do") }
    defer { position += 8 }
    return bytes[position..<position + 8].reduce(0) { $0 << 8 | UInt64($1) }
  }

  mutating func int32() throws(MovieFormatError) -> Int32 { Int32(bitPattern: try uint32()) }
  mutating func int64() throws(MovieFormatError) -> Int64 { Int64(bitPattern: try uint64()) }

  /// A four-character code.
  mutating func fourCC() throws(MovieFormatError) -> String {
    let code = try uint32()
    return String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> (24 - 8 * $0)) }, as: UTF8.self)
  }

  /// A full box's version and flags.
  mutating func versionAndFlags() throws(MovieFormatError) -> (version: UInt8, flags: UInt32) {
    let word = try uint32()
    return (UInt8(word >> 24), word & 0xFF_FFFF)
  }

  /// An entry count that `entrySize`-byte entries after it can hold: a count the box cannot
  /// hold is refused here, before anything is allocated for it.
  mutating func entryCount(entrySize: Int) throws(MovieFormatError) -> Int {
    let count = Int(try uint32())
    guard count <= remaining / entrySize else {
      throw error(
        "\(type) claims \(count) entries of \(entrySize) bytes, more than its \(remaining) bytes hold")
    }
    return count
  }

  /// The boxes inside this one, in order.
  func children() throws(MovieFormatError) -> [MovieBox] {
    var children: [MovieBox] = []
    var counts: [String: Int] = [:]
    var start = position
    while start < bytes.endIndex {
      let offset = fileOffset + (start - bytes.startIndex)
      guard bytes.endIndex - start >= 8 else {
        throw MovieFormatError(
          box: path, offset: offset, message: "\(bytes.endIndex - start) stray bytes after the last box")
      }
      var header = MovieBox(type: type, path: path, bytes: bytes[start...], fileOffset: offset)
      var size = Int(try header.uint32())
      let childType = try header.fourCC()
      var headerSize = 8
      if size == 1 {
        let large = try header.uint64()
        guard large <= UInt64(Int.max) else { throw header.error("\(childType) has a size past 2⁶³") }
        size = Int(large)
        headerSize = 16
      } else if size == 0 {
        size = bytes.endIndex - start  // to the end of the enclosing box
      }
      guard size >= headerSize, size <= bytes.endIndex - start else {
        throw MovieFormatError(
          box: path, offset: offset,
          message:
            "\(childType) claims \(size) bytes, but \(bytes.endIndex - start) remain in \(type.isEmpty ? "the file" : type)"
        )
      }
      counts[childType, default: 0] += 1
      let index = counts[childType]!
      let name = index == 1 ? childType : "\(childType)[\(index)]"
      children.append(
        MovieBox(
          type: childType, path: path.isEmpty ? name : "\(path)/\(name)",
          bytes: bytes[(start + headerSize)..<(start + size)], fileOffset: offset + headerSize))
      start += size
    }
    return children
  }
}
