/// The coarse hinge status the system reports with every delivery.
public enum HingeStatus: UInt8, CaseIterable, Hashable, Sendable {
  case closed
  case partiallyOpen
  case fullyOpen
  /// UIKit only: the system could not tell. Never committed (SPEC 4.2).
  case unknown

  /// The name used in traces and cues.
  public var name: String {
    switch self {
    case .closed: "closed"
    case .partiallyOpen: "partiallyOpen"
    case .fullyOpen: "fullyOpen"
    case .unknown: "unknown"
    }
  }

  /// The status with this trace name, or `nil`.
  public init?(name: String) {
    switch name {
    case "closed": self = .closed
    case "partiallyOpen": self = .partiallyOpen
    case "fullyOpen": self = .fullyOpen
    case "unknown": self = .unknown
    default: return nil
    }
  }
}
