import Crease
import CreaseSynth
import Testing

@Suite("Event-time engine")
struct EngineTests {
  @Test("events come out in trace-time order", arguments: ["a-b-c", "abc", "[ab]--c", "a---|"])
  func passThrough(diagram: String) {
    #expect(MarbleRun(sources: [diagram]).output == diagram)
  }

  @Test("sources merge by t; ties keep command-line order")
  func mergeTies() {
    #expect(MarbleRun(sources: ["a-b", "c-d"]).output == "[ac]-[bd]")
    #expect(MarbleRun(sources: ["c-d", "a-b"]).output == "[ca]-[db]")
    #expect(MarbleRun(sources: ["a--b", "-c-d"]).output == "ac-[bd]")
  }

  @Test("ties within a source keep line order")
  func lineOrder() {
    #expect(MarbleRun(sources: ["[ba]c"]).output == "[ba]c")
  }

  @Test("a source read to its end before the other still merges by t")
  func sourceReadAhead() {
    let pushes = Marble.events("a---b---c", source: 0) + Marble.events("-x---y", source: 1)
    #expect(MarbleRun(pushes, sources: 2).output == "ax--by--c")
  }

  @Test("disorder within the reorder window is put back in order")
  func reorderWithinWindow() {
    let pushes = [Marble.Push(source: 0, t: 4, label: "b"), .init(source: 0, t: 1, label: "a")]
    let run = MarbleRun(pushes, window: 3)
    #expect(run.output == "-a--b")
    #expect(run.late.isEmpty)
  }

  @Test("exactly the window behind is in time; one tick more is late")
  func lateBoundary() {
    let inTime = MarbleRun(
      [.init(source: 0, t: 5, label: "b"), .init(source: 0, t: 2, label: "a")], window: 3)
    #expect(inTime.output == "--a--b")
    #expect(inTime.late.isEmpty)
    let late = MarbleRun([.init(source: 0, t: 5, label: "b"), .init(source: 0, t: 1, label: "a")], window: 3)
    #expect(late.output == "-----b")
    #expect(late.late == ["a"])
  }

  @Test("lateness is judged per source, against that source's latest t")
  func latenessPerSource() {
    let pushes = [
      Marble.Push(source: 0, t: 9, label: "b"), .init(source: 1, t: 1, label: "x"),
      .init(source: 0, t: 0, label: "a"),
    ]
    let run = MarbleRun(pushes, sources: 2, window: 2)
    #expect(run.output == "-x-------b")
    #expect(run.late == ["a"])
  }

  @Test("at equal times input events come before timers")
  func eventsBeforeTimers() {
    #expect(MarbleRun(sources: ["a--b"], timers: ["a": 3]).output == "a--[bA]")
  }

  @Test("a timer fires as soon as the watermark passes it, not with a later event")
  func timerFiresAtWatermark() {
    // Window 2: b at 7 moves the watermark to 5, past A (due at 3); b itself is held.
    let run = MarbleRun(sources: ["a------b"], window: 2, timers: ["a": 3])
    #expect(run.arrivals == ["", "a--A"])
    #expect(run.output == "a--A---b")
  }

  @Test("a timer due exactly at the watermark waits, since an event there is still in time")
  func timerAtWatermarkWaits() {
    let held = MarbleRun(
      [.init(source: 0, t: 0, label: "a"), .init(source: 0, t: 5, label: "b")], window: 2,
      timers: ["a": 3])
    #expect(held.arrivals == ["", "a"])
    let tie = MarbleRun(
      [
        .init(source: 0, t: 0, label: "a"), .init(source: 0, t: 5, label: "b"),
        .init(source: 0, t: 3, label: "c"),
      ],
      window: 2, timers: ["a": 3])
    #expect(tie.output == "a--[cA]-b", "the event at the watermark still comes before the timer")
  }

  @Test("a finished source no longer holds the watermark back")
  func finishedSourceReleasesTimers() throws {
    var processor = MarbleProcessor()
    processor.timers["a"] = (2, .fire)
    var engine = Engine(processor: processor, sourceCount: 2, reorderWindow: 5)
    try engine.push(Event(t: 0, .mark(label: "a")), from: 0)
    try engine.push(Event(t: 9, .mark(label: "x")), from: 0)
    var cues: [Cue] = []
    engine.drainCues { cue, _ in cues.append(cue) }
    #expect(cues.isEmpty, "source 1 has read nothing yet")
    engine.finish(source: 1)
    engine.drainCues { cue, _ in cues.append(cue) }
    #expect(Marble.diagram(cues, end: nil) == "a-A", "x at 9 is still held; A is due before the watermark 4")
  }

  @Test("timers due at the same time fire in the order they were set")
  func timerOrder() {
    #expect(MarbleRun(sources: ["[ab]"], timers: ["a": 2, "b": 2]).output == "[ab]-[AB]")
    #expect(MarbleRun(sources: ["[ba]"], timers: ["a": 2, "b": 2]).output == "[ba]-[BA]")
    #expect(MarbleRun(sources: ["a[b]"], timers: ["a": 3, "b": 2]).output == "ab-[AB]")
  }

  @Test("scheduling a pending timer re-arms it")
  func reArm() {
    #expect(MarbleRun(sources: ["a-a"], timers: ["a": 3]).output == "a-a--A")
  }

  @Test("with an end event, timers due at or before it fire and later ones are pending")
  func endEventRule() {
    let dueAtEnd = MarbleRun(sources: ["a--|"], timers: ["a": 3])
    #expect(dueAtEnd.output == "a--[A|]")
    #expect(dueAtEnd.pending.isEmpty)
    let dueAfter = MarbleRun(sources: ["a-|"], timers: ["a": 5])
    #expect(dueAfter.output == "a-|")
    #expect(dueAfter.pending == ["A"])
  }

  @Test("with several sources, the end is the latest end when every source has one")
  func endOfSeveralSources() {
    #expect(MarbleRun(sources: ["a|", "---|"], timers: ["a": 3]).output == "a--[A|]")
    let oneWithout = MarbleRun(sources: ["a|", "--"], timers: ["a": 5])
    #expect(oneWithout.output == "a----A")
    #expect(oneWithout.pending.isEmpty)
  }

  @Test("at end of stream pending timers fire, except those cancelled at end of stream")
  func endOfStreamRule() {
    #expect(MarbleRun(sources: ["a"], timers: ["a": 4]).output == "a---A")
    #expect(
      MarbleRun(sources: ["ab"], timers: ["a": 4, "b": 4], cancelledAtEndOfStream: ["a"]).output == "ab---B")
  }

  @Test("a push after the source's end is refused")
  func afterEnd() throws {
    var engine = Engine(processor: MarbleProcessor(), sourceCount: 2)
    try engine.push(Event(t: 1, .end), from: 0)
    let x = Event(t: 2, .mark(label: "x"))
    #expect(throws: RefusedEvent(event: x, reason: .afterEnd)) { try engine.push(x, from: 0) }
    try engine.push(Event(t: 2, .mark(label: "y")), from: 1)
  }

  @Test("the source to read is the one holding the others back")
  func sourceToRead() throws {
    var engine = Engine(processor: MarbleProcessor(), sourceCount: 2, reorderWindow: 0)
    #expect(engine.sourceToRead == 0)
    try engine.push(Event(t: 10, .mark(label: "a")), from: 0)
    #expect(engine.sourceToRead == 1)
    try engine.push(Event(t: 20, .mark(label: "b")), from: 1)
    #expect(engine.sourceToRead == 0)
    engine.finish(source: 0)
    #expect(engine.sourceToRead == 1)
  }

  @Test(
    "the watermark is the least latest t less the window over the open sources, for one source or several",
    arguments: [1, 3])
  func watermark(sources count: Int) throws {
    var engine = Engine(processor: MarbleProcessor(), sourceCount: count, reorderWindow: 5)
    #expect(engine.watermark == .min)
    for source in 0..<count {
      try engine.push(Event(t: Nanoseconds(Int64(100 + 10 * source)), .mark(label: "a")), from: source)
    }
    #expect(engine.watermark == 95)
    engine.finish(source: 0)
    #expect(engine.watermark == (count == 1 ? .max : 105))
    for source in 1..<count { engine.finish(source: source) }
    #expect(engine.watermark == .max)
  }

  @Test("seeded random disorder within the window always comes out sorted", arguments: 0..<20)
  func randomDisorder(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let window: Int64 = 8
    var pushes: [Marble.Push] = []
    var latest: Int64 = 0
    for index in 0..<200 {
      latest += Int64(random.next() % 3)
      let t = max(0, latest - Int64(random.next() % UInt64(window + 1)))
      pushes.append(
        .init(source: Int(random.next() % 2), t: t, label: Character(UnicodeScalar(65 + index % 26)!)))
    }
    var engine = Engine(processor: MarbleProcessor(), sourceCount: 2, reorderWindow: Nanoseconds(window))
    var times: [Int64] = []
    var accepted = 0
    for push in pushes {
      // A late push is refused, and not counted.
      guard (try? engine.push(Event(t: Nanoseconds(push.t), .mark(label: "x")), from: push.source)) != nil
      else { continue }
      accepted += 1
    }
    engine.finish(source: 0)
    engine.finish(source: 1)
    engine.drainCues { cue, _ in times.append(cue.t.rawValue) }
    #expect(times == times.sorted(), "seed \(seed)")
    #expect(times.count == accepted, "seed \(seed): every accepted event is processed once")
  }

  @Test("a drain whose body throws passes the cues up to it in order, rethrows, and keeps the rest queued")
  func drainThatThrows() throws {
    struct Stop: Error {}
    var engine = Engine(processor: Pipeline(configuration: .default), reorderWindow: .zero)
    for (index, label) in ["a", "b", "c"].enumerated() {
      try engine.push(Event(t: Nanoseconds(Int64(index)), .mark(label: label)), from: 0)
    }
    engine.advance(to: 2)
    var seen: [Cue] = []
    #expect(throws: Stop.self) {
      try engine.drainCues { cue, _ in
        seen.append(cue)
        if seen.count == 2 { throw Stop() }
      }
    }
    #expect(seen.map(\.kind) == [.mark(label: "a"), .mark(label: "b")])
    #expect(engine.cueCount == 1, "the cue after the one it threw on stays queued")
    try engine.push(Event(t: 3, .mark(label: "d")), from: 0)
    engine.advance(to: 3)
    var after: [Cue] = []
    engine.drainCues { cue, _ in after.append(cue) }
    #expect(after == [Cue(t: 2, since: 2, .mark(label: "c")), Cue(t: 3, since: 3, .mark(label: "d"))])
  }

  @Test(
    "a push refuses exactly what the engine's refusal says beforehand, and hands the event back as sent",
    arguments: 0..<20)
  func pushAgreesWithRefusal(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var engine = Engine(processor: Pipeline(configuration: .default), sourceCount: 2)
    var latest: [Int64] = [0, 0]
    var verdicts: Set<String> = []
    for index in 0..<400 {
      let source = Int.random(in: 0...1, using: &random)
      // Forward, an eighth of the time back by up to 120 ms (in the window, or late); in the
      // last 150 events, now and then an `end` (then events after it).
      latest[source] += Int64.random(in: 0...20_000_000, using: &random)
      let back =
        Int.random(in: 0..<8, using: &random) == 0 ? Int64.random(in: 0...120_000_000, using: &random) : 0
      let t = max(latest[source] - back, 0)
      let payload: Event.Payload =
        index >= 250 && Int.random(in: 0..<20, using: &random) == 0
        ? .end
        : index % 3 == 0
          ? .frame(Frame(pts: PresentationTime(nanoseconds: t)))
          : .mark(label: "m\(index)")
      let event = Event(t: Nanoseconds(t), payload)
      // The replay asks first and leaves a refused line unread: the two must agree.
      let asked = engine.refusal(at: event.t, isEnd: event.isEnd, from: source)
      do {
        try engine.push(event, from: source)
        #expect(asked == nil, "seed \(seed), event \(index)")
        verdicts.insert("accepted")
      } catch {
        #expect(asked == error.reason, "seed \(seed), event \(index)")
        #expect(error.event == event, "seed \(seed), event \(index)")
        verdicts.insert(error.reason == .afterEnd ? "afterEnd" : "late")
      }
    }
    #expect(verdicts == ["accepted", "late", "afterEnd"], "seed \(seed)")
    engine.finish(source: 0)
    engine.finish(source: 1)
    var cues: [Cue] = []
    engine.drainCues { cue, _ in cues.append(cue) }
    #expect(!cues.isEmpty, "seed \(seed)")
  }
}

@Suite("Event-time engine: stopping early")
struct EngineStopTests {
  @Test("stop processes buffered events and leaves later timers pending")
  func stop() throws {
    var processor = MarbleProcessor()
    processor.timers["a"] = (2, .fire)
    processor.timers["b"] = (9, .fire)
    var engine = Engine(processor: processor, sourceCount: 1, reorderWindow: 50)
    try engine.push(Event(t: 0, .mark(label: "a")), from: 0)
    try engine.push(Event(t: 5, .mark(label: "b")), from: 0)
    engine.stop()
    var cues: [Cue] = []
    engine.drainCues { cue, _ in cues.append(cue) }
    #expect(Marble.diagram(cues, end: nil) == "a-A--b")
    #expect(engine.endOfInput?.pendingTimers.map(\.tag) == ["b"])
  }
}

@Suite("Event-time engine: advancing time")
struct EngineAdvanceTests {
  @Test(
    "idle advance moves the largest t read: the watermark follows a window behind, releasing events and firing timers before it"
  )
  func advance() throws {
    var processor = MarbleProcessor()
    processor.timers["a"] = (3, .fire)
    var engine = Engine(processor: processor, sourceCount: 1, reorderWindow: 5)
    try engine.push(Event(t: 0, .mark(label: "a")), from: 0)
    var cues: [Cue] = []
    engine.drainCues { cue, _ in cues.append(cue) }
    #expect(cues.isEmpty, "held for the reorder window")
    engine.advance(to: 4)
    engine.drainCues { cue, _ in cues.append(cue) }
    #expect(cues.isEmpty, "the watermark is -1: an event at 0 may still come")
    engine.advance(to: 5)
    engine.drainCues { cue, _ in cues.append(cue) }
    #expect(Marble.diagram(cues, end: nil) == "a")
    engine.advance(to: 8)
    engine.drainCues { cue, _ in cues.append(cue) }
    #expect(
      Marble.diagram(cues, end: nil) == "a", "a timer due at the watermark waits for events at its time")
    engine.advance(to: 9)
    engine.drainCues { cue, _ in cues.append(cue) }
    #expect(Marble.diagram(cues, end: nil) == "a--A")
    #expect(engine.now == 3)
  }

  @Test(
    "after idle advance to a time, an event within the window of it is in time; one further behind is late, counted from that time"
  )
  func lateAfterAdvance() throws {
    var engine = Engine(processor: MarbleProcessor(), sourceCount: 1, reorderWindow: 5)
    engine.advance(to: 10)
    try engine.push(Event(t: 5, .mark(label: "x")), from: 0)  // exactly a window behind
    let y = Event(t: 4, .mark(label: "y"))
    #expect(throws: RefusedEvent(event: y, reason: .late(behind: 6))) { try engine.push(y, from: 0) }
    try engine.push(Event(t: 11, .mark(label: "z")), from: 0)
    engine.advance(to: 9)
    #expect(engine.watermark == 6, "an advance behind the largest t read changes nothing")
  }
}

@Suite("Event-time engine: copies")
struct EngineCopyTests {
  /// The labels of the cues `engine` produced, once its only source has finished.
  static func labels(finishing engine: inout Engine<MarbleProcessor>) -> String {
    engine.finish(source: 0)
    var cues: [Cue] = []
    engine.drainCues { cue, _ in cues.append(cue) }
    return Marble.diagram(cues, end: nil)
  }

  /// An engine with a reorder window of 3 ticks that holds marks `a` (t 0) and `b` (t 2).
  static func bufferingAB() throws -> Engine<MarbleProcessor> {
    var engine = Engine(processor: MarbleProcessor(), sourceCount: 1, reorderWindow: 3)
    try engine.push(Event(t: 0, .mark(label: "a")), from: 0)
    try engine.push(Event(t: 2, .mark(label: "b")), from: 0)
    return engine
  }

  @Test("a copy taken with work deferred at the cue limit gives the original's cues and counts")
  func copyWithDeferredWork() throws {
    var original = Engine(processor: Pipeline(configuration: .default), bufferLimit: 64)
    for event in EngineCueLimitTests.events(streams: 1_500, flips: 4) { try original.push(event, from: 0) }
    try original.push(Event(t: .seconds(1), .mark(label: "last")), from: 0)
    let deferred = original.hasDeferredWork
    #expect(deferred, "the push stopped at the cue limit")
    var copy = Engine(copying: original)
    var results: [(cues: [Cue], releasedEarly: Int)] = []
    for index in 0..<2 {
      var cues: [Cue] = []
      func drain(_ engine: inout Engine<Pipeline>) {
        repeat {
          engine.drainCues { cue, _ in cues.append(cue) }
          engine.resume()
        } while engine.hasCues
        engine.finish(source: 0)
        engine.drainCues { cue, _ in cues.append(cue) }
      }
      if index == 0 { drain(&original) } else { drain(&copy) }
      results.append((cues, index == 0 ? original.releasedEarly : copy.releasedEarly))
    }
    #expect(!results[0].cues.isEmpty)
    #expect(results[0].cues == results[1].cues)
    #expect(results[0].releasedEarly == results[1].releasedEarly && results[0].releasedEarly > 0)
  }

  @Test("a copy made while events are buffered goes on with them, apart from the original")
  func copyWhileBuffered() throws {
    var original = try Self.bufferingAB()
    var copy = Engine(copying: original)
    // Each push releases the buffered events the copy took with it.
    try original.push(Event(t: 6, .mark(label: "c")), from: 0)
    try copy.push(Event(t: 7, .mark(label: "d")), from: 0)
    try copy.push(Event(t: 8, .mark(label: "e")), from: 0)
    #expect(Self.labels(finishing: &original) == "a-b---c")
    #expect(Self.labels(finishing: &copy) == "a-b----de")
  }
}
