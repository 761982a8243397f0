import Crease

/// A source whose first bytes are read ahead to tell a binary trace by its magic, for sources
/// with no file extension to go by (standard input).
///
/// It reads only while the bytes so far match the magic, so a JSON Lines producer that sends one
/// short line and waits is never held up: `{` settles it.
public final class SniffedSource: ByteSource {
  /// The wrapped source's name.
  public var name: String { base.name }
  /// Whether the source it wraps may make a read wait.
  public var isLive: Bool { base.isLive }
  /// Whether the wrapped source is a terminal.
  public var isTerminal: Bool { base.isTerminal }
  /// Whether the source starts with the binary format's magic.
  public let isBinaryTrace: Bool
  private let base: ByteSource
  private var readAhead: [UInt8]
  private var readAheadOffset = 0

  /// Reads the start of `base`.
  public init(_ base: ByteSource) throws {
    self.base = base
    let magic = BinaryTraceFormat.magic
    var bytes = [UInt8](repeating: 0, count: magic.count)
    var count = 0
    while count < magic.count && bytes[..<count].elementsEqual(magic[..<count]) {
      let read = try bytes.withUnsafeMutableBytes { buffer in
        try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
      }
      if read == 0 { break }
      count += read
    }
    readAhead = Array(bytes[..<count])
    isBinaryTrace = readAhead == magic
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
