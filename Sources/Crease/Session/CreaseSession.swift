/// Crease in-process: feed hinge callbacks and capture events as they happen, move time forward
/// while nothing happens, and take the cues.
///
/// Events from one process arrive in order, so a session has no reorder window: every event is
/// processed as soon as it is sent, and a timer's cue comes with the first event or
/// ``advance(to:)`` after its due time. An event before the session's time is refused with
/// ``RefusedEvent``, never dropped in silence.
///
/// ```swift
/// var session = try CreaseSession()
/// try session.hinge(.degrees(12), status: .closed, at: .zero)
/// try session.hinge(.degrees(40), status: .partiallyOpen, at: .milliseconds(100))
/// session.advance(to: .milliseconds(200))   // the debounce window commits at 150 ms
/// session.drainCues { cue in apply(cue) }
/// ```
public struct CreaseSession: EventSending, Sendable {
  private var engine: Engine<Pipeline>

  /// A session with a validated configuration (its reorder window is not used).
  public init(configuration: Configuration = .default) throws(ConfigurationError) {
    try configuration.validate()
    engine = Engine(processor: Pipeline(configuration: configuration), sourceCount: 1, reorderWindow: .zero)
  }

  /// Any event (``EventSending`` adds a call for each kind: `hinge(_:status:at:)`,
  /// `frame(_:stream:camera:at:)` and the others). One before the session's time, or after ``finish()`` or an `end` event, is
  /// refused.
  public mutating func send(_ event: Event) throws(RefusedEvent) {
    if let refusal = RefusedEvent(event: event, admission: engine.push(event, from: 0)) { throw refusal }
  }

  /// Moves time forward to `t` while no event arrives, firing the cues due by then. Later
  /// events must be after `t`; a `t` at or before ``now`` changes nothing.
  public mutating func advance(to t: Nanoseconds) { engine.advance(to: t) }

  /// Ends the session: pending timers fire at their due times (stall timers are cancelled).
  public mutating func finish() { engine.finish(source: 0) }

  /// The trace time the session has reached.
  public var now: Nanoseconds { engine.now }

  /// Calls `body` with each cue produced so far, in order, and forgets them.
  public mutating func drainCues(_ body: (Cue) throws -> Void) rethrows { try engine.drainCues(body) }
}
