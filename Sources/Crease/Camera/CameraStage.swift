/// The camera stage (SPEC 4.6 to 4.9): it composes, per stream, the frame-gap, decision, mask and
/// stall machines, and once for all streams the direction maps and the accessory's eligibility.
///
/// At one frame the cues come in this order: the decision for its camera (`camera.direction`,
/// `camera.mirroring`), a held gap the frame proves, `camera.mask` off, then what the frame
/// reveals about the frames before it (`camera.ptsRegression` or `camera.gap`).
struct CameraStage: Sendable {
  private struct Stream: Sendable {
    var gaps: FrameGapsStateMachine
    var decision: DecisionStateMachine
    var mask = MaskStateMachine()
    var stall: StallStateMachine
    /// When the stream's latest `input` came (a switch trigger).
    var latestInput: Nanoseconds?
  }

  let configuration: CameraConfiguration
  /// Frames delivered under a mirroring decision that a later direction update revised.
  private(set) var staleFrames = 0
  /// Frames, drops and inputs of streams past the ``StreamBudget``, which the stage does not
  /// track.
  private(set) var untrackedEvents = 0
  private var budget = StreamBudget()
  private var streams: [Stream] = []
  /// Each stream's index in `streams`: a hostile trace may name a hundred thousand streams.
  private var streamIndices = StreamIndices()
  private var declaredRates: [StreamName: Double] = [:]
  private var maps = DirectionMaps()
  private var display: DisplayChange?
  private var sessionRunning: Bool?
  private var accessory = AccessoryEligibility()
  private var latestDisplayEvent: Nanoseconds?
  private var latestClosedChangeSince: Nanoseconds?

  init(configuration: CameraConfiguration) { self.configuration = configuration }

  /// The accessory's conditions not met now (SPEC 4.9).
  var missingAccessoryConditions: AccessoryConditions { accessory.missing }

  /// The nominal frame duration of `stream` as the stage knows it now, if it does.
  func nominalFrameDuration(of stream: StreamName) -> FrameDuration? {
    streamIndices[stream].flatMap { streams[$0].gaps.nominal }
  }

  mutating func apply(_ header: TraceHeader) {
    for (stream, fps) in header.nominalFrameRates {
      declaredRates[stream] = fps
      if let index = streamIndices[stream] { streams[index].gaps.declare(framesPerSecond: fps) }
    }
  }

  // MARK: Events

  // Borrowed: taken as consuming, a frame's payload was copied to bind the frame and then
  // destroyed twice. The frame itself stays consuming in `receive`. Tuning: moved-not-copied.
  mutating func process(_ payload: borrowing Event.Payload, context: inout ProcessingContext<StageTimer>) {
    let now = context.now
    switch payload {
    case .drop(let drop):
      guard let index = streamIndex(drop.stream) else { return }
      streams[index].gaps.drop(drop)
    case .input(let stream, let camera):
      guard let index = streamIndex(stream) else { return }
      if let input = streams[index].decision.input, input != camera {
        triggerMask(index, .input, since: now, context: &context)
      }
      streams[index].latestInput = now
      Self.emit(streams[index].decision.input(camera, maps: maps), of: stream, context: &context)
    case .direction(let update):
      maps.apply(update)
      for index in streams.indices {
        let (action, stale) = streams[index].decision.directionChanged(maps: maps)
        Self.emit(action, of: streams[index].gaps.stream, context: &context)
        staleFrames += stale
      }
    case .display(let change):
      latestDisplayEvent = now
      if let display, display.display != change.display {
        for index in streams.indices where streams[index].decision.input == .virtualFront {
          triggerMask(index, .display, since: now, context: &context)
        }
      }
      display = change
      accessory.innerFullScreen = change.display == .inner && change.fullScreen
      updateAccessory(since: now, context: &context)
    case .app(let state):
      accessory.foreground = state == .foreground
      updateAccessory(since: now, context: &context)
    case .session(let session):
      setRunning(session.running, context: &context)
      accessory.running = session.running
      if let visible = session.previewVisible { accessory.previewVisible = visible }
      updateAccessory(since: now, context: &context)
    case .streamEnd(let stream):
      guard let index = streamIndex(stream) else { return }
      endRun(of: index, context: &context)
      Self.apply(streams[index].stall.streamEnded(), to: index, context: &context)
    case .hinge, .frame, .mark, .end:
      break
    }
  }

  /// The committed hinge status changed (SPEC 4.6 switch window, 4.8 mask, 4.9 `open`).
  mutating func hingeChanged(_ change: HingeStage.StatusChange, context: inout ProcessingContext<StageTimer>)
  {
    switch change {
    case .initial(let status):
      accessory.committed = status
      updateAccessory(since: context.now, startsReporting: false, context: &context)
    case .lost:
      accessory.committed = nil
      updateAccessory(since: context.now, startsReporting: false, context: &context)
    case .changed(let from, let to, let since):
      // SPEC 4.1: a commit's `camera.mask` comes before its `accessory.eligible`. A commit from
      // `unknown` learns the status (SPEC 4.8): it is no fold, so it neither masks nor explains
      // a gap.
      if from != .unknown && (from == .closed || to == .closed) {
        latestClosedChangeSince = since
        for index in streams.indices where streams[index].decision.input == .virtualFront {
          triggerMask(index, .hinge, since: since, context: &context)
        }
      }
      accessory.committed = to
      updateAccessory(since: since, startsReporting: false, context: &context)
    }
  }

  mutating func fire(_ timer: CameraTimer, context: inout ProcessingContext<StageTimer>) {
    switch timer {
    case .stall(let index):
      guard let since = streams[index].stall.fired() else { return }
      context.emit(since: since, .cameraStall(stream: streams[index].gaps.stream))
    case .mask(let index):
      Self.apply(
        streams[index].mask.timerFired(), to: index, of: streams[index].gaps.stream, context: &context)
    }
  }

  /// The input ended: gaps still awaiting confirmation are reported now.
  mutating func finish(context: inout ProcessingContext<StageTimer>) {
    for index in streams.indices {
      if let held = streams[index].gaps.finish() {
        context.emit(since: held.since, held.cue(of: streams[index].gaps.stream))
      }
    }
  }

  // MARK: Composition

  /// Takes in a frame of `stream` at `pts`, labelled with `camera` when the trace knows it,
  /// which the pipeline hands over itself rather than in its payload.
  // Handed the frame by the pipeline's switch rather than found in the payload by the stage's
  // own: 19 instructions an event fewer (callgrind, the bench's day trace). A call of its own,
  // with each machine's `frame` step inlined: inlined into the pipeline's switch, the engine's
  // push grew past what the optimizer inlines well (+243).
  //
  // The frame comes in parts, and the stream name owned, kept owned by the semantics attribute
  // (the optimizer would otherwise borrow it, leaving the caller to destroy what it came from):
  // this stage ends the name, a string, itself: with one direct release, or with none when the
  // name is immortal (tuning: immortal-names). Destroyed whole, as a `Frame` or as the event's
  // payload, it went through the type's value witnesses (callgrind: 18 instructions an event;
  // the parts without the attribute, 2). Tuning: owned-parts.
  @inline(never) @_semantics("optimize.sil.specialize.owned2guarantee.never")
  mutating func receive(
    stream: consuming StreamName, pts: PresentationTime, camera labelled: Camera?,
    context: inout ProcessingContext<StageTimer>
  ) {
    guard let index = streamIndex(stream) else { return }
    let now = context.now
    // Under a `virtualFront` input a frame labelled `virtualFront` names no constituent: it
    // keeps the one known (SPEC 4.7), for the decision, the mask and the gap's cause alike. A
    // local, not written into the frame: a write made the frame a copy (callgrind: 29
    // instructions an event).
    let camera =
      labelled == .virtualFront
      ? streams[index].decision.knownCamera(labelled: .virtualFront) : labelled
    if streams[index].decision.keepsDecision(frameFrom: camera) {
      assert(
        streams[index].decision.isDecided(under: maps), "a frame that changed nothing changed the decision")
    } else {
      Self.emit(
        streams[index].decision.decide(frameFrom: camera!, maps: maps), of: stream, context: &context)
    }
    let triggers = FrameGapsStateMachine.SwitchTriggers(
      input: streams[index].latestInput, display: latestDisplayEvent,
      closedHingeChange: latestClosedChangeSince)
    let found = streams[index].gaps.frame(pts: pts, camera: camera, at: now, triggers: triggers)
    if let held = found.heldGap { context.emit(since: held.since, held.cue(of: stream)) }
    let delivering = camera ?? streams[index].decision.activeCamera(maps: maps)?.camera
    Self.apply(
      streams[index].mask.frame(delivering: delivering, afterGap: found.afterGap, now: now), to: index,
      of: stream, context: &context)
    if let revealed = found.revealed { context.emit(since: revealed.since, revealed.cue(of: stream)) }
    let stall = streams[index].stall.frame(
      at: now, nominal: streams[index].gaps.nominal, running: sessionRunning != false)
    Self.apply(stall, to: index, context: &context)
    // Last, though its cues come before any later one: a call that may change `streams` had the
    // optimizer check the array for sharing again before the stall step, at every frame
    // (callgrind: 5 instructions an event). The stall step sets a timer and emits nothing.
    if found.earlyGaps { reportEarlyGaps(of: index, context: &context) }
    (consume stream).rawValue.endWithoutReleaseIfImmortal()
  }

  // The helpers below are static on purpose: an instance method's call would read `self` before
  // its argument mutates `streams`, and the array would then be copied for every frame.
  // `emit` is inlined: asked for every frame, nearly always with nothing to emit (−6 an event).
  @inline(__always)
  private static func emit(
    _ action: DecisionStateMachine.Action, of stream: StreamName, context: inout ProcessingContext<StageTimer>
  ) {
    if let direction = action.direction {
      context.emit(
        since: context.now,
        .cameraDirection(stream: stream, camera: direction.camera, facing: direction.facing))
    }
    if let mirroring = action.mirroring {
      context.emit(
        since: context.now,
        .cameraMirroring(
          stream: stream, camera: mirroring.camera, mirrored: mirroring.mirrored, basis: mirroring.basis))
    }
  }

  private mutating func triggerMask(
    _ index: Int, _ reason: MaskReason, since: Nanoseconds, context: inout ProcessingContext<StageTimer>
  ) {
    let action = streams[index].mask.trigger(
      reason, since: since, now: context.now,
      activeCamera: streams[index].decision.activeCamera(maps: maps)?.camera,
      longest: configuration.maskMax)
    Self.apply(action, to: index, of: streams[index].gaps.stream, context: &context)
  }

  private static func apply(
    _ action: MaskStateMachine.Action, to index: Int, of stream: StreamName,
    context: inout ProcessingContext<StageTimer>
  ) {
    switch action {
    case .none:
      break
    case .on(let reason, let since, let due):
      context.emit(since: since, .cameraMask(stream: stream, on: true, reason: reason))
      context.timers.schedule(.camera(.mask(stream: index)), at: due)
    case .off(let since, let cancelsTimer):
      if cancelsTimer { context.timers.cancel(.camera(.mask(stream: index))) }
      context.emit(since: since, .cameraMask(stream: stream, on: false, reason: nil))
    }
  }

  private static func apply(
    _ action: StallStateMachine.Action, to index: Int, context: inout ProcessingContext<StageTimer>
  ) {
    switch action {
    case .none: break
    case .arm(let due): context.timers.schedule(.camera(.stall(stream: index)), at: due, endOfStream: .cancel)
    case .cancel: context.timers.cancel(.camera(.stall(stream: index)))
    }
  }

  /// Reports the gaps found among a stream's first deltas, once its estimate exists.
  private mutating func reportEarlyGaps(of index: Int, context: inout ProcessingContext<StageTimer>) {
    for gap in streams[index].gaps.earlyGaps {
      context.emit(since: gap.since, gap.cue(of: streams[index].gaps.stream))
    }
    streams[index].gaps.clearEarlyGaps()
  }

  private mutating func setRunning(_ running: Bool, context: inout ProcessingContext<StageTimer>) {
    let wasRunning = sessionRunning != false
    sessionRunning = running
    if running {
      guard !wasRunning else { return }
      for index in streams.indices {
        Self.apply(
          streams[index].stall.resumed(at: context.now, nominal: streams[index].gaps.nominal), to: index,
          context: &context)
      }
    } else {
      // Every stop ends a run of frames, a repeated one too (SPEC 4.6), and a stopped session
      // delivers nothing, so its silence is no stall.
      for index in streams.indices {
        endRun(of: index, context: &context)
        Self.apply(streams[index].stall.stopped(), to: index, context: &context)
      }
    }
  }

  /// Ends a stream's run of frames (a session stop, or the stream's own end): a held gap is
  /// reported now, and a frame delivered after it is not compared with the frames before it.
  private mutating func endRun(of index: Int, context: inout ProcessingContext<StageTimer>) {
    if let held = streams[index].gaps.runEnded() {
      context.emit(since: held.since, held.cue(of: streams[index].gaps.stream))
    }
  }

  private mutating func updateAccessory(
    since: Nanoseconds, startsReporting: Bool = true, context: inout ProcessingContext<StageTimer>
  ) {
    if let cue = accessory.update(startsReporting: startsReporting) { context.emit(since: since, cue) }
  }

  /// The stream's index, or `nil` (counted in ``untrackedEvents``) for a new stream past the
  /// limits.
  private mutating func streamIndex(_ name: StreamName) -> Int? {
    if let index = streamIndices.index(of: name) { return index }
    return newStreamIndex(name)
  }

  /// The index of a stream seen for the first time, or `nil` (counted in ``untrackedEvents``)
  /// past the limits. Once a stream, kept out of the per-frame path.
  @inline(never)
  private mutating func newStreamIndex(_ name: StreamName) -> Int? {
    guard budget.admit(name) else {
      untrackedEvents += 1
      return nil
    }
    streams.append(
      Stream(
        gaps: FrameGapsStateMachine(
          stream: name, framesPerSecond: declaredRates[name], configuration: configuration),
        decision: DecisionStateMachine(),
        stall: StallStateMachine(factor: configuration.stallFactor)))
    streamIndices.add(name, index: streams.count - 1)
    return streams.count - 1
  }
}
