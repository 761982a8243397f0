import Crease

/// The member names of a trace line (SPEC 2), each spelled here once: the fast path's look-up
/// words, its byte-by-byte fallback and the unknown-key check all come from these cases.
enum TraceKey: String, CaseIterable {
  case t, kind
  case angle, angleRad, status, hinge
  case stream, pts, camera, reason
  case view, toward, away
  case display, fullScreen
  case state
  case running, previewVisible
  case label
  case format, version, device, os, streams

  /// The keys a record of `kind` defines besides `t` and `kind`; `nil` for the header.
  static func defined(by kind: EventKind?) -> [TraceKey] {
    switch kind {
    case nil: [.format, .version, .device, .os, .streams]
    case .hinge: [.angle, .angleRad, .status, .hinge]
    case .frame: [.stream, .pts, .camera]
    case .drop: [.stream, .pts, .reason]
    case .input: [.stream, .camera]
    case .direction: [.view, .toward, .away]
    case .display: [.display, .fullScreen]
    case .app: [.state]
    case .session: [.running, .previewVisible]
    case .mark: [.label]
    case .streamEnd: [.stream]
    case .end: []
    }
  }
}
