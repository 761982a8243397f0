/// An event the library would not process, reported to the caller instead of dropped.
///
/// ``Engine/push(_:from:)`` and ``CreaseSession`` throw it from every method that takes an
/// event, handing the event back, and the cues of an asynchronous sequence (``CueSequence``)
/// end with it.
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
    /// A hinge angle that is not a finite number of degrees (NaN, infinite, or radians too large
    /// to convert), which a trace cannot hold (a recorder's refusal).
    case nonFiniteAngle
    /// A frame, drop or input on a stream with an empty name, which a trace cannot hold (a
    /// recorder's refusal).
    case emptyStreamName
    /// A direction update that lists `camera` both toward and away (a recorder's refusal).
    case cameraTowardAndAway(Camera)
  }

  /// The event as it was given.
  public var event: Event
  /// Why it was refused.
  public var reason: Reason

  /// A refusal of `event` for `reason`.
  public init(event: Event, reason: Reason) {
    self.event = event
    self.reason = reason
  }
}

extension RefusedEvent: CustomStringConvertible {
  /// The event's time and why it was refused, in one line.
  public var description: String {
    switch reason {
    case .late(let behind):
      "event at t=\(event.t.rawValue) refused: \(behind.rawValue) ns behind, more than the reorder window"
    case .afterEnd: "event at t=\(event.t.rawValue) refused: the input had already ended"
    case .negativeTime: "event at t=\(event.t.rawValue) refused: a trace's t is 0 or more"
    case .nonFiniteAngle:
      "event at t=\(event.t.rawValue) refused: the angle is not a finite number of degrees"
    case .emptyStreamName: "event at t=\(event.t.rawValue) refused: a stream's name must not be empty"
    case .cameraTowardAndAway(let camera):
      "event at t=\(event.t.rawValue) refused: camera '\(camera.name)' is listed both toward and away"
    }
  }
}

extension Event {
  /// Why a trace cannot hold this event, or `nil` when `crease` would read its line back: the
  /// rules of SPEC 2 that a value of this type can break.
  /// - Complexity: O(1).
  public var traceRefusal: RefusedEvent.Reason? {
    if t < .zero { return .negativeTime }
    switch payload {
    case .hinge(let delivery?) where !delivery.angle.degrees.isFinite: return .nonFiniteAngle
    case .frame(let frame) where frame.stream.rawValue.isEmpty: return .emptyStreamName
    case .drop(let drop) where drop.stream.rawValue.isEmpty: return .emptyStreamName
    case .input(let stream, _) where stream.rawValue.isEmpty: return .emptyStreamName
    case .direction(let update) where !update.toward.isDisjoint(with: update.away):
      return update.toward.intersection(update.away).cameras.first.map { .cameraTowardAndAway($0) }
    default: return nil
    }
  }
}
