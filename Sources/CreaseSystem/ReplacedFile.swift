import CRenameExchange

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output file that is either replaced whole or left as it was (SPEC 7).
///
/// A regular file (or a path that does not exist yet) is written to a temporary file in the
/// same folder, `.NAME.crease-XXXXXX`, and renamed over the path by ``commit()``; until then the
/// old file stays untouched. A path that is a symbolic link is written through it: the file it
/// points to is replaced and the link stays. The new file keeps the mode (and, where the
/// process may, the owner) of the one it replaces; a new file gets the mode the umask allows.
/// Dropping it uncommitted, or a signal that ends the process (`InterruptCleanup`), removes
/// the temporary file, so an interrupted run leaves the old file or none, never a partial one.
/// A FIFO or a device, and the output of a paced or live run, is written in place, as the sink
/// flushes, since its reader consumes it as it goes.
///
/// A file that exists is replaced by exchanging the two and removing the old one, not by a
/// rename over it: ext4 writes a file's data out before a rename that replaces another
/// (`auto_da_alloc`), which made a rerun of `batch` into its last directory wait on the disk
/// for every output (Docs/Decisions.md, "Output").
public final class ReplacedFile {
  /// The sink to write to.
  public let sink: FileSink
  /// The path the output will have.
  public let path: String
  /// The file that is replaced: `path`, or what the link at `path` points to.
  private let target: String
  /// Whether a file was at `target` when this was opened: then it is exchanged, not renamed over.
  private let replacesFile: Bool
  private var temporaryPath: String?

  /// Opens the output for `path`; `inPlace` writes even a regular file where it is (a paced or
  /// live run, whose reader follows the file as it grows).
  public init(path: String, inPlace: Bool = false) throws {
    self.path = path
    target = Self.linkTarget(of: path)
    var status = stat()
    let exists = stat(target, &status) == 0
    replacesFile = exists
    if inPlace || (exists && (status.st_mode & S_IFMT) != S_IFREG) {
      sink = try FileSink(creatingFileAt: path)
      return
    }
    let (descriptor, temporary) = try Self.createTemporary(beside: target)
    if exists {
      // As the file it replaces: its permission bits, and its owner where this process may.
      fchmod(descriptor, status.st_mode & 0o7777)
      _ = fchown(descriptor, status.st_uid, status.st_gid)
    }
    temporaryPath = temporary
    sink = FileSink(descriptor: descriptor, name: path, closesDescriptor: true)
  }

  /// Writes out what is buffered and puts the file in place.
  public func commit() throws {
    try sink.flush()
    guard let temporary = temporaryPath else { return }
    guard replacesFile && Self.exchange(temporary, with: target) || rename(temporary, target) == 0 else {
      throw IOError.fromErrno(path)
    }
    temporaryPath = nil
    InterruptCleanup.unregister(temporary)
  }

  /// Puts `temporary` at `target` by exchanging the two and removing the old file, now at
  /// `temporary`; false, with the paths as they were, where that cannot be done and a rename
  /// must (no file at `target` any more, a file system that cannot exchange).
  ///
  /// A `target` that became something `unlink` cannot remove (a directory) is exchanged back,
  /// so the rename that follows fails as it always did, and nothing of the user's moves.
  /// Until `temporary` is removed it stays registered with ``InterruptCleanup``: a signal in
  /// between removes the old file, the new one being complete in its place.
  private static func exchange(_ temporary: String, with target: String) -> Bool {
    guard crease_rename_exchange(temporary, target) == 0 else { return false }
    if unlink(temporary) == 0 { return true }
    _ = crease_rename_exchange(temporary, target)
    return false
  }

  deinit {
    if let temporary = temporaryPath {
      unlink(temporary)
      InterruptCleanup.unregister(temporary)
    }
  }

  /// Where the symbolic links starting at `path` end (the end need not exist yet); `path`
  /// itself when it is no link. A loop of links is left to the open that follows to report.
  private static func linkTarget(of path: String) -> String {
    var current = path
    for _ in 0..<40 {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count > 0 else { return current }
      let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if link.hasPrefix("/") {
        current = link
      } else if let slash = current.lastIndex(of: "/") {
        current = String(current[...slash]) + link
      } else {
        current = link
      }
    }
    return path
  }

  /// Creates `.NAME.crease-XXXXXX` beside `path` with mode 0666 less the umask, as any new file,
  /// registered with ``InterruptCleanup``.
  ///
  /// Registered before it is created, so there is no instant at which the file exists and a
  /// signal would leave it behind (registered after, a signal between the two did, seen under
  /// ThreadSanitizer, whose slower run widened the window). A name already taken is skipped
  /// before it is registered; one taken between that look and the creation is unregistered
  /// again, and a signal in that instant could remove another program's file of the same random
  /// name: one in 62^6, in a window of microseconds.
  private static func createTemporary(beside path: String) throws -> (Int32, String) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    var generator = SystemRandomNumberGenerator()
    while true {
      let suffix = String((0..<6).map { _ in letters.randomElement(using: &generator)! })
      let temporary = "\(folder).\(name).crease-\(suffix)"
      var existing = stat()
      if lstat(temporary, &existing) == 0 { continue }
      InterruptCleanup.register(temporary)
      let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
      if descriptor >= 0 { return (descriptor, temporary) }
      let failure = errno
      InterruptCleanup.unregister(temporary)
      guard failure == EEXIST else {
        errno = failure
        throw IOError.fromErrno(path)
      }
    }
  }
}
