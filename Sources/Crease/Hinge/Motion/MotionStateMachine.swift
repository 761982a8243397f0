/// Fold and unfold detection with settle (SPEC 4.4), after Android's unfold detection: a
/// deadband against a resting baseline, a fully-open zone, extreme tracking for reversals, and
/// a settle timer that only real movement re-arms.
///
/// Jitter smaller than the deadband never starts motion, so a hinge resting with noise emits
/// nothing; a slow movement with noise still does once it leaves the deadband.
struct MotionStateMachine: Sendable {
  /// The settings of HingeConfiguration this machine uses.
  struct Settings: Sendable {
    var deadband: Double
    var fullyOpenZone: Double
    var settle: Nanoseconds
    var settleTolerance: Double
  }

  /// What the owner does after a sample. Several parts can apply to one sample.
  struct SampleOutcome: Equatable, Sendable {
    /// Emit `hinge.motion` with this phase at the sample's angle.
    var motion: MotionPhase?
    /// Arm (or re-arm) the settle timer for this time.
    var settleTimer: Nanoseconds?
    /// The hinge settled at this sample, in this zone (cancel the settle timer).
    var settled: RestZone?
    /// The sample belongs to a movement, so it feeds effect progress.
    var isMoving = false
  }

  /// A settle to report: the latest angle, its zone, and the sample that last re-armed.
  struct Settle: Equatable, Sendable {
    var angle: Double
    var zone: RestZone
    var since: Nanoseconds
  }

  private struct Movement: Sendable {
    var phase: MotionPhase
    /// The furthest angle reached in the current direction.
    var extreme: Double
    var latest: Double
    /// The sample that last re-armed the settle timer.
    var armAngle: Double
    var armTime: Nanoseconds
  }

  private enum State: Sendable {
    case awaitingFirstSample
    case resting(baseline: Double)
    case moving(Movement)
  }

  let settings: Settings
  private var state = State.awaitingFirstSample

  init(settings: Settings) { self.settings = settings }

  /// Takes in an angle in degrees at `now`.
  @inline(__always)  // into the hinge stage's handling of a sample: see HingeStage.receive
  mutating func receive(_ angle: Double, at now: Nanoseconds) -> SampleOutcome {
    let inZone = isInFullyOpenZone(angle)
    switch state {
    case .awaitingFirstSample:
      state = .resting(baseline: angle)
      return SampleOutcome()
    case .resting(let baseline):
      guard !inZone, abs(angle - baseline) > settings.deadband else { return SampleOutcome() }
      let phase: MotionPhase = angle > baseline ? .opening : .closing
      state = .moving(Movement(phase: phase, extreme: angle, latest: angle, armAngle: angle, armTime: now))
      return SampleOutcome(motion: phase, settleTimer: now + settings.settle, isMoving: true)
    case .moving(var movement):
      if inZone && movement.phase == .opening {
        state = .resting(baseline: angle)
        return SampleOutcome(settled: .fullyOpen, isMoving: true)
      }
      var outcome = SampleOutcome(isMoving: true)
      movement.latest = angle
      switch movement.phase {
      case .opening: movement.extreme = max(movement.extreme, angle)
      case .closing: movement.extreme = min(movement.extreme, angle)
      }
      let back = movement.phase == .opening ? movement.extreme - angle : angle - movement.extreme
      if !inZone && back > settings.deadband {
        movement.phase = movement.phase == .opening ? .closing : .opening
        movement.extreme = angle
        outcome.motion = movement.phase
      }
      if abs(angle - movement.armAngle) > settings.settleTolerance {
        movement.armAngle = angle
        movement.armTime = now
        outcome.settleTimer = now + settings.settle
      }
      state = .moving(movement)
      return outcome
    }
  }

  /// The settle timer fired: the hinge rests at its latest angle.
  mutating func fireSettle() -> Settle? {
    guard case .moving(let movement) = state else { return nil }
    state = .resting(baseline: movement.latest)
    return Settle(angle: movement.latest, zone: zone(of: movement.latest), since: movement.armTime)
  }

  /// The status committed to `closed` (whose window opened at `since`): a moving hinge settles
  /// at once, closed.
  mutating func commitClosed(since: Nanoseconds) -> Settle? {
    guard case .moving(let movement) = state else { return nil }
    state = .resting(baseline: movement.latest)
    return Settle(angle: movement.latest, zone: .closed, since: since)
  }

  /// Forgets everything, as when the hinge goes away: the next sample is a new baseline.
  mutating func reset() { state = .awaitingFirstSample }

  private func isInFullyOpenZone(_ angle: Double) -> Bool { abs(180 - angle) < settings.fullyOpenZone }

  private func zone(of angle: Double) -> RestZone {
    if isInFullyOpenZone(angle) { return .fullyOpen }
    return angle < settings.deadband ? .closed : .half
  }
}
