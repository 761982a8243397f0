/// The frame gaps of one stream (SPEC 4.6): its nominal cadence, gaps and their causes, pts
/// regressions, and a gap of about two frames held until the next deltas tell it from a rate
/// change.
///
/// Event methods return what the stage emits; the machine itself emits nothing.
struct FrameGapsStateMachine: Sendable {
  /// A cue found, with its `since`, as plain values (the stage names the stream in the cue):
  /// a frame action holding two optional cues was built and destroyed for every frame.
  struct Finding: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
      case gap(missing: Int, cause: GapCause, reason: DropReason?)
      case ptsRegression
    }

    var kind: Kind
    /// The pts before and after.
    var from: Nanoseconds
    var to: Nanoseconds
    var since: Nanoseconds

    /// The cue, for `stream`.
    func cue(of stream: StreamName) -> CueKind {
      switch kind {
      case .gap(let missing, let cause, let reason):
        .cameraGap(stream: stream, from: from, to: to, missing: missing, cause: cause, reason: reason)
      case .ptsRegression:
        .cameraPTSRegression(stream: stream, from: from, to: to)
      }
    }
  }

  /// What one frame showed, in the order the stage reports it (SPEC 4.1): a held gap this frame
  /// proved a gap, then (after the stage's mask decision) what the frame reveals.
  struct FrameAction: Equatable, Sendable {
    /// A two-frame gap held for confirmation that this frame shows was a gap after all.
    var heldGap: Finding?
    /// Whether this frame comes after a gap (held or reported): a mask lifts after a gap.
    var afterGap = false
    /// A regression or a gap this frame reveals, reported at once.
    var revealed: Finding?
    /// Whether this frame gave the stream its first estimate, and gaps among the deltas before
    /// it were found: the stage takes them from ``earlyGaps``.
    var earlyGaps = false
  }

  /// When the events that explain a gap as a camera switch last came (SPEC 4.6).
  struct SwitchTriggers: Sendable {
    /// The stream's latest `input`.
    var input: Nanoseconds?
    /// The latest `display` event.
    var display: Nanoseconds?
    /// The `since` of the latest committed hinge change to or from `closed`.
    var closedHingeChange: Nanoseconds?
  }

  private struct LastFrame: Sendable {
    var t: Nanoseconds
    var pts: Nanoseconds
    var camera: Camera?
  }

  private struct ReportedDrop: Sendable {
    var pts: Nanoseconds
    var reason: DropReason?
  }

  /// A delta seen before the stream had a nominal duration, its cause known at the time.
  private struct EarlyDelta: Sendable {
    var from: LastFrame
    var to: LastFrame
    var bridged: Bool
    var cause: GapCause
    var reason: DropReason?
  }

  private struct HeldGap: Sendable {
    var finding: Finding
    var delta: Nanoseconds
    var alike = 0
  }

  private enum State: Sendable {
    /// No frame since the stream began or its session stopped.
    case waiting
    /// Frames are coming: the latest.
    case running(last: LastFrame)
  }

  /// Deltas this much alike (a quarter of the held delta) confirm a rate change.
  private static let rateChangeTolerance: UInt64 = 4
  /// Alike deltas after a two-frame gap that make it a rate change.
  private static let rateChangeConfirmations = 2
  /// Drops held between two frames at most; older ones are forgotten.
  private static let maximumHeldDrops = 4096
  /// Deltas kept while no estimate exists. Three ordinary deltas make one, so only a stream
  /// whose every delta bridges a drop fills this; past it the earliest are forgotten.
  private static let maximumEarlyDeltas = 64

  let stream: StreamName
  let configuration: CameraConfiguration
  private(set) var cadence: FrameCadence
  private var state = State.waiting
  /// A two-frame gap held for confirmation; only ever set while running. Kept beside the
  /// state, not in it: the state is then plain data, and the usual frame rewrites a few words.
  private var held: HeldGap?
  private var drops: [ReportedDrop] = []
  /// Deltas seen before a stream without a declared rate had an estimate (SPEC 4.6: judged as
  /// soon as one exists; forgotten, too few to judge, if the stream ends or stops first).
  private var early: [EarlyDelta] = []
  /// Gaps found among those deltas once they were judged, for the stage to report and clear.
  private(set) var earlyGaps: [Finding] = []
  /// The shortest delta that is a gap.
  private var gapThreshold: FrameMultiple
  /// A delta below this (the nominal divided by `gapFactor`) is a faster rate's, if the next is
  /// alike.
  private var fasterThreshold: FrameMultiple
  /// The latest delta, when it was below ``fasterThreshold``, not bridged by a drop: the first
  /// of two that confirm a faster rate.
  private var fasterDelta: Nanoseconds?

  init(stream: StreamName, framesPerSecond: Double?, configuration: CameraConfiguration) {
    self.stream = stream
    self.configuration = configuration
    gapThreshold = FrameMultiple(configuration.gapFactor)
    fasterThreshold = FrameMultiple(dividingBy: configuration.gapFactor)
    cadence = FrameCadence(framesPerSecond: framesPerSecond)
  }

  /// The nominal frame duration, once known.
  var nominal: FrameDuration? { cadence.nominal }

  /// A header declared the stream's rate.
  mutating func declare(framesPerSecond: Double) { cadence = FrameCadence(framesPerSecond: framesPerSecond) }

  /// A dropped-frame callback: it explains the deltas it bridges.
  mutating func drop(_ drop: Drop) {
    let pts = drop.pts.nanoseconds
    if case .running(let last) = state, pts <= last.pts { return }
    // A stream that drops without delivering must not grow memory without bound.
    if drops.count == Self.maximumHeldDrops { drops.removeFirst() }
    drops.append(ReportedDrop(pts: pts, reason: drop.reason))
  }

  /// A frame delivered at trace time `now`, from `camera` (as the stage knows it: a `virtualFront`
  /// label under a `virtualFront` input is the constituent known).
  @inline(__always)  // into the camera stage's handling of a frame: see CameraStage.receive
  mutating func frame(
    pts presentation: PresentationTime, camera: Camera?, at now: Nanoseconds, triggers: SwitchTriggers
  ) -> FrameAction {
    let pts = presentation.nanoseconds
    let current = LastFrame(t: now, pts: pts, camera: camera)
    defer { if !drops.isEmpty { drops.removeAll { $0.pts <= pts } } }
    guard case .running(let last) = state else {
      state = .running(last: current)
      return FrameAction()
    }
    state = .running(last: current)
    guard pts > last.pts else {
      fasterDelta = nil
      // The regressing frame becomes the reference.
      return FrameAction(revealed: Finding(kind: .ptsRegression, from: last.pts, to: pts, since: now))
    }
    let delta = pts - last.pts
    // Reported drops explain the delta they bridge: it is a gap, never a rate change, and it
    // stays out of the rate estimate.
    let bridged = !drops.isEmpty && drops.contains { $0.pts > last.pts && $0.pts < pts }
    var action = FrameAction()
    if held != nil {
      if !bridged && Self.isAlike(delta, held!.delta) {
        held!.alike += 1
        if held!.alike == Self.rateChangeConfirmations {
          cadence.adopt(held!.delta)
          held = nil
        }
        return action
      }
      action.heldGap = held.take()!.finding
    }
    guard let nominal = cadence.nominal else {
      return firstDelta(delta, from: last, to: current, bridged: bridged, triggers: triggers)
    }
    guard delta > gapThreshold.of(nominal) else {
      if bridged {
        fasterDelta = nil
      } else {
        cadence.observe(delta)
        confirmFasterRate(delta, nominal: nominal)
      }
      return action
    }
    fasterDelta = nil
    action.afterGap = true
    // At least one: with a gapFactor below 1.5 a delta of 1.3 frames is a gap, of one frame.
    let missing = max(1, nominal.frames(in: delta) - 1)
    let (cause, reason) = classify(last: last, current: current, triggers: triggers)
    let gap = Finding(
      kind: .gap(missing: missing, cause: cause, reason: reason), from: last.pts, to: pts,
      since: min(last.t + nominal.rounded, now))
    if missing == 1 && !bridged {
      held = HeldGap(finding: gap, delta: delta)
    } else {
      action.revealed = gap
    }
    return action
  }

  /// The run of frames ended (every session stop, a repeated one too, or the stream's own end):
  /// a held gap is reported now. First deltas still awaiting an estimate are too few to judge
  /// (SPEC 4.6): they are forgotten.
  mutating func runEnded() -> Finding? {
    state = .waiting
    drops.removeAll(keepingCapacity: true)
    fasterDelta = nil
    early.removeAll(keepingCapacity: true)
    return held.take()?.finding
  }

  /// The input ended: a held gap is reported now. First deltas still awaiting an estimate are
  /// too few to judge (SPEC 4.6): nothing is reported for them.
  mutating func finish() -> Finding? {
    early.removeAll(keepingCapacity: true)
    return held.take()?.finding
  }

  /// The stage reported ``earlyGaps``.
  mutating func clearEarlyGaps() { earlyGaps.removeAll(keepingCapacity: true) }

  /// A delta of a stream with no nominal yet: kept, with its cause as it stands now, and judged
  /// with every other kept one as soon as the estimate exists (SPEC 4.6), so that a hole among
  /// the first deltas is a gap like any other.
  private mutating func firstDelta(
    _ delta: Nanoseconds, from last: LastFrame, to current: LastFrame, bridged: Bool, triggers: SwitchTriggers
  ) -> FrameAction {
    if !bridged { cadence.observe(delta) }
    if early.count == Self.maximumEarlyDeltas { early.removeFirst() }
    let (cause, reason) = classify(last: last, current: current, triggers: triggers)
    early.append(EarlyDelta(from: last, to: current, bridged: bridged, cause: cause, reason: reason))
    guard let nominal = cadence.nominal else { return FrameAction() }
    judgeEarlyDeltas(against: nominal)
    return FrameAction(earlyGaps: !earlyGaps.isEmpty)
  }

  /// Judges the kept first deltas against the first estimate, `nominal`, in order, as live ones
  /// are, into ``earlyGaps``: a one-frame gap no drop bridges is held and the deltas after it
  /// confirm a rate change or report it, so a camera that changed its rate at the start shows
  /// no gap. A gap the last of them holds stays held for the frames to come. (The faster-rate
  /// rule never applies here: of the three ordinary deltas that make the estimate, two faster
  /// ones would make it their own.)
  private mutating func judgeEarlyDeltas(against nominal: FrameDuration) {
    defer { early.removeAll(keepingCapacity: true) }
    let threshold = gapThreshold.of(nominal)
    for delta in early {
      let length = delta.to.pts - delta.from.pts
      if let pending = held {
        if !delta.bridged && Self.isAlike(length, pending.delta) {
          held!.alike += 1
          if held!.alike == Self.rateChangeConfirmations {
            cadence.adopt(pending.delta)
            held = nil
          }
          continue
        }
        earlyGaps.append(held.take()!.finding)
      }
      guard length > threshold else { continue }
      let missing = max(1, nominal.frames(in: length) - 1)
      let gap = Finding(
        kind: .gap(missing: missing, cause: delta.cause, reason: delta.reason), from: delta.from.pts,
        to: delta.to.pts, since: min(delta.from.t + nominal.rounded, delta.to.t))
      if missing == 1 && !delta.bridged {
        held = HeldGap(finding: gap, delta: length)
      } else {
        earlyGaps.append(gap)
      }
    }
  }

  /// An ordinary delta no drop bridges: with the one before it, both below the nominal divided
  /// by `gapFactor` and alike, it confirms a faster rate (SPEC 4.6), which needs no wait since a
  /// hole only ever lengthens a delta: the nominal becomes the first of them.
  @inline(__always)
  private mutating func confirmFasterRate(_ delta: Nanoseconds, nominal: FrameDuration) {
    guard delta < fasterThreshold.of(nominal) else {
      fasterDelta = nil
      return
    }
    guard let first = fasterDelta, Self.isAlike(delta, first) else {
      fasterDelta = delta
      return
    }
    cadence.adopt(first)
    fasterDelta = nil
  }

  /// Whether `delta` is within a quarter of a held gap's delta: evidence of a rate change.
  /// Divided, not multiplied, so a pts jump near 2⁶³ cannot overflow.
  @inline(__always)
  private static func isAlike(_ delta: Nanoseconds, _ heldDelta: Nanoseconds) -> Bool {
    (delta - heldDelta).rawValue.magnitude <= heldDelta.rawValue.magnitude / rateChangeTolerance
  }

  /// The cause of a gap between `last` and `current` (SPEC 4.6, first match).
  private func classify(last: LastFrame, current: LastFrame, triggers: SwitchTriggers) -> (
    GapCause, DropReason?
  ) {
    if let previous = last.camera, let camera = current.camera, previous != camera {
      return (.cameraSwitch, nil)
    }
    let windowStart = last.t - configuration.switchWindow
    func inWindow(_ trigger: Nanoseconds?) -> Bool {
      trigger.map { $0 >= windowStart && $0 <= current.t } ?? false
    }
    if inWindow(triggers.input) || inWindow(triggers.display) || inWindow(triggers.closedHingeChange) {
      return (.cameraSwitch, nil)
    }
    var tally = DropTally()
    for drop in drops where drop.pts > last.pts && drop.pts < current.pts {
      tally.add(drop.reason, pts: drop.pts)
    }
    // A drop without a reason explains its gap as well; the gap's reason is then the most
    // common one given, or none.
    return tally.drops > 0 ? (.reportedDrop, tally.mostCommon) : (.unexplained, nil)
  }
}
