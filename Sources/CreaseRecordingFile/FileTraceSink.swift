import CreaseRecording

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#elseif canImport(Darwin)
  import Darwin
#endif

/// A recorder's sink that writes each trace line to a file with POSIX calls, no Foundation: what
/// an app on iOS records into its own container.
///
/// A line is written whole before ``write(_:)`` returns (a short write goes on from where it
/// stopped, a signal's interruption is retried), so a recording cut short by the app's end
/// holds whole lines. A new file is never written over an existing one: the app names a file it
/// owns, and a file of the same name is refused (`EEXIST`), not lost.
///
/// ```swift
/// let sink = try FileTraceSink(creatingFileAt: documents + "/opening.jsonl")
/// var recorder = try TraceRecorder(sink: sink, header: TraceHeader(device: "iPhone Fold"))
/// ```
public final class FileTraceSink: TraceSink {
  /// A POSIX call that failed, with the path and `errno`.
  public struct Failure: Error, Equatable, CustomStringConvertible {
    /// The call: `open`, `write` or `close`.
    public var operation: String
    /// The file's path, or the descriptor's number when it was given one.
    public var path: String
    /// The `errno` the call left.
    public var code: Int32

    /// `PATH: OPERATION: the system's message`.
    public var description: String { "\(path): \(operation): \(String(cString: strerror(code)))" }
  }

  private var descriptor: Int32
  private let path: String
  /// Whether the sink opened the descriptor, and so closes it.
  private let owned: Bool

  /// A sink to a new file at `path`, created with mode 0644 (less the process's umask).
  /// - Throws: ``Failure`` from `open`: `EEXIST` when a file is there already.
  public init(creatingFileAt path: String) throws(Failure) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
    self.descriptor = descriptor
    self.path = path
    owned = true
  }

  /// A sink to a descriptor the caller opened and closes (a pipe, a socket, standard output).
  public init(writingTo descriptor: Int32) {
    self.descriptor = descriptor
    path = "descriptor \(descriptor)"
    owned = false
  }

  deinit { if owned && descriptor >= 0 { _ = systemClose(descriptor) } }

  /// Writes `line` whole.
  /// - Throws: ``Failure`` from `write`, or `EBADF` once ``close()`` was called.
  public func write(_ line: UnsafeRawBufferPointer) throws(Failure) {
    guard descriptor >= 0 else { throw Failure(operation: "write", path: path, code: EBADF) }
    var remaining = line
    while !remaining.isEmpty {
      let written = systemWrite(descriptor, remaining.baseAddress, remaining.count)
      if written < 0 {
        guard errno == EINTR else { throw Failure(operation: "write", path: path, code: errno) }
        continue
      }
      remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
    }
  }

  /// Closes a file the sink opened; later writes fail. The descriptor of
  /// ``init(writingTo:)`` stays open.
  /// - Throws: ``Failure`` from `close` (data a file system could not keep is reported here).
  public func close() throws(Failure) {
    guard owned, descriptor >= 0 else { return }
    let result = systemClose(descriptor)
    descriptor = -1
    guard result == 0 else { throw Failure(operation: "close", path: path, code: errno) }
  }
}

/// `write(2)` and `close(2)`, named apart from the sink's own `write(_:)` and `close()`, which
/// hide them inside the class.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
