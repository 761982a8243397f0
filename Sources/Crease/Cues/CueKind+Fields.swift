/// A value of one cue field, typed so every output format renders it the same way.
public enum CueFieldValue: Hashable, Sendable {
  /// Free text, such as a mark's label.
  case text(String)
  /// One of the format's names, such as a status or a camera.
  case name(String)
  /// A whole number, such as a time in nanoseconds.
  case integer(Int64)
  /// An angle or a progress value, written with at most 3 decimals.
  case decimal(Double)
  case bool(Bool)
  /// A list of names.
  case names([String])
}

extension CueKind {
  /// Calls `body` with each field after `t`, `since` and `cue`, in output order (SPEC 3).
  public func forEachField(_ body: (_ key: StaticString, _ value: CueFieldValue) throws -> Void) rethrows {
    switch self {
    case .mark(let label):
      try body("label", .text(label))
    }
  }
}
