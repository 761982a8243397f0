/// The processor behind `crease replay`: every stage of Crease, in one state machine the
/// engine drives.
///
/// Stages see events in trace-time order. `mark` events pass straight through as cues.
public struct Pipeline: EventProcessor, Sendable {
  /// The timers of every stage (none yet: `mark` needs no timer).
  public typealias TimerTag = Never

  /// The configuration the stages were built with.
  public let configuration: Configuration

  /// Creates the stages for a validated configuration.
  public init(configuration: Configuration) {
    self.configuration = configuration
  }

  public mutating func process(_ event: Event, context: inout ProcessingContext<TimerTag>) {
    switch event.payload {
    case .mark(let label):
      context.emit(since: event.t, .mark(label: label))
    case .hinge, .frame, .drop, .input, .direction, .display, .app, .session, .end:
      break
    }
  }

  public mutating func fire(_ tag: TimerTag, context: inout ProcessingContext<TimerTag>) {}
}
