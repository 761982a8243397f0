/// The kinds of event of trace format version 1 (SPEC 2), by their trace names.
///
/// Every table keyed by kind (the parser, its known keys, the binary codes) switches over this
/// enum, so a new kind does not compile until each has it.
public enum EventKind: String, TraceNamed {
  case hinge, frame, drop, input, direction, display, app, session, mark, end
}

extension Event.Payload {
  /// The payload's kind.
  public var kind: EventKind {
    switch self {
    case .hinge: .hinge
    case .frame: .frame
    case .drop: .drop
    case .input: .input
    case .direction: .direction
    case .display: .display
    case .app: .app
    case .session: .session
    case .mark: .mark
    case .end: .end
    }
  }
}
