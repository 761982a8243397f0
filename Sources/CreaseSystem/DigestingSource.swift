import Crease

/// A source that digests every byte read through it, so a summary can name the trace it read
/// by size and content (``TraceContent``) without reading it twice.
public final class DigestingSource: ByteSource {
  /// The wrapped source's name.
  public var name: String { base.name }
  /// Whether the wrapped source may make a read wait.
  public var isLive: Bool { base.isLive }
  /// The wrapped source's file.
  public var fileIdentity: FileIdentity? { base.fileIdentity }
  /// Whether the wrapped source is a terminal.
  public var isTerminal: Bool { base.isTerminal }
  /// The wrapped source's size, when it is a regular file.
  public var regularFileSize: Int? { base.regularFileSize }
  private let base: ByteSource
  private var digest = ContentDigest()

  /// Digests what is read from `base`.
  public init(_ base: ByteSource) { self.base = base }

  /// Reads from the wrapped source and digests the bytes.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = try base.read(into: buffer)
    // Safe because a source returns at most the buffer's count, all of it written.
    digest.add(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    return count
  }

  /// Waits on the wrapped source.
  public func waitForInput(timeout: Nanoseconds, clock: WallClock) throws -> Bool {
    try base.waitForInput(timeout: timeout, clock: clock)
  }

  /// The size and digest of the whole source: what a replay stopped early (`--strict`) left
  /// unread is read and digested first, unless the source is live, where reading on could
  /// wait for ever; then they cover the bytes read.
  public func content() throws -> TraceContent {
    if !isLive {
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while try chunk.withUnsafeMutableBytes({ try read(into: $0) }) > 0 {}
    }
    return TraceContent(bytes: digest.byteCount, digest: digest)
  }
}

/// What a trace held, as provenance names it: its size and its content digest.
public struct TraceContent: Hashable, Sendable {
  /// The trace's size in bytes.
  public var bytes: Int
  /// Its digest, as `xxh64:` and 16 hex digits.
  public var digest: String

  /// The content of `bytes` bytes with `digest` (`xxh64:…`), as a file records it.
  public init(bytes: Int, digest: String) {
    self.bytes = bytes
    self.digest = digest
  }

  /// The content `digest` took in.
  public init(bytes: Int, digest: ContentDigest) {
    self.init(bytes: bytes, digest: "xxh64:" + digest.hexadecimal)
  }
}
