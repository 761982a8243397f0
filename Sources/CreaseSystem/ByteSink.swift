import CreaseRecording

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Somewhere bytes go: a file, a pipe, standard output, or memory in tests.
public protocol ByteSink: AnyObject {
  /// Appends bytes; a sink may buffer them until ``flush()``.
  func write(_ bytes: UnsafeRawBufferPointer) throws
  /// Writes out anything buffered.
  func flush() throws

  /// The regular file the bytes go to (standard output redirected to a file), so that it is
  /// never also read; `nil` for pipes, terminals and memory.
  var fileIdentity: FileIdentity? { get }
}

extension ByteSink {
  /// A sink is no file unless it says otherwise.
  public var fileIdentity: FileIdentity? { nil }

  /// Appends the UTF-8 bytes of `text`.
  public func write(_ text: String) throws {
    var text = text
    try text.withUTF8 { bytes throws in try write(UnsafeRawBufferPointer(bytes)) }
  }

  /// Appends `bytes`.
  public func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { buffer throws in try write(buffer) }
  }
}

/// A buffered sink over a file descriptor.
public final class FileSink: ByteSink {
  /// The path or name used in error messages.
  public let name: String
  private let descriptor: Int32
  private let closesDescriptor: Bool
  private var buffer: [UInt8] = []
  private let capacity: Int
  /// Whether every line goes out as soon as it is written (for pipes feeding other tools).
  public var isLineBuffered = false

  /// A sink over an open descriptor; `closesDescriptor` closes it on deinit.
  public init(descriptor: Int32, name: String, closesDescriptor: Bool = false, capacity: Int = 1 << 16) {
    self.descriptor = descriptor
    self.name = name
    self.closesDescriptor = closesDescriptor
    self.capacity = capacity
    buffer.reserveCapacity(capacity)
  }

  /// Creates or truncates the file at `path`.
  public convenience init(creatingFileAt path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw IOError.fromErrno(path) }
    self.init(descriptor: descriptor, name: path, closesDescriptor: true)
  }

  /// The file the descriptor is open on, when it is a regular file.
  public var fileIdentity: FileIdentity? { FileIdentity(descriptor: descriptor) }

  /// Whether the descriptor is a terminal.
  public var isTerminal: Bool { isatty(descriptor) == 1 }

  /// Standard output.
  public static func standardOutput() -> FileSink { FileSink(descriptor: 1, name: "<stdout>") }
  /// Standard error, unbuffered in effect: it is flushed after every write.
  public static func standardError() -> FileSink {
    let sink = FileSink(descriptor: 2, name: "<stderr>")
    sink.isLineBuffered = true
    return sink
  }

  /// Buffers `bytes`, writing the buffer out when it fills.
  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    // A block of half the buffer or more, such as a whole ``LineOutput`` buffer, goes out as it
    // is, after what is buffered: copying it in first cost a pass over every byte (about 18
    // instructions a trace line in a replay).
    if bytes.count >= capacity / 2 {
      try flush()
      try writeAll(bytes)
      return
    }
    if buffer.count + bytes.count > capacity { try flush() }
    buffer.append(contentsOf: bytes)
    if isLineBuffered { try flush() }
  }

  /// Writes out what is buffered, retrying after interruptions and partial writes.
  public func flush() throws {
    guard !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    try buffer.withUnsafeBytes { bytes throws in try writeAll(bytes) }
  }

  private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
    // Safe because `offset` stays below `bytes.count`: a write returns at most what it was
    // given, and a negative result leaves the loop.
    var offset = 0
    while offset < bytes.count {
      let written = writeToDescriptor(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR {
          // Stopped between chunks, the output ends with whole lines; within one, the rest of
          // the chunk is written first (a second signal ends the process at once).
          if offset == 0 { try InterruptCleanup.checkStop() }
          continue
        }
        throw IOError.fromErrno(name)
      }
      offset += written
    }
  }

  deinit {
    try? flush()
    if closesDescriptor { close(descriptor) }
  }
}

/// A sink that keeps everything in memory, for tests and in-process use.
public final class MemorySink: ByteSink {
  /// Everything written so far.
  public private(set) var bytes: [UInt8] = []

  /// An empty sink.
  public init() {}

  /// Keeps `bytes` after those already written.
  public func write(_ bytes: UnsafeRawBufferPointer) throws { self.bytes.append(contentsOf: bytes) }
  /// Does nothing: the bytes are already kept.
  public func flush() throws {}

  /// Everything written so far, decoded as UTF-8.
  public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A sink that discards everything, like `/dev/null`.
public final class DiscardingSink: ByteSink {
  /// A sink that keeps nothing.
  public init() {}
  /// Drops `bytes`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws {}
  /// Does nothing.
  public func flush() throws {}
}

/// The C library's `write`, which `FileSink`'s own `write` hides inside the class; at file scope
/// the name is the C function's on Linux and on Darwin alike.
private func writeToDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

// The sinks a recorder may write a trace to, their failure untyped (an I/O error).
extension FileSink: TraceSink {}
extension MemorySink: TraceSink {}
extension DiscardingSink: TraceSink {}
