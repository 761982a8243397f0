import Glibc

/// An output file that is either replaced whole or left as it was (SPEC 7).
///
/// A regular file (or a path that does not exist yet) is written to a temporary file in the
/// same folder, `.NAME.crease-XXXXXX`, and renamed over the path by ``commit()``; until then the
/// old file stays untouched. Dropping it uncommitted, or SIGINT or SIGTERM, removes the
/// temporary file, so an interrupted run leaves the old file or none, never a partial one. A
/// FIFO or a device, and the output of a paced or live run, is written in place, as the sink
/// flushes, since its reader consumes it as it goes.
public final class ReplacedFile {
  /// The sink to write to.
  public let sink: FileSink
  /// The path the output will have.
  public let path: String
  private var temporaryPath: String?

  /// Opens the output for `path`; `inPlace` writes even a regular file where it is (a paced or
  /// live run, whose reader follows the file as it grows).
  public init(path: String, inPlace: Bool = false) throws {
    self.path = path
    var status = stat()
    if inPlace || (stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG) {
      sink = try FileSink(creatingFileAt: path)
      return
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array("\(folder).\(name).crease-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw IOError.fromErrno(path) }
    fchmod(descriptor, 0o644)
    let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    temporaryPath = temporary
    InterruptCleanup.register(temporary)
    sink = FileSink(descriptor: descriptor, name: path, closesDescriptor: true)
  }

  /// Writes out what is buffered and puts the file in place.
  public func commit() throws {
    try sink.flush()
    guard let temporary = temporaryPath else { return }
    guard rename(temporary, path) == 0 else { throw IOError.fromErrno(path) }
    temporaryPath = nil
    InterruptCleanup.unregister(temporary)
  }

  deinit {
    if let temporary = temporaryPath {
      unlink(temporary)
      InterruptCleanup.unregister(temporary)
    }
  }
}

/// Removes the temporary files of uncommitted outputs when SIGINT or SIGTERM ends the process.
///
/// The handler may only make async-signal-safe calls, so the paths live in a fixed table of C
/// strings that it reads without a lock; threads that open outputs at once (in-process runs,
/// tests) change the table under one.
enum InterruptCleanup {
  static let capacity = 16
  nonisolated(unsafe) static var paths = [UnsafeMutablePointer<CChar>?](repeating: nil, count: capacity)
  nonisolated(unsafe) static var installed = false
  nonisolated(unsafe) static var lock: UnsafeMutablePointer<pthread_mutex_t> = {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(lock, nil)
    return lock
  }()

  static func register(_ path: String) {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    if !installed {
      installed = true
      signal(SIGINT, handleSignal)
      signal(SIGTERM, handleSignal)
      // A parent may have spawned the process with the signals blocked; they must arrive.
      var signals = sigset_t()
      sigemptyset(&signals)
      sigaddset(&signals, SIGINT)
      sigaddset(&signals, SIGTERM)
      pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
    guard let slot = paths.firstIndex(where: { $0 == nil }) else { return }
    paths[slot] = strdup(path)
  }

  static func unregister(_ path: String) {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    guard let slot = paths.firstIndex(where: { $0.map { String(cString: $0) == path } ?? false }) else {
      return
    }
    let pointer = paths[slot]
    paths[slot] = nil
    free(pointer)
  }
}

/// Unlinks every registered temporary file, then dies of the signal as it would have.
private func handleSignal(_ signal: Int32) {
  for slot in 0..<InterruptCleanup.capacity {
    if let path = InterruptCleanup.paths[slot] { unlink(path) }
  }
  Glibc.signal(signal, SIG_DFL)
  raise(signal)
}
