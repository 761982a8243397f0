/// The processor behind `crease replay`: every stage of Crease, in one state machine the
/// engine drives.
///
/// Stages see events in trace-time order. `hinge` deliveries go to the hinge stage; `mark`
/// events pass straight through as cues.
public struct Pipeline: EventProcessor, Sendable {
  /// The timers of every stage.
  public enum TimerTag: Equatable, Sendable {
    case hinge(HingeTimer)
  }

  /// The configuration the stages were built with.
  public let configuration: Configuration
  private var hinge: HingeStage

  /// Creates the stages for a validated configuration.
  public init(configuration: Configuration) {
    self.configuration = configuration
    self.hinge = HingeStage(configuration: configuration.hinge)
  }

  public mutating func process(_ event: Event, context: inout ProcessingContext<TimerTag>) {
    switch event.payload {
    case .hinge(let delivery):
      hinge.receive(delivery, context: &context)
    case .mark(let label):
      context.emit(since: event.t, .mark(label: label))
    case .frame, .drop, .input, .direction, .display, .app, .session, .end:
      break
    }
  }

  public mutating func fire(_ tag: TimerTag, context: inout ProcessingContext<TimerTag>) {
    switch tag {
    case .hinge(let timer): hinge.fire(timer, context: &context)
    }
  }
}
