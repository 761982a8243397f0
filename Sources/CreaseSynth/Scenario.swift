import Crease

/// The synthetic scenarios of `crease synth` (SPEC 6), each deterministic per seed.
public enum Scenario: String, CaseIterable, Sendable {
  case openClose = "open-close"
  case wobble
  case tabletop
  case foldWhileRecording = "fold-while-recording"
  case flipAround = "flip-around"
  case droppedFrames = "dropped-frames"
  case accessory
  case day

  /// One line for `crease scenarios`.
  public var summary: String {
    switch self {
    case .openClose: "the phone opened flat and closed again, over and over"
    case .wobble: "a hinge resting near the 140° flat boundary, drifting a few degrees with sensor noise"
    case .tabletop: "opened to about 90° and set down, with small adjustments and the odd tilt"
    case .foldWhileRecording:
      "front camera on the outer display, opened mid-recording: switch gap, direction change, mirroring, mask"
    case .flipAround: "rear camera recording while the phone is turned to face the person, then back"
    case .droppedFrames: "a steady stream with ordinary drops that carry reasons, sometimes in bursts"
    case .accessory: "app, session, preview and display changes around an open phone: accessory eligibility"
    case .day: "a long mixed session of all the above, for benchmarks"
    }
  }

  /// The length `--duration` defaults to, in seconds.
  public var defaultDuration: Double {
    switch self {
    case .openClose, .wobble, .tabletop: 10
    case .foldWhileRecording, .flipAround, .droppedFrames: 8
    case .accessory: 12
    case .day: 600
    }
  }

  /// The events of a run without end (`synth --duration 0`): pass after pass of the scenario's
  /// own length, pass *k* with seed + *k* and moved later by *k* × (the length + one frame), so
  /// trace time and pts continue; no pass's `end` is sent. Generated a pass at a time.
  public func endless(_ options: SynthOptions) -> some Sequence<Event> {
    let length = Nanoseconds(Int64((defaultDuration * 1e9).rounded()))
    let period = length + Nanoseconds(1_000_000_000 / Int64(options.fps))
    return (0...).lazy.flatMap { pass -> [Event] in
      var passOptions = options
      passOptions.seed = options.seed &+ UInt64(pass)
      passOptions.duration = defaultDuration
      // Saturates: a run past the end of the time range stays at its end.
      let (product, overflow) = Int64(pass).multipliedReportingOverflow(by: period.rawValue)
      let offset = overflow ? Nanoseconds.max : Nanoseconds(product)
      return self.generate(passOptions).events.dropLast().map { $0.shifted(by: offset) }
    }
  }

  /// The trace's header: the device, and the camera's declared rate when the scenario records.
  public func header(_ options: SynthOptions) -> TraceHeader {
    var header = TraceHeader(device: "iPhone Duo", os: "27.1")
    header.nominalFrameRates = usesCamera ? [.video: Double(options.fps)] : [:]
    return header
  }

  /// Generates the trace.
  public func generate(_ options: SynthOptions) -> SyntheticTrace {
    var builder = TraceBuilder(options: options)
    let end = Int64(((options.duration ?? defaultDuration) * 1e9).rounded())
    builder.header = header(options)
    if self == .day {
      Self.day(&builder, end: end)
    } else {
      compose(&builder, from: 0, to: end)
    }
    return builder.build(end: end)
  }

  private var usesCamera: Bool {
    switch self {
    case .openClose, .wobble, .tabletop: false
    case .foldWhileRecording, .flipAround, .droppedFrames, .accessory, .day: true
    }
  }

  private func compose(_ builder: inout TraceBuilder, from start: Int64, to end: Int64) {
    switch self {
    case .openClose: Self.openClose(&builder, start, end)
    case .wobble: Self.wobble(&builder, start, end)
    case .tabletop: Self.tabletop(&builder, start, end)
    case .foldWhileRecording: Self.foldWhileRecording(&builder, start, end)
    case .flipAround: Self.flipAround(&builder, start, end)
    case .droppedFrames: Self.droppedFrames(&builder, start, end)
    case .accessory: Self.accessory(&builder, start, end)
    case .day: Self.day(&builder, end: end)
    }
  }

  // MARK: Hinge scenarios

  private static func openClose(_ b: inout TraceBuilder, _ start: Int64, _ end: Int64) {
    var plan = HingePlan(start: start, angle: b.random.uniform(0...1))
    plan.hold(b.random.seconds(0.5...1))
    while plan.time < end - 3_000_000_000 {
      plan.move(to: b.random.uniform(175...179), over: b.random.seconds(0.6...1))
      plan.hold(b.random.seconds(1...2.5))
      plan.move(to: b.random.uniform(0...1), over: b.random.seconds(0.5...0.9))
      plan.hold(b.random.seconds(1...2))
    }
    b.sampleHinge(plan, from: start, to: end)
  }

  private static func wobble(_ b: inout TraceBuilder, _ start: Int64, _ end: Int64) {
    var plan = HingePlan(start: start, angle: 140 + b.random.uniform(-2...2))
    while plan.time < end {
      plan.move(to: 140 + b.random.uniform(-3.5...3.5), over: b.random.seconds(0.8...2))
    }
    b.sampleHinge(plan, from: start, to: end)
  }

  private static func tabletop(_ b: inout TraceBuilder, _ start: Int64, _ end: Int64) {
    var plan = HingePlan(start: start, angle: b.random.uniform(0...1))
    plan.hold(b.random.seconds(0.3...0.6))
    let rest = b.random.uniform(85...95)
    plan.move(to: rest, over: b.random.seconds(0.7...1))
    while plan.time < end {
      plan.hold(b.random.seconds(1...3))
      if b.random.chance(0.2) {
        plan.move(to: b.random.uniform(100...110), over: b.random.seconds(0.4...0.7))
        plan.hold(b.random.seconds(0.5...1.5))
        plan.move(to: rest, over: b.random.seconds(0.4...0.7))
      } else {
        plan.move(to: rest + b.random.uniform(-4...4), over: b.random.seconds(0.3...0.6))
      }
    }
    b.sampleHinge(plan, from: start, to: end)
  }

  // MARK: Camera scenarios

  /// Recording with the default front camera on the outer display; the phone is opened, the app
  /// moves to the inner display, and the virtual front camera switches constituents with a gap
  /// of 250–400 ms that no drop callback explains. The direction update comes 20–80 ms after the
  /// first inner frame half the time, otherwise 10–50 ms before it.
  private static func foldWhileRecording(_ b: inout TraceBuilder, _ start: Int64, _ end: Int64) {
    let fps = b.options.fps
    b.add(start, .app(.foreground))
    b.add(start, .session(SessionState(running: true, previewVisible: true)))
    b.add(start, .display(DisplayChange(display: .outer, fullScreen: true)))
    b.add(
      start,
      .direction(DirectionUpdate(toward: CameraSet(.outerFront), away: CameraSet([.innerFront, .backWide]))))
    b.add(start, .input(stream: .video, camera: .virtualFront))
    var plan = HingePlan(start: start, angle: b.random.uniform(0...1))
    let opening = start + (end - start) * 4 / 10
    plan.hold(opening - start)
    plan.move(to: b.random.uniform(174...179), over: b.random.seconds(0.7...1.1))
    b.sampleHinge(plan, from: start, to: end)
    let switchTime = opening + b.random.seconds(0.25...0.4)
    b.add(switchTime, .display(DisplayChange(display: .inner, fullScreen: true)))
    let resume = switchTime + b.random.seconds(0.25...0.4)
    b.frames(camera: .outerFront, fps: fps, from: start, to: switchTime)
    b.frames(camera: .innerFront, fps: min(fps, 60), from: resume, to: end)
    let firstInner = resume + 6_000_000
    let update =
      b.random.chance(0.5)
      ? firstInner + b.random.seconds(0.02...0.08) : resume - b.random.seconds(0.01...0.05)
    b.add(
      update,
      .direction(DirectionUpdate(toward: CameraSet(.innerFront), away: CameraSet([.outerFront, .backWide]))))
  }

  /// The rear wide camera records away from the person; the phone is turned around (the
  /// coordinator reports it 100–300 ms later) and, later, turned back.
  private static func flipAround(_ b: inout TraceBuilder, _ start: Int64, _ end: Int64) {
    let away = DirectionUpdate(toward: CameraSet(.innerFront), away: CameraSet([.outerFront, .backWide]))
    let toward = DirectionUpdate(toward: CameraSet(.backWide), away: CameraSet([.outerFront, .innerFront]))
    b.add(start, .direction(away))
    b.add(start, .input(stream: .video, camera: .backWide))
    var plan = HingePlan(start: start, angle: b.random.uniform(176...179))
    plan.hold(end - start)
    b.sampleHinge(plan, from: start, to: end)
    b.frames(camera: .backWide, fps: b.options.fps, from: start, to: end)
    let turn = start + (end - start) * 4 / 10
    b.add(turn, .mark(label: "turned to face the person"))
    b.add(turn + b.random.seconds(0.1...0.3), .direction(toward))
    let back = start + (end - start) * 3 / 4
    b.add(back, .mark(label: "turned back"))
    b.add(back + b.random.seconds(0.1...0.3), .direction(away))
  }

  /// A steady stream where about 2% of frames are dropped with a reason (late 60%, out of
  /// buffers 30%, discontinuity 10%), sometimes two or three in a row.
  private static func droppedFrames(_ b: inout TraceBuilder, _ start: Int64, _ end: Int64) {
    b.add(start, .input(stream: .video, camera: .backWide))
    var burst = 0
    var burstReason = DropReason.frameWasLate
    b.frames(camera: .backWide, fps: b.options.fps, from: start, to: end) { random in
      if burst > 0 {
        burst -= 1
        return burstReason
      }
      guard random.chance(0.02) else { return nil }
      let roll = random.uniform(0...1)
      burstReason = roll < 0.6 ? .frameWasLate : roll < 0.9 ? .outOfBuffers : .discontinuity
      burst = random.chance(0.3) ? Int(random.integer(1...2)) : 0
      return burstReason
    }
  }

  /// Context changes around a phone that opens: the accessory becomes eligible once the app is
  /// in the foreground with a running, visible preview, open and full screen on the inner
  /// display, and loses it as each condition goes.
  private static func accessory(_ b: inout TraceBuilder, _ start: Int64, _ end: Int64) {
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
    plan.move(to: b.random.uniform(150...170), over: b.random.seconds(0.6...0.9))
    plan.hold(at(0.85) - plan.time)
    plan.move(to: 0.5, over: b.random.seconds(0.5...0.8))
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

  /// Segments of 8–15 s of the other scenarios, one after another, each announced by a mark.
  /// As on a device, the capture session stops for a segment without a camera (and before the
  /// accessory segment, which starts it itself) and runs for the others; the stop comes once the
  /// previous segment's frames in flight have arrived.
  private static func day(_ b: inout TraceBuilder, end: Int64) {
    let parts: [Scenario] = [
      .openClose, .tabletop, .foldWhileRecording, .flipAround, .droppedFrames, .accessory, .wobble,
    ]
    var start: Int64 = 0
    while start < end {
      let length = min(b.random.seconds(8...15), end - start)
      let part = parts[Int(b.random.integer(0...Int64(parts.count - 1)))]
      b.add(start, .mark(label: part.rawValue))
      // After the previous segment's frames in flight have come: a stopped session delivers none.
      let records = part.usesCamera && part != .accessory
      b.add(
        start + TraceBuilder.latestArrival, .session(SessionState(running: records, previewVisible: records)))
      part.compose(&b, from: start, to: start + length)
      start += length
    }
  }
}
