/// The coarse hinge status the system reports with every delivery; the raw value is the trace name.
public enum HingeStatus: String, CaseIterable, Hashable, Sendable {
  case closed
  case partiallyOpen
  case fullyOpen
  /// UIKit only: the system could not tell. Never committed (SPEC 4.2).
  case unknown

  /// The name used in traces and cues.
  public var name: String { rawValue }

  /// The status with this trace name, or `nil`.
  public init?(name: String) { self.init(rawValue: name) }
}
