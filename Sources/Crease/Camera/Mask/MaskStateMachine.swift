/// The preview mask of one stream around a camera switch (SPEC 4.8).
///
/// On at the first trigger (a second one while masked changes nothing); off at the first frame
/// from another camera or after a gap, or when its timer fires `maskMaxMs` after it went on.
struct MaskStateMachine: Sendable {
  enum Action: Equatable, Sendable {
    case none
    /// Mask, with `since` the trigger's; the stage arms the mask timer for `due`.
    case on(reason: MaskReason, since: Nanoseconds, due: Nanoseconds)
    /// Unmask, with `since` as given; `cancelsTimer` when a frame, not the timer, lifted it.
    case off(since: Nanoseconds, cancelsTimer: Bool)
  }

  private enum State: Sendable {
    case off
    /// Masked since `time`, while `camera` (the active one at the trigger) delivered.
    case on(time: Nanoseconds, camera: Camera?)
  }

  private var state = State.off

  /// A switch is coming.
  mutating func trigger(
    _ reason: MaskReason, since: Nanoseconds, now: Nanoseconds, activeCamera: Camera?, longest: Nanoseconds
  ) -> Action {
    guard case .off = state else { return .none }
    state = .on(time: now, camera: activeCamera)
    return .on(reason: reason, since: since, due: now + longest)
  }

  /// A frame from `delivering` (its own camera, else the stream's active one) at `now`.
  @inline(__always)  // into the camera stage's handling of a frame: see CameraStage.receive
  mutating func frame(delivering: Camera?, afterGap: Bool, now: Nanoseconds) -> Action {
    guard case .on(_, let camera) = state, afterGap || delivering != camera else { return .none }
    state = .off
    return .off(since: now, cancelsTimer: true)
  }

  /// The mask timer fired: the mask has been on for `maskMaxMs`.
  mutating func timerFired() -> Action {
    guard case .on(let time, _) = state else { return .none }
    state = .off
    return .off(since: time, cancelsTimer: false)
  }
}
