import Crease

/// A source whose first bytes are read ahead to tell what it holds (``InputContent``): a binary
/// trace by its magic, a movie by its first box, for sources with no file extension to go by
/// (standard input) and for commands that know inputs by content (`crease import`).
///
/// A source that may wait is read only while its bytes so far leave the content open, so a
/// JSON Lines producer that sends one short line and waits is never held up: `{` settles it.
public final class SniffedSource: ByteSource {
  /// The wrapped source's name.
  public var name: String { base.name }
  /// Whether the source it wraps may make a read wait.
  public var isLive: Bool { base.isLive }
  /// Whether the wrapped source is a terminal.
  public var isTerminal: Bool { base.isTerminal }
  /// The wrapped source's regular file, if it is one.
  public var fileIdentity: FileIdentity? { base.fileIdentity }
  /// The wrapped source's size, if it is a regular file.
  public var regularFileSize: Int? { base.regularFileSize }
  /// What the source holds, told by its first bytes.
  public let content: InputContent
  /// Whether the source starts with the binary format's magic.
  public var isBinaryTrace: Bool { content == .binaryTrace }
  private let base: ByteSource
  private var readAhead: [UInt8]
  private var readAheadOffset = 0

  /// Reads the start of `base`.
  public init(_ base: ByteSource) throws {
    self.base = base
    var bytes = [UInt8](repeating: 0, count: InputContent.longestPrefix)
    var count = 0
    var told: InputContent?
    while true {
      told = InputContent(prefix: bytes[..<count], complete: false, waiting: base.isLive)
      if told != nil { break }
      let read = try bytes.withUnsafeMutableBytes { buffer in
        try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
      }
      if read == 0 { break }
      count += read
    }
    content = told ?? InputContent(prefix: bytes[..<count], complete: true, waiting: base.isLive)!
    readAhead = Array(bytes[..<count])
  }

  /// Hands out the sniffed bytes first, then reads the wrapped source.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard readAheadOffset == readAhead.count else {
      let count = min(buffer.count, readAhead.count - readAheadOffset)
      readAhead[readAheadOffset..<readAheadOffset + count].withUnsafeBytes { buffer.copyMemory(from: $0) }
      readAheadOffset += count
      return count
    }
    return try base.read(into: buffer)
  }

  /// Ready at once while sniffed bytes remain; otherwise waits on the wrapped source.
  public func waitForInput(timeout: Nanoseconds, clock: WallClock) throws -> Bool {
    readAheadOffset < readAhead.count ? true : try base.waitForInput(timeout: timeout, clock: clock)
  }
}
