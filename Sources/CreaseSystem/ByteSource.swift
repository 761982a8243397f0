import Crease

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Somewhere bytes come from: a file, standard input, or memory in tests.
public protocol ByteSource: AnyObject {
  /// The path or name used in diagnostics (`FILE` in `FILE:LINE:COL`).
  var name: String { get }
  /// Reads up to `buffer.count` bytes; returns 0 at the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

  /// Waits at most `timeout` on `clock` for bytes (or the end) to be ready; `false` when the
  /// time ran out first.
  func waitForInput(timeout: Nanoseconds, clock: WallClock) throws -> Bool

  /// Whether a read may wait for a writer: a pipe, a terminal, a live device. A replay flushes
  /// its cues before such a read, so a live consumer sees them at once, and reads a source
  /// that never waits (a regular file, memory) ahead on a second thread.
  var isLive: Bool { get }

  /// The regular file the bytes come from, so that no output replaces it (standard input
  /// redirected from a file is a file like any other); `nil` for pipes, terminals and memory.
  var fileIdentity: FileIdentity? { get }
  /// Whether the bytes come from a terminal.
  var isTerminal: Bool { get }
  /// The size of the regular file the bytes come from (a share of it read is progress);
  /// `nil` for pipes, terminals and memory.
  var regularFileSize: Int? { get }
}

extension ByteSource {
  /// Files and memory are always ready.
  public func waitForInput(timeout: Nanoseconds, clock: WallClock) throws -> Bool { true }

  /// A source is taken to be live unless it says otherwise.
  public var isLive: Bool { true }

  /// A source is no file unless it says otherwise.
  public var fileIdentity: FileIdentity? { nil }

  /// Whether a person types the bytes (a terminal): a command reads standard input for an
  /// omitted trace only when not.
  public var isTerminal: Bool { false }

  /// A source is no regular file unless it says otherwise.
  public var regularFileSize: Int? { nil }
}

/// A source over a file descriptor.
public final class FileSource: ByteSource {
  /// The path, or the name given for a descriptor, for diagnostics.
  public let name: String
  private let descriptor: Int32
  private let closesDescriptor: Bool

  /// A source over an open descriptor; `closesDescriptor` closes it on deinit.
  public init(descriptor: Int32, name: String, closesDescriptor: Bool = false) {
    self.descriptor = descriptor
    self.name = name
    self.closesDescriptor = closesDescriptor
  }

  /// Opens the file at `path` for reading.
  public convenience init(path: String) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      // Missing or unreadable: either way there is no input to read (EX_NOINPUT).
      let kind: IOError.Kind = [ENOENT, ENOTDIR, EACCES, EPERM].contains(errno) ? .missingInput : .other
      throw IOError.fromErrno(path, kind: kind)
    }
    var status = stat()
    if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      throw IOError(kind: .missingInput, path: path, reason: "is a directory")
    }
    self.init(descriptor: descriptor, name: path, closesDescriptor: true)
  }

  /// The file's size in bytes when it is a regular file (not a pipe or a terminal).
  public var regularFileSize: Int? {
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(status.st_size)
  }

  /// The file the descriptor is open on, when it is a regular file.
  public var fileIdentity: FileIdentity? { FileIdentity(descriptor: descriptor) }
  /// Whether the descriptor is a terminal.
  public var isTerminal: Bool { isatty(descriptor) == 1 }

  /// Only a regular file never waits for a writer.
  public var isLive: Bool { regularFileSize == nil }

  /// Standard input, named `<stdin>` in diagnostics.
  public static func standardInput() -> FileSource { FileSource(descriptor: 0, name: "<stdin>") }

  /// Reads up to `buffer.count` bytes, retrying after interruptions; 0 at the end.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    while true {
      let count = readFromDescriptor(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      if errno != EINTR { throw IOError.fromErrno(name) }
      try InterruptCleanup.checkStop()
    }
  }

  /// Polls the descriptor (a pipe or a terminal may stay quiet; a regular file never does).
  public func waitForInput(timeout: Nanoseconds, clock: WallClock) throws -> Bool {
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    // A zero timeout asks without waiting; any other waits at least a millisecond.
    let milliseconds = timeout <= .zero ? 0 : Int32(clamping: max(1, timeout.rawValue / 1_000_000))
    while true {
      let ready = poll(&request, 1, milliseconds)
      if ready >= 0 { return ready > 0 }
      if errno != EINTR { throw IOError.fromErrno(name) }
      try InterruptCleanup.checkStop()
    }
  }

  deinit { if closesDescriptor { close(descriptor) } }
}

/// A source over bytes in memory, for tests and in-process use.
public final class MemorySource: ByteSource {
  /// The name diagnostics give the source.
  public let name: String
  private let bytes: [UInt8]
  private var offset = 0
  /// The most bytes one read returns, so tests can exercise lines split across reads.
  private let chunkSize: Int

  /// A source of `bytes`, handed out at most `chunkSize` at a time.
  public init(_ bytes: [UInt8], name: String = "<memory>", chunkSize: Int = .max) {
    self.bytes = bytes
    self.name = name
    self.chunkSize = Swift.max(1, chunkSize)
  }

  /// A source of `bytes`, handed out at most `chunkSize` at a time.
  public convenience init(_ text: String, name: String = "<memory>", chunkSize: Int = .max) {
    self.init(Array(text.utf8), name: name, chunkSize: chunkSize)
  }

  /// Never: memory never makes a reader wait.
  public var isLive: Bool { false }

  /// Copies the next bytes, at most a chunk; 0 at the end.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = Swift.min(buffer.count, bytes.count - offset, chunkSize)
    guard count > 0 else { return 0 }
    // Safe because `count` is at most the room in `buffer` and the bytes left from `offset`.
    bytes.withUnsafeBytes { source in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
    }
    offset += count
    return count
  }
}

/// The C library's `read`, which `FileSource`'s own `read` hides inside the class; at file scope
/// the name is the C function's on Linux and on Darwin alike.
private func readFromDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int
{
  read(descriptor, buffer, count)
}

extension ByteSource {
  /// Reads up to `range.count` bytes into `bytes[range]`; returns how many, 0 at the end: a read
  /// for code that keeps its bytes in an array and touches no pointer.
  /// - Precondition: `range` lies within `bytes`.
  public func read(into bytes: inout [UInt8], _ range: Range<Int>) throws -> Int {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "a range within the array")
    // Safe because the buffer is the array's own storage, rebased to a range checked above, and
    // used only for the length of this call.
    return try bytes.withUnsafeMutableBytes { buffer in
      try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[range]))
    }
  }
}
