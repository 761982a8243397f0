import CreaseIO
import CreaseSystem

/// The top-level boxes of a file read front to back: the kept ones with their content, the
/// others (media data, often most of the file) read past.
struct TopLevelBoxes {
  /// A top-level box as its header gives it.
  struct Header: Sendable {
    var type: String
    /// Where the header's first byte is in the file.
    var start: Int
    /// The size the header claims, header included.
    var size: Int
  }

  /// Where a file cut short ends, and the box it ends inside (`nil`: inside a box's header).
  struct Cut: Sendable {
    var fileEnd: Int
    var box: Header?
  }

  let source: ByteSource
  private(set) var offset = 0
  /// Where the last box returned starts in the file (its header's first byte).
  private(set) var boxStart = 0
  /// Set when the file ended inside a box or its header: ``next(keeping:)`` then returns `nil`.
  private(set) var cut: Cut?
  private var scratch = [UInt8](repeating: 0, count: 1 << 16)

  init(source: ByteSource) { self.source = source }

  /// A box found by ``next(keeping:opening:)``.
  enum Found {
    /// A kept box, its content read whole.
    case whole(MovieBox)
    /// A box opened to be read a box inside it at a time (``nextChild(of:)``).
    case opened(OpenedBox)
  }

  /// A top-level box whose content is read a box at a time, so that what is held is the box
  /// inside it being read, not the whole of it.
  struct OpenedBox {
    let header: Header
    /// Where its content starts and ends in the file.
    let contentStart: Int
    let contentEnd: Int
    /// The rules of the boxes inside it, and how many of each type it has given.
    fileprivate var children: MovieBox.ChildHeaders

    /// An error placed at the box's first content byte, as for the box read whole.
    func error(_ message: String) -> MovieFormatError {
      MovieFormatError(box: header.type, offset: contentStart, message: message)
    }
  }

  /// The next box whose type is in `keeping`, its content read, or in `opening`, its header
  /// read; `nil` at the end of the file, with ``cut`` set when the file ends inside a box.
  mutating func next(keeping: Set<String>, opening: Set<String> = []) throws -> Found? {
    while cut == nil {
      let start = offset
      guard let header = try read(8, allowingEnd: true) else { return nil }
      var size = Int(header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
      let type = String(decoding: header[4..<8], as: UTF8.self)
      // A movie starts with one of a few boxes: anything else is not a movie at all.
      guard start > 0 || InputContent.movieOpeningBoxes.contains(type) else {
        throw MovieFormatError(
          box: "", offset: start,
          message: "not a QuickTime or MP4 movie: it does not start with a box such as ftyp")
      }
      var headerSize = 8
      if size == 1 {
        guard let bytes = try read(8) else { return nil }
        let large = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
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
      guard keeping.contains(type) || opening.contains(type) else {
        if size == 0 { return nil }  // the last box runs to the end of the file
        try discard(size - headerSize, box: Header(type: type, start: start, size: size))
        continue
      }
      guard size != 0, size - headerSize <= MovieTiming.largestMetadataBox else {
        throw MovieFormatError(
          box: type, offset: start,
          message: "\(type) is \(size == 0 ? "unbounded" : "\(size) bytes"), more than Crease reads (256 MiB)"
        )
      }
      let box = Header(type: type, start: start, size: size)
      guard !opening.contains(type) else {
        boxStart = start
        return .opened(
          OpenedBox(
            header: box, contentStart: start + headerSize, contentEnd: start + size,
            children: MovieBox.ChildHeaders(parentPath: type, parentType: type)))
      }
      guard let content = try read(size - headerSize, box: box) else { return nil }
      boxStart = start
      return .whole(MovieBox(type: type, path: type, bytes: content[...], fileOffset: start + headerSize))
    }
    return nil
  }

  /// The next box inside `parent`, its content read; `nil` after the last, or when the file
  /// ends inside `parent` (``cut``). Refuses what ``MovieBox/children()`` refuses, with the
  /// same error, unless the file ends inside `parent`: a cut file is told as cut.
  mutating func nextChild(of parent: inout OpenedBox) throws -> MovieBox? {
    let start = offset
    guard cut == nil, start < parent.contentEnd else { return nil }
    let left = parent.contentEnd - start
    guard left >= 8 else { return try refuse(parent, parent.children.strayBytes(left, at: start)) }
    guard let header = try read(8, box: parent.header) else { return nil }
    let declared = header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let childType = String(decoding: header[4..<8], as: UTF8.self)
    var large: UInt64?
    if declared == 1 {
      guard left >= 16 else { return try refuse(parent, parent.children.cutHeader(at: start)) }
      guard let bytes = try read(8, box: parent.header) else { return nil }
      large = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
    let size: Int
    let headerSize: Int
    do throws(MovieFormatError) {
      (size, headerSize) = try parent.children.extent(
        declared: declared, large: large, type: childType, at: start, left: left)
    } catch {
      return try refuse(parent, error)
    }
    let path = parent.children.path(ofNext: childType)
    guard let content = try read(size - headerSize, box: parent.header) else { return nil }
    return MovieBox(type: childType, path: path, bytes: content[...], fileOffset: start + headerSize)
  }

  /// Reads past what is left of `box`, noting a cut when the file ends first.
  mutating func skipRest(of box: OpenedBox) throws {
    try discard(box.contentEnd - offset, box: box.header)
  }

  /// Throws `error`, found inside `parent`, once the rest of `parent` is read past, unless the
  /// file ends first: then `nil`, with ``cut`` set.
  private mutating func refuse(_ parent: OpenedBox, _ error: MovieFormatError) throws -> MovieBox? {
    try skipRest(of: parent)
    guard cut != nil else { throw error }
    return nil
  }

  /// `count` bytes; `nil` at the end of the file, which is a cut (``cut``) unless it comes
  /// before a box's first byte and `allowingEnd`. `box` is the box being read, if its header is.
  ///
  /// Memory follows the bytes that arrive, not the count a box claims: from a regular file,
  /// room is made at once for what is left of the file, no more; from a pipe, the array grows
  /// by at most what it holds already (64 KiB to start), so a stream that ends early costs at
  /// most twice its own size.
  private mutating func read(
    _ count: Int, allowingEnd: Bool = false, box: Header? = nil
  ) throws -> [UInt8]? {
    var bytes: [UInt8] = []
    // Room at once, so a large box is not copied from array to array as it grows: the last
    // copy held the box nearly twice.
    if let size = source.regularFileSize { bytes.reserveCapacity(min(count, max(0, size - offset))) }
    while bytes.count < count {
      let filled = bytes.count
      let end = filled + min(count - filled, max(filled, 1 << 16))
      bytes.append(contentsOf: repeatElement(0, count: end - filled))
      var at = filled
      while at < end {
        let read = try source.read(into: &bytes, at..<end)
        if read == 0 {
          if !(at == 0 && allowingEnd) { cut = Cut(fileEnd: offset + at, box: box) }
          return nil
        }
        at += read
      }
    }
    offset += count
    return bytes
  }

  /// Reads past `count` bytes of `box`, noting a cut when the file ends first.
  private mutating func discard(_ count: Int, box: Header) throws {
    var left = count
    while left > 0 {
      let read = try source.read(into: &scratch, 0..<min(left, scratch.count))
      guard read > 0 else {
        cut = Cut(fileEnd: offset, box: box)
        return
      }
      left -= read
      offset += read
    }
  }
}
