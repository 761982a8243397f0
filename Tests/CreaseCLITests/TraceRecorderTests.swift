import Crease
import CreaseIO
import CreaseRecording
import CreaseSynth
import Testing

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
    #expect(throws: RefusedEvent(event: Event(t: -1, .end), reason: .negativeTime)) {
      try recorder.finish(at: -1)
    }
    try recorder.mark("a", at: 100)
    #expect(throws: RefusedEvent(event: Event(t: 40, .mark(label: "b")), reason: .late(behind: 60))) {
      try recorder.mark("b", at: 40)
    }
    try recorder.finish()
    try recorder.finish()
    #expect(throws: RefusedEvent(event: Event(t: 200, .mark(label: "c")), reason: .afterEnd)) {
      try recorder.mark("c", at: 200)
    }
    #expect(recorder.sink.text.split(separator: "\n").count == 3)
  }
}
