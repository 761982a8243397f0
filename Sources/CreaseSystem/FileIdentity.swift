#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What makes two open files, or a path and a descriptor, the same regular file: its device and
/// inode. Devices, FIFOs, sockets and terminals have none, since a run cannot destroy them.
public struct FileIdentity: Hashable, Sendable {
  /// The device the file lives on.
  public var device: UInt64
  /// The file's inode on that device.
  public var inode: UInt64

  /// The identity of the regular file open on `descriptor`, or `nil` for anything else.
  public init?(descriptor: Int32) {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    self.init(status)
  }

  /// The identity of the regular file at `path` (following links), or `nil` for anything else.
  public init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    self.init(status)
  }

  private init?(_ status: stat) {
    guard (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    device = UInt64(truncatingIfNeeded: status.st_dev)
    inode = UInt64(truncatingIfNeeded: status.st_ino)
  }
}
