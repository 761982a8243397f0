import CreaseSystem

/// The top-level boxes of a file read front to back: the kept ones with their content, the
/// others (media data, often most of the file) read past.
struct TopLevelBoxes {
  /// The boxes a QuickTime or MP4 file starts with.
  static let openingBoxes: Set<String> = [
    "ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "styp", "uuid",
  ]

  let source: ByteSource
  private(set) var offset = 0
  private var scratch = [UInt8](repeating: 0, count: 1 << 16)

  init(source: ByteSource) { self.source = source }

  /// The next box whose type is in `keeping`, its content read; `nil` at the end of the file.
  mutating func next(keeping: Set<String>) throws -> MovieBox? {
    while true {
      let start = offset
      guard let header = try read(8, allowingEnd: true) else { return nil }
      var size = Int(header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
      let type = String(decoding: header[4..<8], as: UTF8.self)
      // A movie starts with one of a few boxes: anything else is not a movie at all.
      guard start > 0 || Self.openingBoxes.contains(type) else {
        throw MovieFormatError(
          box: "", offset: start,
          message: "not a QuickTime or MP4 movie: it does not start with a box such as ftyp")
      }
      var headerSize = 8
      if size == 1 {
        let large = try read(8)!.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard large <= UInt64(Int.max) else {
          throw MovieFormatError(box: "", offset: start, message: "\(type) has a size past 2⁶³")
        }
        size = Int(large)
        headerSize = 16
      }
      guard size == 0 || size >= headerSize else {
        throw MovieFormatError(
          box: "", offset: start, message: "\(type) claims \(size) bytes, less than its header")
      }
      guard keeping.contains(type) else {
        if size == 0 { return nil }  // the last box runs to the end of the file
        try discard(size - headerSize, box: type, start: start)
        continue
      }
      guard size != 0, size - headerSize <= MovieTiming.largestMetadataBox else {
        throw MovieFormatError(
          box: type, offset: start,
          message: "\(type) is \(size == 0 ? "unbounded" : "\(size) bytes"), more than Crease reads (256 MiB)"
        )
      }
      let content = try read(size - headerSize)!
      return MovieBox(type: type, path: type, bytes: content[...], fileOffset: start + headerSize)
    }
  }

  /// `count` bytes, or `nil` at a clean end of the file when `allowingEnd`.
  ///
  /// Memory follows the bytes that arrive, not the count a box claims: the array grows by at
  /// most what it holds already (64 KiB to start), so a file that ends early costs at most
  /// twice its own size.
  private mutating func read(_ count: Int, allowingEnd: Bool = false) throws -> [UInt8]? {
    var bytes: [UInt8] = []
    while bytes.count < count {
      let filled = bytes.count
      let end = filled + min(count - filled, max(filled, 1 << 16))
      bytes.append(contentsOf: repeatElement(0, count: end - filled))
      var at = filled
      while at < end {
        let read = try source.read(into: &bytes, at..<end)
        if read == 0 {
          if at == 0 && allowingEnd { return nil }
          throw MovieFormatError(box: "", offset: offset + at, message: "the file ends inside a box")
        }
        at += read
      }
    }
    offset += count
    return bytes
  }

  private mutating func discard(_ count: Int, box: String, start: Int) throws {
    var left = count
    while left > 0 {
      let read = try source.read(into: &scratch, 0..<min(left, scratch.count))
      guard read > 0 else {
        throw MovieFormatError(
          box: "", offset: start, message: "\(box) claims \(count) bytes past the end of the file")
      }
      left -= read
      offset += read
    }
  }
}
