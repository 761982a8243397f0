/// The stall watch of one stream (SPEC 4.6): once per silence, `stallFactor` nominal frame
/// durations after the last frame, while the session runs.
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
  }

  private var state = State.watching
  /// How long a silence lasts before it is a stall.
  private var delay: FrameMultiple

  init(factor: Double) { delay = FrameMultiple(factor) }

  /// A frame at `now` starts a new silence, if the session runs and the cadence is known.
  @inline(__always)  // into the camera stage's handling of a frame: see CameraStage.receive
  mutating func frame(at now: Nanoseconds, nominal: FrameDuration?, running: Bool) -> Action {
    guard running else { return .none }
    return startSilence(at: now, nominal: nominal)
  }

  /// The session resumed: a silence starts now, so a stream that does not resume stalls.
  mutating func resumed(at now: Nanoseconds, nominal: FrameDuration?) -> Action {
    startSilence(at: now, nominal: nominal)
  }

  /// The session stopped: a stopped stream does not stall.
  mutating func stopped() -> Action {
    state = .watching
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
