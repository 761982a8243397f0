/// The kinds of event of trace format version 1 (SPEC 2), by their trace names.
///
/// Every table keyed by kind (the parser, its known keys, the binary codes) switches over this
/// enum, so a new kind does not compile until each has it.
public enum EventKind: String, TraceNamed {
  /// A hinge delivery, or its absence (``Event/Payload/hinge(_:)``).
  case hinge
  /// A delivered sample buffer (``Event/Payload/frame(_:)``).
  case frame
  /// A dropped-frame callback (``Event/Payload/drop(_:)``).
  case drop
  /// The capture session's video input changed (``Event/Payload/input(stream:camera:)``).
  case input
  /// A direction-coordinator update (``Event/Payload/direction(_:)``).
  case direction
  /// The app's view moved to a display (``Event/Payload/display(_:)``).
  case display
  /// The app moved to the foreground or background (``Event/Payload/app(_:)``).
  case app
  /// The capture session started or stopped (``Event/Payload/session(_:)``).
  case session
  /// An annotation (``Event/Payload/mark(label:)``).
  case mark
  /// One stream's recording stopped (``Event/Payload/streamEnd(stream:)``).
  case streamEnd
  /// The end of the trace (``Event/Payload/end``).
  case end
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
    case .streamEnd: .streamEnd
    case .end: .end
    }
  }
}
