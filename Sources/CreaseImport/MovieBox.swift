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
    var headers = ChildHeaders(parentPath: path, parentType: type)
    var start = position
    while start < bytes.endIndex {
      let offset = fileOffset + (start - bytes.startIndex)
      let left = bytes.endIndex - start
      guard left >= 8 else { throw headers.strayBytes(left, at: offset) }
      var header = MovieBox(type: type, path: path, bytes: bytes[start...], fileOffset: offset)
      let declared = try header.uint32()
      let childType = try header.fourCC()
      let large = declared == 1 ? try header.uint64() : nil
      let (size, headerSize) = try headers.extent(
        declared: declared, large: large, type: childType, at: offset, left: left)
      children.append(
        MovieBox(
          type: childType, path: headers.path(ofNext: childType),
          bytes: bytes[(start + headerSize)..<(start + size)], fileOffset: offset + headerSize))
      start += size
    }
    return children
  }

  /// The rules the boxes inside a box keep, the same whether the box is in memory
  /// (``children()``) or read from the file a box at a time (`TopLevelBoxes`), with the errors
  /// that name what breaks them.
  struct ChildHeaders {
    /// The box's path (empty at the top level) and type, as errors name them.
    let parentPath: String
    let parentType: String
    /// How many boxes of each type came so far, for their paths.
    private var counts: [String: Int] = [:]

    init(parentPath: String, parentType: String) {
      self.parentPath = parentPath
      self.parentType = parentType
    }

    /// `left` bytes at file byte `offset`, too few for a box's header.
    func strayBytes(_ left: Int, at offset: Int) -> MovieFormatError {
      MovieFormatError(box: parentPath, offset: offset, message: "\(left) stray bytes after the last box")
    }

    /// A header that starts at file byte `offset` and claims a 64-bit size that `left` bytes do
    /// not hold.
    func cutHeader(at offset: Int) -> MovieFormatError {
      MovieFormatError(
        box: parentPath, offset: offset + 8, message: "\(parentType) ends before its fields do")
    }

    /// The size and header size of the box of `type` whose header starts at file byte `offset`,
    /// `left` bytes of the parent from there: the 32-bit size it `declared`, or for 1 the 64-bit
    /// `large` after it, or for 0 the rest of the parent; refused when it does not fit.
    func extent(declared: UInt32, large: UInt64?, type: String, at offset: Int, left: Int)
      throws(MovieFormatError)
      -> (size: Int, headerSize: Int)
    {
      var (size, headerSize) = (Int(declared), 8)
      if declared == 1, let large {
        guard large <= UInt64(Int.max) else {
          throw MovieFormatError(box: parentPath, offset: offset + 16, message: "\(type) has a size past 2⁶³")
        }
        (size, headerSize) = (Int(large), 16)
      } else if declared == 0 {
        size = left  // to the end of the enclosing box
      }
      guard size >= headerSize, size <= left else {
        throw MovieFormatError(
          box: parentPath, offset: offset,
          message:
            "\(type) claims \(size) bytes, but \(left) remain in \(parentType.isEmpty ? "the file" : parentType)"
        )
      }
      return (size, headerSize)
    }

    /// The path of the next box of `type`: the parent's, then `type` for the first of its type,
    /// `type[2]` for the second…
    mutating func path(ofNext type: String) -> String {
      counts[type, default: 0] += 1
      let index = counts[type]!
      let name = index == 1 ? type : "\(type)[\(index)]"
      return parentPath.isEmpty ? name : "\(parentPath)/\(name)"
    }
  }
}
