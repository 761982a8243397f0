/// The camera stage (SPEC 4.6 to 4.9): frame gaps and their causes, stalls, pts regressions,
/// direction and mirroring per stream, the preview mask around switches, and the capture
/// accessory's eligibility.
///
/// At one frame the cues come in this order: the decision for its camera (`camera.direction`,
/// `camera.mirroring`), `camera.mask` off, then what the frame reveals about the frames before
/// it (`camera.ptsRegression` or `camera.gap`).
struct CameraStage: Sendable {
  private struct LastFrame: Sendable {
    var t: Nanoseconds
    var pts: Nanoseconds
    var camera: Camera?
  }

  private struct Decision: Equatable, Sendable {
    var camera: Camera
    var value: Bool
  }

  private struct Mask: Sendable {
    var onTime: Nanoseconds
    var camera: Camera?
  }

  private struct ReportedDrop: Sendable {
    var pts: Nanoseconds
    var reason: DropReason
  }

  /// A gap of about two frames, held until the next deltas tell a gap from a rate change.
  private struct PendingGap: Sendable {
    var cue: CueKind
    var since: Nanoseconds
    var delta: Nanoseconds
    var alike = 0
  }

  private struct Stream: Sendable {
    let name: StreamName
    var cadence: FrameCadence
    var input: Camera?
    var latestInput: Nanoseconds?
    /// The camera that delivered the latest frame since the latest `input`.
    var constituent: Camera?
    var last: LastFrame?
    var pendingGap: PendingGap?
    var drops: [ReportedDrop] = []
    /// When the current silence started, while a stall timer is armed.
    var silenceStart: Nanoseconds?
    var direction: Decision?
    var mirroring: Decision?
    var framesUnderDecision = 0
    var mask: Mask?
  }

  /// Deltas this much alike (a quarter of the held delta) confirm a rate change.
  private static let rateChangeTolerance = 4
  /// Drops held between two frames at most; older ones are forgotten.
  private static let maximumHeldDrops = 4096
  /// Alike deltas after a two-frame gap that make it a rate change.
  private static let rateChangeConfirmations = 2

  let configuration: CameraConfiguration
  /// Frames delivered under a mirroring decision that a later direction update revised.
  private(set) var staleFrames = 0
  private var streams: [Stream] = []
  /// Each stream's index in `streams`: a hostile trace may name a hundred thousand streams.
  private var streamIndices: [StreamName: Int] = [:]
  private var declaredRates: [StreamName: Double] = [:]
  private var maps = DirectionMaps()
  private var display: DisplayChange?
  private var sessionRunning: Bool?
  private var accessory = AccessoryEligibility()
  private var latestDisplayEvent: Nanoseconds?
  private var latestClosedChangeSince: Nanoseconds?

  init(configuration: CameraConfiguration) { self.configuration = configuration }

  /// The nominal frame duration of `stream` as the stage knows it now, if it does.
  func nominalFrameDuration(of stream: StreamName) -> FrameDuration? {
    streamIndices[stream].flatMap { streams[$0].cadence.nominal }
  }

  mutating func apply(_ header: TraceHeader) {
    for (stream, fps) in header.nominalFrameRates {
      declaredRates[stream] = fps
      if let index = streamIndices[stream] { streams[index].cadence = FrameCadence(framesPerSecond: fps) }
    }
  }

  // MARK: Events

  mutating func process(_ event: Event, context: inout ProcessingContext<StageTimer>) {
    switch event.payload {
    case .frame(let frame): receive(frame, context: &context)
    case .drop(let drop):
      let index = streamIndex(drop.stream)
      if let last = streams[index].last, drop.pts.nanoseconds <= last.pts { return }
      // A stream that drops without delivering must not grow memory without bound.
      if streams[index].drops.count == Self.maximumHeldDrops { streams[index].drops.removeFirst() }
      streams[index].drops.append(ReportedDrop(pts: drop.pts.nanoseconds, reason: drop.reason))
    case .input(let stream, let camera):
      let index = streamIndex(stream)
      if let input = streams[index].input, input != camera {
        triggerMask(index, .input, since: context.now, context: &context)
      }
      streams[index].input = camera
      streams[index].latestInput = context.now
      streams[index].constituent = nil
      updateDecision(index, context: &context)
    case .direction(let update):
      maps.apply(update)
      for index in streams.indices {
        let before = streams[index].mirroring
        updateDecision(index, context: &context)
        if let before, let after = streams[index].mirroring, before.camera == after.camera,
          before.value != after.value
        {
          staleFrames += streams[index].framesUnderDecision
        }
        streams[index].framesUnderDecision = 0
      }
    case .display(let change):
      latestDisplayEvent = context.now
      if let display, display.display != change.display {
        for index in streams.indices where streams[index].input == .virtualFront {
          triggerMask(index, .display, since: context.now, context: &context)
        }
      }
      display = change
      accessory.innerFullScreen = change.display == .inner && change.fullScreen
      updateAccessory(since: context.now, context: &context)
    case .app(let state):
      accessory.foreground = state == .foreground
      updateAccessory(since: context.now, context: &context)
    case .session(let session):
      setRunning(session.running, context: &context)
      accessory.running = session.running
      if let visible = session.previewVisible { accessory.previewVisible = visible }
      updateAccessory(since: context.now, context: &context)
    case .hinge, .mark, .end:
      break
    }
  }

  /// The committed hinge status changed (SPEC 4.6 switch window, 4.8 mask, 4.9 `open`).
  mutating func hingeChanged(
    _ change: HingeStage.StatusChange, context: inout ProcessingContext<StageTimer>
  ) {
    switch change {
    case .initial(let status):
      accessory.committed = status
      updateAccessory(since: context.now, startsReporting: false, context: &context)
    case .lost:
      accessory.committed = nil
      updateAccessory(since: context.now, startsReporting: false, context: &context)
    case .changed(let from, let to, let since):
      accessory.committed = to
      updateAccessory(since: since, startsReporting: false, context: &context)
      guard from == .closed || to == .closed else { return }
      latestClosedChangeSince = since
      for index in streams.indices where streams[index].input == .virtualFront {
        triggerMask(index, .hinge, since: since, context: &context)
      }
    }
  }

  mutating func fire(_ timer: CameraTimer, context: inout ProcessingContext<StageTimer>) {
    switch timer {
    case .stall(let index):
      guard let since = streams[index].silenceStart else { return }
      streams[index].silenceStart = nil
      context.emit(since: since, .cameraStall(stream: streams[index].name))
    case .mask(let index):
      guard let mask = streams[index].mask else { return }
      streams[index].mask = nil
      context.emit(since: mask.onTime, .cameraMask(stream: streams[index].name, on: false, reason: nil))
    }
  }

  /// The input ended: gaps still awaiting confirmation are reported now.
  mutating func finish(context: inout ProcessingContext<StageTimer>) {
    for index in streams.indices {
      if let pending = streams[index].pendingGap {
        streams[index].pendingGap = nil
        context.emit(since: pending.since, pending.cue)
      }
    }
  }

  // MARK: Frames

  private mutating func receive(_ frame: Frame, context: inout ProcessingContext<StageTimer>) {
    let index = streamIndex(frame.stream)
    let now = context.now
    let pts = frame.pts.nanoseconds
    if let camera = frame.camera { streams[index].constituent = camera }
    updateDecision(index, context: &context)
    streams[index].framesUnderDecision += 1
    defer {
      streams[index].last = LastFrame(t: now, pts: pts, camera: frame.camera)
      streams[index].drops.removeAll { $0.pts <= pts }
      armStall(index, context: &context)
    }
    guard let last = streams[index].last else {
      unmaskIfSwitched(index, frameCamera: frame.camera, gap: false, context: &context)
      return
    }
    guard pts > last.pts else {
      unmaskIfSwitched(index, frameCamera: frame.camera, gap: false, context: &context)
      context.emit(since: now, .cameraPTSRegression(stream: frame.stream, from: last.pts, to: pts))
      return
    }
    let delta = pts - last.pts
    // Reported drops explain the delta they bridge: it is a gap, never a rate change, and it
    // stays out of the rate estimate.
    let bridged = streams[index].drops.contains { $0.pts > last.pts && $0.pts < pts }
    if var pending = streams[index].pendingGap {
      // Within a quarter of the held delta; divided, not multiplied, so a pts jump near 2⁶³
      // cannot overflow.
      if !bridged
        && (delta - pending.delta).rawValue.magnitude
          <= pending.delta.rawValue.magnitude / UInt64(Self.rateChangeTolerance)
      {
        pending.alike += 1
        if pending.alike == Self.rateChangeConfirmations {
          streams[index].pendingGap = nil
          streams[index].cadence.adopt(pending.delta)
        } else {
          streams[index].pendingGap = pending
        }
        unmaskIfSwitched(index, frameCamera: frame.camera, gap: false, context: &context)
        return
      }
      streams[index].pendingGap = nil
      context.emit(since: pending.since, pending.cue)
    }
    guard let nominal = streams[index].cadence.nominal, delta > nominal.scaled(by: configuration.gapFactor)
    else {
      if !bridged { streams[index].cadence.observe(delta) }
      unmaskIfSwitched(index, frameCamera: frame.camera, gap: false, context: &context)
      return
    }
    unmaskIfSwitched(index, frameCamera: frame.camera, gap: true, context: &context)
    let missing = nominal.frames(in: delta) - 1
    let (cause, reason) = classifyGap(index, last: last, pts: pts, camera: frame.camera, now: now)
    let cue = CueKind.cameraGap(
      stream: frame.stream, from: last.pts, to: pts, missing: missing, cause: cause, reason: reason)
    let since = last.t + nominal.rounded
    if missing == 1 && !bridged {
      streams[index].pendingGap = PendingGap(cue: cue, since: since, delta: delta)
    } else {
      context.emit(since: since, cue)
    }
  }

  /// The cause of a gap between `last` and a frame at `pts` (SPEC 4.6, first match).
  private func classifyGap(
    _ index: Int, last: LastFrame, pts: Nanoseconds, camera: Camera?, now: Nanoseconds
  ) -> (GapCause, DropReason?) {
    if let previous = last.camera, let camera, previous != camera { return (.cameraSwitch, nil) }
    let windowStart = last.t - configuration.switchWindow
    func inWindow(_ trigger: Nanoseconds?) -> Bool { trigger.map { $0 >= windowStart && $0 <= now } ?? false }
    if inWindow(streams[index].latestInput) || inWindow(latestDisplayEvent)
      || inWindow(latestClosedChangeSince)
    {
      return (.cameraSwitch, nil)
    }
    var tally = DropTally()
    for drop in streams[index].drops where drop.pts > last.pts && drop.pts < pts { tally.add(drop) }
    guard let reason = tally.mostCommon else { return (.unexplained, nil) }
    return (.reportedDrop, reason)
  }

  /// Counts drop reasons without allocating: the most common wins, a tie goes to the reason
  /// whose first drop came earliest.
  private struct DropTally {
    private var counts = (0, 0, 0)
    private var earliest = (Nanoseconds.max, Nanoseconds.max, Nanoseconds.max)

    mutating func add(_ drop: ReportedDrop) {
      switch drop.reason {
      case .frameWasLate:
        counts.0 += 1
        earliest.0 = min(earliest.0, drop.pts)
      case .outOfBuffers:
        counts.1 += 1
        earliest.1 = min(earliest.1, drop.pts)
      case .discontinuity:
        counts.2 += 1
        earliest.2 = min(earliest.2, drop.pts)
      }
    }

    var mostCommon: DropReason? {
      var best: (reason: DropReason, count: Int, earliest: Nanoseconds)?
      for (reason, count, first) in [
        (DropReason.frameWasLate, counts.0, earliest.0), (.outOfBuffers, counts.1, earliest.1),
        (.discontinuity, counts.2, earliest.2),
      ] where count > 0 {
        if best == nil || count > best!.count || (count == best!.count && first < best!.earliest) {
          best = (reason, count, first)
        }
      }
      return best?.reason
    }
  }

  // MARK: Decisions

  /// The stream's active camera and its facing (SPEC 4.7).
  private func activeCamera(_ index: Int) -> (camera: Camera, facing: CameraFacing?)? {
    let stream = streams[index]
    if stream.input == .virtualFront {
      let camera = stream.constituent ?? maps.frontCameraFacingUser ?? .virtualFront
      // A virtual front camera follows the app between displays, so it faces the person.
      return (camera, camera.isFront ? .user : maps.facing(of: camera))
    }
    guard let camera = stream.input ?? stream.constituent else { return nil }
    return (camera, maps.facing(of: camera))
  }

  /// Emits `camera.direction` and `camera.mirroring` where the stream's decision changed.
  private mutating func updateDecision(_ index: Int, context: inout ProcessingContext<StageTimer>) {
    guard let (camera, facing) = activeCamera(index) else { return }
    let name = streams[index].name
    if let facing {
      let direction = Decision(camera: camera, value: facing == .user)
      if streams[index].direction != direction {
        streams[index].direction = direction
        context.emit(since: context.now, .cameraDirection(stream: name, camera: camera, facing: facing))
      }
    }
    let mirrored = facing.map { $0 == .user } ?? camera.isFront
    let mirroring = Decision(camera: camera, value: mirrored)
    guard streams[index].mirroring != mirroring else { return }
    if streams[index].mirroring?.camera != camera { streams[index].framesUnderDecision = 0 }
    streams[index].mirroring = mirroring
    context.emit(
      since: context.now,
      .cameraMirroring(
        stream: name, camera: camera, mirrored: mirrored, basis: facing == nil ? .deviceType : .direction))
  }

  // MARK: Mask, stall, accessory

  private mutating func triggerMask(
    _ index: Int, _ reason: MaskReason, since: Nanoseconds,
    context: inout ProcessingContext<StageTimer>
  ) {
    guard streams[index].mask == nil else { return }
    streams[index].mask = Mask(onTime: context.now, camera: activeCamera(index)?.camera)
    context.emit(since: since, .cameraMask(stream: streams[index].name, on: true, reason: reason))
    context.timers.schedule(.camera(.mask(stream: index)), at: context.now + configuration.maskMax)
  }

  /// Unmasks at the first frame from a camera other than the one masked (the frame's own
  /// camera when the trace names it, else the stream's active camera), or after a gap.
  private mutating func unmaskIfSwitched(
    _ index: Int, frameCamera: Camera?, gap: Bool, context: inout ProcessingContext<StageTimer>
  ) {
    let delivering = frameCamera ?? activeCamera(index)?.camera
    guard let mask = streams[index].mask, gap || delivering != mask.camera else { return }
    streams[index].mask = nil
    context.timers.cancel(.camera(.mask(stream: index)))
    context.emit(since: context.now, .cameraMask(stream: streams[index].name, on: false, reason: nil))
  }

  private mutating func armStall(_ index: Int, context: inout ProcessingContext<StageTimer>) {
    guard sessionRunning != false, let nominal = streams[index].cadence.nominal else { return }
    streams[index].silenceStart = context.now
    context.timers.schedule(
      .camera(.stall(stream: index)), at: context.now + nominal.scaled(by: configuration.stallFactor),
      endOfStream: .cancel)
  }

  private mutating func setRunning(_ running: Bool, context: inout ProcessingContext<StageTimer>) {
    let wasRunning = sessionRunning != false
    sessionRunning = running
    guard running != wasRunning else { return }
    for index in streams.indices {
      if running {
        // A resumed stream starts a silence: it stalls if no frame comes in time.
        armStall(index, context: &context)
      } else {
        // A stopped session delivers nothing, so the next frame starts a new run of frames: a
        // held gap is reported now, and the silence is neither a stall nor a gap.
        if let pending = streams[index].pendingGap { context.emit(since: pending.since, pending.cue) }
        streams[index].pendingGap = nil
        streams[index].last = nil
        streams[index].drops.removeAll()
        streams[index].silenceStart = nil
        context.timers.cancel(.camera(.stall(stream: index)))
      }
    }
  }

  private mutating func updateAccessory(
    since: Nanoseconds, startsReporting: Bool = true, context: inout ProcessingContext<StageTimer>
  ) {
    if let cue = accessory.update(startsReporting: startsReporting) { context.emit(since: since, cue) }
  }

  private mutating func streamIndex(_ name: StreamName) -> Int {
    if let index = streamIndices[name] { return index }
    streams.append(Stream(name: name, cadence: FrameCadence(framesPerSecond: declaredRates[name])))
    streamIndices[name] = streams.count - 1
    return streams.count - 1
  }
}
