/// An event the library would not process, reported to the caller instead of dropped.
///
/// ``CreaseSession`` throws it from every method that takes an event, and the cues of an
/// asynchronous sequence (``CueSequence``) end with it.
public struct RefusedEvent: Error, Hashable, Sendable {
  /// Why the event was refused.
  public enum Reason: Hashable, Sendable {
    /// More than the reorder window behind the latest event before it (or before the time a
    /// session was advanced to), by `behind`.
    case late(behind: Nanoseconds)
    /// The input had already ended: an `end` event, or ``CreaseSession/finish()``.
    case afterEnd
    /// At a negative `t`, which a trace cannot hold (a recorder's refusal).
    case negativeTime
  }

  /// The event as it was given.
  public var event: Event
  /// Why it was refused.
  public var reason: Reason

  public init(event: Event, reason: Reason) {
    self.event = event
    self.reason = reason
  }

  /// The engine's verdict on `event` as an error, or `nil` when it was accepted.
  init?<Processor>(event: Event, admission: Engine<Processor>.Admission) {
    switch admission {
    case .accepted: return nil
    case .late(let behind): self.init(event: event, reason: .late(behind: behind))
    case .afterEnd: self.init(event: event, reason: .afterEnd)
    }
  }
}

extension RefusedEvent: CustomStringConvertible {
  public var description: String {
    switch reason {
    case .late(let behind):
      "event at t=\(event.t.rawValue) refused: \(behind.rawValue) ns behind, more than the reorder window"
    case .afterEnd: "event at t=\(event.t.rawValue) refused: the input had already ended"
    case .negativeTime: "event at t=\(event.t.rawValue) refused: a trace's t is 0 or more"
    }
  }
}
