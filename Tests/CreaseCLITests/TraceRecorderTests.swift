import Crease
import CreaseIO
import CreaseRecording
import CreaseSynth
import Testing

/// The event a recorder refused, when `error` is such a refusal.
func refusal(of error: any Error) -> RefusedEvent? {
  (error as? TraceRecorder<MemorySink>.Failure)?.refusedEvent
}

@Suite("TraceRecorder")
struct TraceRecorderTests {
  /// The events of a synthetic scenario, without its `end`.
  func events(_ scenario: Scenario, seconds: Double = 20) -> [Event] {
    scenario.generate(SynthOptions(seed: 5, duration: seconds)).events.filter { $0.payload != .end }
  }

  /// What a recorder writes for `events`, ended by `finish()`.
  func record(_ events: [Event], header: TraceHeader = TraceHeader()) throws -> [UInt8] {
    var recorder = try TraceRecorder(sink: MemorySink(), header: header)
    for event in events { try recorder.send(event) }
    try recorder.finish()
    return recorder.sink.bytes
  }

  @Test(
    "what it writes parses back to the same records: the header first, the events, an end last",
    arguments: [Scenario.foldWhileRecording, .day, .accessory, .droppedFrames])
  func roundTrip(scenario: Scenario) throws {
    let events = events(scenario)
    let header = TraceHeader(device: "iPhone Duo", os: "27.1", nominalFrameRates: [.video: 30])
    let bytes = try record(events, header: header)
    let parser = TraceParser()
    let records = try bytes.split(separator: UInt8(ascii: "\n")).map { line in
      try Array(line).withUnsafeBytes { try parser.parse($0) }
    }
    #expect(records.first == .header(header))
    #expect(Array(records.dropFirst().dropLast()) == events.map { .event($0) })
    #expect(records.last == .event(Event(t: events.last!.t, .end)))
  }

  @Test("the recording replays to the same cues as feeding a session directly")
  func sameCuesAsSession() throws {
    for scenario in [Scenario.foldWhileRecording, .flipAround, .openClose, .day] {
      let events = events(scenario)
      var session = try CreaseSession()
      for event in events { try session.send(event) }
      try session.send(Event(t: events.last!.t, .end))
      var direct: [UInt8] = []
      session.drainCues { CueFormat.jsonl.encode($0, into: &direct) }

      let directory = temporaryDirectory()
      try write(String(decoding: try record(events), as: UTF8.self), to: "\(directory)/recorded.jsonl")
      let replay = CreaseRun("replay", "\(directory)/recorded.jsonl")
      #expect(replay.status == .success)
      #expect(replay.output == String(decoding: direct, as: UTF8.self), "\(scenario)")
      #expect(!direct.isEmpty)
    }
  }

  @Test(
    "with the session's window and idle advance, a recording of reordered, late and idle-advanced calls replays to the session's cues byte for byte",
    arguments: 0..<4 as Range<UInt64>)
  func reorderedRoundTrip(seed: UInt64) throws {
    let window = Nanoseconds.milliseconds(20)
    var session = try CreaseSession(reorderWindow: window)
    var recorder = try TraceRecorder(sink: MemorySink(), reorderWindow: window)
    // Each event arrives up to 35 ms after its `t` (some further behind than the window), in
    // order of arrival; every 25th arrival, both are idle-advanced to the arrival's time.
    var random = SplitMix64(seed: seed)
    let arrivals = events(.day, seconds: 10).enumerated().map { index, event in
      (arrival: event.t + Nanoseconds(Int64(random.next() % 35_000_000)), index: index, event: event)
    }.sorted { ($0.arrival, $0.index) < ($1.arrival, $1.index) }
    var refused = 0
    var outOfOrder = 0
    var latest = Nanoseconds.zero
    for (count, arrival) in arrivals.enumerated() {
      if count % 25 == 0 {
        session.advance(to: arrival.arrival)
        recorder.advance(to: arrival.arrival)
      }
      var bySession: RefusedEvent.Reason?
      do { try session.send(arrival.event) } catch { bySession = error.reason }
      var byRecorder: RefusedEvent.Reason?
      do { try recorder.send(arrival.event) } catch { byRecorder = error.refusedEvent?.reason }
      #expect(bySession == byRecorder, "seed \(seed): \(arrival.event)")
      if bySession != nil { refused += 1 } else if arrival.event.t < latest { outOfOrder += 1 }
      latest = max(latest, arrival.event.t)
    }
    #expect(refused > 0 && outOfOrder > 0, "seed \(seed): late and reordered calls both met")
    try session.send(Event(t: latest, .end))
    try recorder.finish(at: latest)
    var direct: [UInt8] = []
    session.drainCues { CueFormat.jsonl.encode($0, into: &direct) }

    let directory = temporaryDirectory()
    try write(recorder.sink.text, to: "\(directory)/recorded.jsonl")
    try write(#"{"reorderWindowMs": 20}"#, to: "\(directory)/crease.json")
    let replay = CreaseRun("replay", "-c", "\(directory)/crease.json", "\(directory)/recorded.jsonl")
    #expect(replay.status == .success, "seed \(seed): \(replay.error)")
    #expect(replay.output == String(decoding: direct, as: UTF8.self), "seed \(seed)")
  }

  @Test("crease check finds nothing wrong with a recording")
  func passesCheck() throws {
    let directory = temporaryDirectory()
    let bytes = try record(events(.day, seconds: 120), header: TraceHeader(device: "iPhone \"Duo\"\n"))
    try write(String(decoding: bytes, as: UTF8.self), to: "\(directory)/day.jsonl")
    let check = CreaseRun("check", "\(directory)/day.jsonl")
    #expect(check.status == .success, "\(check.output)")
    #expect(!check.output.contains("error"))
  }

  @Test("the same calls as a session: each kind of event by name")
  func convenienceCalls() throws {
    var recorder = try TraceRecorder(sink: MemorySink())
    try recorder.direction(
      toward: CameraSet(.outerFront), away: CameraSet([Camera.innerFront, .backWide]), at: 0)
    try recorder.input(.virtualFront, at: 0)
    try recorder.session(running: true, previewVisible: true, at: 0)
    try recorder.app(.foreground, at: 0)
    try recorder.display(.outer, fullScreen: true, at: 0)
    try recorder.hinge(.degrees(12.5), status: .closed, at: 1)
    try recorder.frame(PresentationTime(value: 1001, timescale: 30000)!, camera: .outerFront, at: 2)
    try recorder.drop(PresentationTime(nanoseconds: 66_733_333), reason: .frameWasLate, at: 3)
    try recorder.hingeUnavailable(at: 4)
    try recorder.mark("say \"cheese\"", at: 5)
    try recorder.finish(at: 9)
    let lines = recorder.sink.text.split(separator: "\n")
    #expect(lines.count == 12)
    #expect(
      lines[1]
        == #"{"t":0,"kind":"direction","view":"main","toward":["outerFront"],"away":["innerFront","backWide"]}"#
    )
    #expect(
      lines[7]
        == #"{"t":2,"kind":"frame","stream":"video","pts":{"value":1001,"timescale":30000},"camera":"outerFront"}"#
    )
    #expect(lines[10] == #"{"t":5,"kind":"mark","label":"say \"cheese\""}"#)
    #expect(lines[11] == #"{"t":9,"kind":"end"}"#)
  }

  @Test("refusals: before the latest event, at a negative t, after the end; nothing is written for them")
  func refusals() throws {
    var recorder = try TraceRecorder(sink: MemorySink())
    #expect { try recorder.finish(at: -1) } throws: {
      refusal(of: $0) == RefusedEvent(event: Event(t: -1, .end), reason: .negativeTime)
    }
    try recorder.mark("a", at: 100)
    #expect { try recorder.mark("b", at: 40) } throws: {
      refusal(of: $0) == RefusedEvent(event: Event(t: 40, .mark(label: "b")), reason: .late(behind: 60))
    }
    try recorder.finish()
    try recorder.finish()
    #expect { try recorder.mark("c", at: 200) } throws: {
      refusal(of: $0) == RefusedEvent(event: Event(t: 200, .mark(label: "c")), reason: .afterEnd)
    }
    #expect(recorder.sink.text.split(separator: "\n").count == 3)
  }
}

@Suite("TraceRecorder: it refuses what replay would refuse")
struct TraceRecorderRefusalTests {
  static let refused: [(Event, RefusedEvent.Reason)] = [
    (Event(t: 1, .hinge(HingeDelivery(angle: .degrees(.nan), status: .closed))), .nonFiniteAngle),
    (Event(t: 1, .hinge(HingeDelivery(angle: .degrees(-.infinity), status: .closed))), .nonFiniteAngle),
    (Event(t: 1, .hinge(HingeDelivery(angle: .radians(1e308), status: .closed))), .nonFiniteAngle),
    (Event(t: 1, .frame(Frame(stream: "", pts: PresentationTime(nanoseconds: 0)))), .emptyStreamName),
    (
      Event(t: 1, .drop(Drop(stream: "", pts: PresentationTime(nanoseconds: 0), reason: .outOfBuffers))),
      .emptyStreamName
    ),
    (Event(t: 1, .input(stream: "", camera: .backWide)), .emptyStreamName),
    (
      Event(t: 1, .direction(DirectionUpdate(toward: [CameraSet(.backWide)], away: [CameraSet(.backWide)]))),
      .cameraTowardAndAway(.backWide)
    ),
    (Event(t: -1, .mark(label: "x")), .negativeTime),
  ]

  @Test(
    "an event a trace cannot hold is refused, typed, and nothing is written", arguments: 0..<refused.count)
  func refusedEvent(index: Int) throws {
    let (event, reason) = Self.refused[index]
    var recorder = try TraceRecorder(sink: MemorySink())
    let before = recorder.sink.bytes
    // By the reason: a NaN angle makes the events themselves unequal.
    #expect { try recorder.send(event) } throws: { refusal(of: $0)?.reason == reason }
    #expect(recorder.sink.bytes == before)
  }

  /// A sink that takes lines until it holds `room` bytes, then fails with its own error.
  struct FillingSink: TraceSink {
    struct Full: Error, Equatable { var lineBytes: Int }
    var room: Int
    var bytes = 0
    mutating func write(_ line: UnsafeRawBufferPointer) throws(Full) {
      guard bytes + line.count <= room else { throw Full(lineBytes: line.count) }
      bytes += line.count
    }
  }

  @Test("a sink's own failure comes out typed, as the sink threw it, and the line is not counted written")
  func sinkFailure() throws {
    let mark = Event(t: 5, .mark(label: "a mark"))
    var probe = try TraceRecorder(sink: MemorySink())
    let headerBytes = probe.sink.bytes.count
    try probe.send(mark)
    let markBytes = probe.sink.bytes.count - headerBytes
    var recorder = try TraceRecorder(sink: FillingSink(room: headerBytes + markBytes))
    try recorder.send(mark)
    #expect(recorder.sink.bytes == headerBytes + markBytes)
    var failure: TraceRecorder<FillingSink>.Failure?
    do { try recorder.send(Event(t: 6, .mark(label: "b mark"))) } catch { failure = error }
    guard case .sink(let full) = failure else {
      Issue.record("expected the sink's failure, got \(String(describing: failure))")
      return
    }
    #expect(full == FillingSink.Full(lineBytes: markBytes))
    #expect(recorder.sink.bytes == headerBytes + markBytes)
    // Failures compare as a whole where the sink's failure does, as an app's test expects one.
    #expect(failure == .sink(FillingSink.Full(lineBytes: markBytes)))
    #expect(failure != .sink(FillingSink.Full(lineBytes: markBytes + 1)))
  }

  @Test(
    "a header a trace cannot start with is refused before anything is written",
    arguments: [
      (TraceHeader(version: 2), RefusedHeader.Reason.unsupportedVersion(2)),
      (TraceHeader(nominalFrameRates: ["video": 0]), .frameRate(stream: "video", fps: 0)),
      (TraceHeader(nominalFrameRates: ["video": .infinity]), .frameRate(stream: "video", fps: .infinity)),
      (TraceHeader(nominalFrameRates: ["v\u{0}": 30]), .streamNameHoldsNUL("v\u{0}")),
    ])
  func refusedHeader(header: TraceHeader, reason: RefusedHeader.Reason) {
    let sink = MemorySink()
    #expect { _ = try TraceRecorder(sink: sink, header: header) } throws: {
      ($0 as? TraceRecorder<MemorySink>.Failure)?.refusedHeader
        == RefusedHeader(header: header, reason: reason)
    }
    #expect(sink.bytes.isEmpty)
  }

  /// A random call of the recorder's: any event, values from every corner of their types.
  static func randomEvent(_ random: inout SplitMix64, after t: Nanoseconds) -> Event {
    let numbers: [Double] = [0, -0.0, 1e308, -1e308, .nan, .infinity, 5e-324, 179.5, -3, .pi]
    let names: [StreamName] = [
      "video", "", "v\u{0}x", "ü\u{1}", String(repeating: "s", count: 40).streamName,
    ]
    let cameras = Camera.allCases
    let time = Nanoseconds(t.rawValue + Int64.random(in: -2...1_000_000, using: &random))
    let stream = names.randomElement(using: &random)!
    let pts = PresentationTime(nanoseconds: Int64.random(in: -5...Int64.max, using: &random))
    switch Int.random(in: 0..<8, using: &random) {
    case 0:
      let value = numbers.randomElement(using: &random)!
      let angle: Crease.HingeAngle = Bool.random(using: &random) ? .degrees(value) : .radians(value)
      return Event(
        t: time,
        .hinge(HingeDelivery(angle: angle, status: HingeStatus.allCases.randomElement(using: &random)!)))
    case 1:
      return Event(
        t: time, .frame(Frame(stream: stream, pts: pts, camera: cameras.randomElement(using: &random))))
    case 2: return Event(t: time, .drop(Drop(stream: stream, pts: pts, reason: .frameWasLate)))
    case 3: return Event(t: time, .input(stream: stream, camera: cameras.randomElement(using: &random)!))
    case 4:
      let toward = CameraSet(rawValue: UInt8.random(in: 0..<64, using: &random))
      let away = CameraSet(rawValue: UInt8.random(in: 0..<64, using: &random))
      return Event(
        t: time,
        .direction(DirectionUpdate(view: ViewName(rawValue: stream.rawValue), toward: toward, away: away)))
    case 5:
      return Event(t: time, .session(SessionState(running: Bool.random(using: &random), previewVisible: nil)))
    case 6: return Event(t: time, .mark(label: stream.rawValue + "\u{7f}\"\\"))
    default: return Event(t: time, .display(DisplayChange(display: .inner, fullScreen: true)))
    }
  }

  @Test("every line it writes for random calls passes crease check", arguments: 0..<8)
  func randomCallsReadBack(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var recorder = try TraceRecorder(
      sink: MemorySink(), header: TraceHeader(nominalFrameRates: ["video": 29.97]))
    var latest = Nanoseconds.zero
    var written = 0
    for _ in 0..<2_000 {
      let event = Self.randomEvent(&random, after: latest)
      do {
        try recorder.send(event)
        latest = event.t
        written += 1
      } catch {
        // Matched by a property: `catch .refusedEvent` crashes Swift 6.3.1's ownership checker.
        guard error.refusedEvent != nil else { throw error }
      }
    }
    try recorder.finish()
    let check = CreaseRun(["check", "-"], input: recorder.sink.bytes)
    #expect(check.status == .success, "seed \(seed): \(check.output.prefix(2_000))")
    #expect(
      check.output.contains("\(written + 2) line(s), \(written + 2) processed, 0 rejected"), "seed \(seed)")
  }
}

extension String {
  fileprivate var streamName: StreamName { StreamName(rawValue: self) }
}
