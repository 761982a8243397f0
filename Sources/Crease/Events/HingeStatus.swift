/// The coarse hinge status the system reports with every delivery; the raw value is the trace name.
public enum HingeStatus: String, TraceNamed {
  case closed
  case partiallyOpen
  case fullyOpen
  /// UIKit only: the system could not tell. Never committed (SPEC 4.2).
  case unknown
}
