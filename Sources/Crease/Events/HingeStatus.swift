/// The coarse hinge status the system reports with every delivery; the raw value is the trace name.
public enum HingeStatus: String, TraceNamed {
  /// Folded shut.
  case closed
  /// Open part way, as a laptop or a tent.
  case partiallyOpen
  /// Open flat.
  case fullyOpen
  /// UIKit only: the system could not tell. Never committed (SPEC 4.2).
  case unknown
}
