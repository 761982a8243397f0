import Crease

extension Scenario {
  /// Adds the model's events from `start` to `end` ns, as `parameters` set it.
  func compose(_ b: inout TraceBuilder, _ parameters: ScenarioParameters, from start: Int64, to end: Int64) {
    switch self {
    case .openClose: Self.openClose(&b, parameters, start, end)
    case .wobble: Self.wobble(&b, parameters, start, end)
    case .tabletop: Self.tabletop(&b, parameters, start, end)
    case .foldWhileRecording: Self.foldWhileRecording(&b, parameters, start, end)
    case .flipAround: Self.flipAround(&b, parameters, start, end)
    case .droppedFrames: Self.droppedFrames(&b, parameters, start, end)
    case .accessory: Self.accessory(&b, parameters, start, end)
    case .day: Self.day(&b, parameters, start, end)
    }
  }

  /// The time `fraction` of the way from `start` to `end`, in whole thousandths of the span so
  /// that it is exact integer arithmetic (4/10 of a span is 400/1000 of it, to the nanosecond).
  private static func point(_ fraction: Double, _ start: Int64, _ end: Int64) -> Int64 {
    start + (end - start) * Int64((fraction * 1000).rounded()) / 1000
  }

  // MARK: Hinge scenarios

  private static func openClose(
    _ b: inout TraceBuilder, _ p: ScenarioParameters, _ start: Int64, _ end: Int64
  ) {
    var plan = HingePlan(start: start, angle: p["startAngle"].draw(&b.random))
    plan.hold(p["firstRest"].drawSeconds(&b.random))
    let lastCycle = end - p.nanoseconds("lastCycleBefore")
    while plan.time < lastCycle {
      plan.move(to: p["openTo"].draw(&b.random), over: p["openOver"].drawSeconds(&b.random))
      plan.hold(p["openRest"].drawSeconds(&b.random))
      plan.move(to: p["closeTo"].draw(&b.random), over: p["closeOver"].drawSeconds(&b.random))
      plan.hold(p["closedRest"].drawSeconds(&b.random))
    }
    b.sampleHinge(plan, from: start, to: end)
  }

  private static func wobble(_ b: inout TraceBuilder, _ p: ScenarioParameters, _ start: Int64, _ end: Int64) {
    let (around, within, drift) = (p.number("around"), p.number("startWithin"), p.number("driftWithin"))
    var plan = HingePlan(start: start, angle: around + b.random.uniform(-within...within))
    while plan.time < end {
      plan.move(to: around + b.random.uniform(-drift...drift), over: p["driftOver"].drawSeconds(&b.random))
    }
    b.sampleHinge(plan, from: start, to: end)
  }

  private static func tabletop(_ b: inout TraceBuilder, _ p: ScenarioParameters, _ start: Int64, _ end: Int64)
  {
    var plan = HingePlan(start: start, angle: p["startAngle"].draw(&b.random))
    plan.hold(p["firstRest"].drawSeconds(&b.random))
    let rest = p["restAngle"].draw(&b.random)
    plan.move(to: rest, over: p["openOver"].drawSeconds(&b.random))
    let nudge = p.number("nudgeWithin")
    while plan.time < end {
      plan.hold(p["restFor"].drawSeconds(&b.random))
      if b.random.chance(p.number("tiltChance")) {
        plan.move(to: p["tiltTo"].draw(&b.random), over: p["tiltOver"].drawSeconds(&b.random))
        plan.hold(p["tiltRest"].drawSeconds(&b.random))
        plan.move(to: rest, over: p["tiltOver"].drawSeconds(&b.random))
      } else {
        plan.move(to: rest + b.random.uniform(-nudge...nudge), over: p["nudgeOver"].drawSeconds(&b.random))
      }
    }
    b.sampleHinge(plan, from: start, to: end)
  }

  // MARK: Camera scenarios

  /// Recording with the default front camera on the outer display; the phone is opened, the app
  /// moves to the inner display, and the virtual front camera switches constituents with a gap
  /// that no drop callback explains. The direction update comes after the first inner frame
  /// `directionLateChance` of the time, otherwise before the frames resume.
  private static func foldWhileRecording(
    _ b: inout TraceBuilder, _ p: ScenarioParameters, _ start: Int64, _ end: Int64
  ) {
    let fps = b.options.fps
    b.add(start, .app(.foreground))
    b.add(start, .session(SessionState(running: true, previewVisible: true)))
    b.add(start, .display(DisplayChange(display: .outer, fullScreen: true)))
    b.add(
      start,
      .direction(DirectionUpdate(toward: CameraSet(.outerFront), away: CameraSet([.innerFront, .backWide]))))
    b.add(start, .input(stream: .video, camera: .virtualFront))
    var plan = HingePlan(start: start, angle: p["startAngle"].draw(&b.random))
    let opening = point(p.number("openAt"), start, end)
    plan.hold(opening - start)
    plan.move(to: p["openTo"].draw(&b.random), over: p["openOver"].drawSeconds(&b.random))
    b.sampleHinge(plan, from: start, to: end)
    let switchTime = opening + p["switchAfter"].drawSeconds(&b.random)
    b.add(switchTime, .display(DisplayChange(display: .inner, fullScreen: true)))
    let resume = switchTime + p["switchGap"].drawSeconds(&b.random)
    b.frames(camera: .outerFront, fps: fps, from: start, to: switchTime)
    b.frames(camera: .innerFront, fps: min(fps, 60), from: resume, to: end)
    let firstInner = resume + 6_000_000
    let update =
      b.random.chance(p.number("directionLateChance"))
      ? firstInner + p["directionLate"].drawSeconds(&b.random)
      : resume - p["directionEarly"].drawSeconds(&b.random)
    b.add(
      update,
      .direction(DirectionUpdate(toward: CameraSet(.innerFront), away: CameraSet([.outerFront, .backWide]))))
  }

  /// The rear wide camera records away from the person; the phone is turned around (the
  /// coordinator reports it `coordinatorDelay` later) and, later, turned back.
  private static func flipAround(
    _ b: inout TraceBuilder, _ p: ScenarioParameters, _ start: Int64, _ end: Int64
  ) {
    let away = DirectionUpdate(toward: CameraSet(.innerFront), away: CameraSet([.outerFront, .backWide]))
    let toward = DirectionUpdate(toward: CameraSet(.backWide), away: CameraSet([.outerFront, .innerFront]))
    b.add(start, .direction(away))
    b.add(start, .input(stream: .video, camera: .backWide))
    var plan = HingePlan(start: start, angle: p["angle"].draw(&b.random))
    plan.hold(end - start)
    b.sampleHinge(plan, from: start, to: end)
    b.frames(camera: .backWide, fps: b.options.fps, from: start, to: end)
    let turn = point(p.number("turnAt"), start, end)
    b.add(turn, .mark(label: "turned to face the person"))
    b.add(turn + p["coordinatorDelay"].drawSeconds(&b.random), .direction(toward))
    let back = point(p.number("backAt"), start, end)
    b.add(back, .mark(label: "turned back"))
    b.add(back + p["coordinatorDelay"].drawSeconds(&b.random), .direction(away))
  }

  /// A steady stream where `dropChance` of frames start a drop with a reason (late 60%, out of
  /// buffers 30%, discontinuity 10%), `burstChance` of them followed by one or two more.
  private static func droppedFrames(
    _ b: inout TraceBuilder, _ p: ScenarioParameters, _ start: Int64, _ end: Int64
  ) {
    b.add(start, .input(stream: .video, camera: .backWide))
    let (dropChance, burstChance) = (p.number("dropChance"), p.number("burstChance"))
    b.frames(camera: .backWide, fps: b.options.fps, from: start, to: end) { random, burst in
      if burst.left > 0 {
        burst.left -= 1
        return .dropped(burst.reason)
      }
      guard random.chance(dropChance) else { return .delivered }
      let roll = random.uniform(0...1)
      burst.reason = roll < 0.6 ? .frameWasLate : roll < 0.9 ? .outOfBuffers : .discontinuity
      burst.left = random.chance(burstChance) ? Int(random.integer(1...2)) : 0
      return .dropped(burst.reason)
    }
  }

  /// Context changes around a phone that opens: the accessory becomes eligible once the app is
  /// in the foreground with a running, visible preview, open and full screen on the inner
  /// display, and loses it as each condition goes. The timeline, in shares of the segment, is
  /// the model's own; a scenario file's tracks place such events anywhere.
  private static func accessory(
    _ b: inout TraceBuilder, _ p: ScenarioParameters, _ start: Int64, _ end: Int64
  ) {
    let span = Double(end - start)
    func at(_ fraction: Double) -> Int64 { start + Int64(span * fraction) }
    let outer = DirectionUpdate(toward: CameraSet(.outerFront), away: CameraSet([.innerFront, .backWide]))
    let inner = DirectionUpdate(toward: CameraSet(.innerFront), away: CameraSet([.outerFront, .backWide]))
    b.add(start, .app(.foreground))
    b.add(start, .display(DisplayChange(display: .outer, fullScreen: true)))
    b.add(start, .direction(outer))
    b.add(start, .input(stream: .video, camera: .virtualFront))
    b.add(at(0.08), .session(SessionState(running: true, previewVisible: true)))
    var plan = HingePlan(start: start, angle: 0.5)
    plan.hold(at(0.25) - start)
    plan.move(to: p["openTo"].draw(&b.random), over: p["openOver"].drawSeconds(&b.random))
    plan.hold(at(0.85) - plan.time)
    plan.move(to: 0.5, over: p["closeOver"].drawSeconds(&b.random))
    b.sampleHinge(plan, from: start, to: end)
    b.add(at(0.35), .display(DisplayChange(display: .inner, fullScreen: true)))
    b.add(at(0.35) + 300_000_000, .direction(inner))
    b.add(at(0.5), .app(.background))
    b.add(at(0.58), .app(.foreground))
    b.add(at(0.66), .session(SessionState(running: true, previewVisible: false)))
    b.add(at(0.74), .session(SessionState(running: true, previewVisible: true)))
    b.add(at(0.8), .display(DisplayChange(display: .inner, fullScreen: false)))
    b.add(at(0.9), .display(DisplayChange(display: .outer, fullScreen: true)))
    b.add(at(0.9) + 300_000_000, .direction(outer))
    b.frames(camera: .outerFront, fps: b.options.fps, from: at(0.08), to: at(0.35))
    b.frames(camera: .innerFront, fps: min(b.options.fps, 60), from: at(0.35) + 300_000_000, to: at(0.9))
    b.frames(camera: .outerFront, fps: b.options.fps, from: at(0.9) + 300_000_000, to: end)
  }

  /// Parts of `partLength` each of the other models at their defaults, one after another, each
  /// announced by a mark. As on a device, the capture session stops for a part without a camera
  /// (and before the accessory part, which starts it itself) and runs for the others; the stop
  /// comes once the previous part's frames in flight have arrived.
  private static func day(_ b: inout TraceBuilder, _ p: ScenarioParameters, _ start: Int64, _ end: Int64) {
    let parts: [Scenario] = [
      .openClose, .tabletop, .foldWhileRecording, .flipAround, .droppedFrames, .accessory, .wobble,
    ]
    var partStart = start
    while partStart < end {
      let length = min(p["partLength"].drawSeconds(&b.random), end - partStart)
      let part = parts[Int(b.random.integer(0...Int64(parts.count - 1)))]
      b.add(partStart, .mark(label: part.rawValue))
      // After the previous part's frames in flight have come: a stopped session delivers none.
      let records = part.usesCamera && part != .accessory
      b.add(
        partStart + TraceBuilder.latestArrival,
        .session(SessionState(running: records, previewVisible: records)))
      part.compose(&b, part.defaultParameters, from: partStart, to: partStart + length)
      partStart += length
    }
  }
}
