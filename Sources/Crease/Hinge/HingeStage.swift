/// The hinge stage (SPEC 4.2 to 4.5): launch and availability, the status debounce with its
/// region cue, hysteresis boundaries, motion and settle, and effect progress.
///
/// At one sample the cues come in this order: `hinge.initial` (or `hinge.available`),
/// `hinge.threshold` per boundary in configuration order, `hinge.motion`, `hinge.progress`,
/// `hinge.settled`.
struct HingeStage: Sendable {
  /// A change of the committed status, for the stages that depend on it (camera switches, the
  /// accessory's `open` condition).
  enum StatusChange: Equatable, Sendable {
    /// The launch (or available) delivery committed this status directly.
    case initial(HingeStatus)
    /// A debounced commit; `since` is the window's first sample.
    case changed(from: HingeStatus, to: HingeStatus, since: Nanoseconds)
    /// The hinge went away: nothing is committed.
    case lost
  }

  private enum Availability: Sendable {
    /// No delivery yet: the next one is the launch delivery.
    case awaitingLaunch
    case available
    /// The last delivery had no hinge: the next one with a hinge is `hinge.available`.
    case unavailable
  }

  private var availability = Availability.awaitingLaunch
  private var debounce: StatusDebounceStateMachine
  private var boundaries: [HysteresisStateMachine]
  private var motion: MotionStateMachine
  private var progress: ProgressStateMachine
  private let progressFullDegrees: Double

  init(configuration: HingeConfiguration) {
    debounce = StatusDebounceStateMachine(
      debounce: configuration.statusDebounce, maximumWait: configuration.statusMaxWait)
    boundaries = configuration.boundaries.map(HysteresisStateMachine.init(boundary:))
    motion = MotionStateMachine(
      settings: .init(
        deadband: configuration.motionDeadbandDegrees, fullyOpenZone: configuration.fullyOpenZoneDegrees,
        settle: configuration.settle, settleTolerance: configuration.settleToleranceDegrees))
    progress = ProgressStateMachine(interval: configuration.progressInterval)
    progressFullDegrees = configuration.progressFullDegrees
  }

  /// Takes in a hinge delivery (`nil`: no hinge) at `context.now`; returns the change of the
  /// committed status it caused, if any.
  // The debounce's and the motion machine's steps are inlined here: as calls, 22 instructions
  // a line more (callgrind). This function itself stays a call: inlined into the pipeline, it
  // cost 46 more.
  mutating func receive(
    _ delivery: HingeDelivery?, context: inout ProcessingContext<StageTimer>
  ) -> StatusChange? {
    guard let delivery else { return becomeUnavailable(context: &context) }
    let now = context.now
    let angle = delivery.angle.degrees
    var change: StatusChange?
    switch debounce.receive(delivery.status, at: now) {
    case .none: break
    case .commitInitial(let status):
      change = .initial(status)
      let kind: CueKind =
        availability == .unavailable
        ? .hingeAvailable(status: status, angle: .degrees(angle))
        : .hingeInitial(status: status, angle: .degrees(angle))
      availability = .available
      context.emit(since: now, kind)
    case .armTimer(let due):
      context.timers.schedule(.hinge(.statusDebounce), at: due)
    }
    for index in boundaries.indices {
      // Read, and written only when a side changes, through a call: a write in the loop had
      // the optimizer check the array's storage for sharing before the loop, at every sample
      // (callgrind: 5 instructions an event).
      if case .side(let side, let initial) = boundaries[index].action(for: angle) {
        enter(side, ofBoundary: index)
        context.emit(
          since: now,
          .hingeThreshold(
            boundary: boundaries[index].boundary.name, side: side, angle: .degrees(angle), initial: initial))
      }
    }
    let outcome = motion.receive(angle, at: now)
    if let phase = outcome.motion {
      context.emit(since: now, .hingeMotion(phase: phase, angle: .degrees(angle)))
    }
    if let due = outcome.settleTimer { context.timers.schedule(.hinge(.settle), at: due) }
    if let zone = outcome.settled {
      settle(MotionStateMachine.Settle(angle: angle, zone: zone, since: now), context: &context)
    } else if outcome.isMoving {
      switch progress.receive(progressValue(angle), at: now) {
      case .none: break
      case .send(let value): context.emit(since: now, .hingeProgress(value: value))
      case .armTimer(let due): context.timers.schedule(.hinge(.progress), at: due)
      }
    }
    return change
  }

  /// Handles one of the stage's timers at `context.now`; returns the change of the committed
  /// status it caused, if any.
  mutating func fire(_ timer: HingeTimer, context: inout ProcessingContext<StageTimer>)
    -> StatusChange?
  {
    switch timer {
    case .statusDebounce:
      guard case .commit(let from, let to, let since) = debounce.fire() else { return nil }
      context.emit(since: since, .hingeStatus(from: from, to: to))
      context.emit(since: since, .regionsChanged(divisionActive: to == .partiallyOpen))
      if to == .closed, let settled = motion.commitClosed(since: since) { settle(settled, context: &context) }
      return .changed(from: from, to: to, since: since)
    case .settle:
      if let settled = motion.fireSettle() { settle(settled, context: &context) }
    case .progress:
      if let (value, since) = progress.fire(at: context.now) {
        context.emit(since: since, .hingeProgress(value: value))
      }
    }
    return nil
  }

  /// Puts boundary `index` on `side`, which its machine reported.
  @inline(never)
  private mutating func enter(_ side: BoundarySide, ofBoundary index: Int) { boundaries[index].enter(side) }

  /// Reports a settle, preceded by the final progress value if it changed.
  private mutating func settle(
    _ settled: MotionStateMachine.Settle, context: inout ProcessingContext<StageTimer>
  ) {
    context.timers.cancel(.hinge(.settle))
    context.timers.cancel(.hinge(.progress))
    if let value = progress.settle(progressValue(settled.angle), at: context.now) {
      context.emit(since: settled.since, .hingeProgress(value: value))
    }
    context.emit(since: settled.since, .hingeSettled(angle: .degrees(settled.angle), zone: settled.zone))
  }

  /// The view has no hinge: report it once, cancel the stage's timers and start over.
  private mutating func becomeUnavailable(context: inout ProcessingContext<StageTimer>)
    -> StatusChange?
  {
    guard availability != .unavailable else { return nil }
    availability = .unavailable
    context.emit(since: context.now, .hingeUnavailable)
    for timer in [HingeTimer.statusDebounce, .settle, .progress] { context.timers.cancel(.hinge(timer)) }
    debounce.reset()
    for index in boundaries.indices { boundaries[index].reset() }
    motion.reset()
    progress.reset()
    return .lost
  }

  private func progressValue(_ angle: Double) -> Double {
    min(max(angle / progressFullDegrees, 0), 1)
  }
}
