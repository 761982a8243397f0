/// The stall watch of one stream (SPEC 4.6): once per silence, `stallFactor` nominal frame
/// durations after the last frame, while the session runs and the stream has not ended.
struct StallStateMachine: Sendable {
  enum Action: Equatable, Sendable {
    case none
    /// Arm (or re-arm) the stall timer for `due`.
    case arm(due: Nanoseconds)
    /// Disarm the stall timer.
    case cancel
  }

  private enum State: Sendable {
    /// No timer armed.
    case watching
    /// A silence started at `since`; the timer is armed.
    case silent(since: Nanoseconds)
    /// The stream's recording ended: no timer is armed, and a session that resumes starts no
    /// silence for it; its next frame does.
    case ended
  }

  private var state = State.watching
  /// How long a silence lasts before it is a stall.
  private var delay: FrameMultiple

  init(factor: Double) { delay = FrameMultiple(factor) }

  /// A frame at `now` starts a new silence, if the session runs and the cadence is known.
  @inline(__always)  // into the camera stage's handling of a frame: see CameraStage.receive
  mutating func frame(at now: Nanoseconds, nominal: FrameDuration?, running: Bool) -> Action {
    guard running else {
      // Stopped, nothing is armed; a frame of an ended stream brings it back all the same.
      state = .watching
      return .none
    }
    return startSilence(at: now, nominal: nominal)
  }

  /// The session resumed: a silence starts now, so a stream that does not resume stalls, unless
  /// the stream's recording has ended.
  mutating func resumed(at now: Nanoseconds, nominal: FrameDuration?) -> Action {
    if case .ended = state { return .none }
    return startSilence(at: now, nominal: nominal)
  }

  /// The stream's recording ended: it does not stall, now or when the session resumes.
  mutating func streamEnded() -> Action {
    state = .ended
    return .cancel
  }

  /// The session stopped: a stopped stream does not stall. An ended stream stays ended.
  mutating func stopped() -> Action {
    if case .silent = state { state = .watching }
    return .cancel
  }

  /// The timer fired: the silence's start, the stall cue's `since`.
  mutating func fired() -> Nanoseconds? {
    guard case .silent(let since) = state else { return nil }
    state = .watching
    return since
  }

  private mutating func startSilence(at now: Nanoseconds, nominal: FrameDuration?) -> Action {
    guard let nominal else { return .none }
    state = .silent(since: now)
    return .arm(due: now + delay.of(nominal))
  }
}
