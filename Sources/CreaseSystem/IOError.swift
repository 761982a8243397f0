#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed read, write or open, with the path and the system's reason.
public struct IOError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure it was, for choosing an exit code.
  public enum Kind: Hashable, Sendable {
    /// The file does not exist or cannot be opened for reading (exit 66).
    case missingInput
    /// Any other read or write failure (exit 74).
    case other
    /// The reader of a socket output closed it: the run ends there, with success (SPEC 6).
    case readerClosed
  }

  /// What failed, for the exit status.
  public var kind: Kind
  /// The file, or `crease` for the process itself.
  public var path: String
  /// What went wrong, as the system said it.
  public var reason: String

  /// An error of `kind` about `path`.
  public init(kind: Kind = .other, path: String, reason: String) {
    self.kind = kind
    self.path = path
    self.reason = reason
  }

  /// An error from the current `errno`.
  static func fromErrno(_ path: String, kind: Kind = .other) -> IOError {
    IOError(kind: kind, path: path, reason: String(cString: strerror(errno)))
  }

  /// `PATH: REASON`, as the command prints it.
  public var description: String { "\(path.escapingControlCharacters): \(reason)" }
}
