import Crease
import CreaseLocking
import CreaseTesting
import Testing

@Suite("In-process API")
struct SessionTests {
  @Test("a session turns hinge callbacks into cues, and advancing time brings the debounced ones")
  func session() throws {
    var session = try CreaseSession(reorderWindow: .zero)
    var cues: [Cue] = []
    try session.hinge(.degrees(12), status: .closed, at: 0)
    try session.hinge(.radians(0.7), status: .partiallyOpen, at: .milliseconds(100))
    session.drainCues { cues.append($0) }
    #expect(!cues.contains { $0.kind.tag == .hingeStatus })
    session.advance(to: .milliseconds(150))
    session.drainCues { cues.append($0) }
    #expect(!cues.contains { $0.kind.tag == .hingeStatus }, "an event at 150 ms is still in time")
    session.advance(to: .milliseconds(150) + Nanoseconds(1))
    session.drainCues { cues.append($0) }
    #expect(
      cues.contains(
        Cue(t: .milliseconds(150), since: .milliseconds(100), .hingeStatus(from: .closed, to: .partiallyOpen))
      ))
    #expect(session.now == .milliseconds(150))
  }

  @Test("what the accessory still misses is known after each change, not only when eligibility flips")
  func missingAccessoryConditions() throws {
    var session = try CreaseSession(reorderWindow: .zero)
    let all: AccessoryConditions = [.foreground, .session, .preview, .open, .innerFullScreen]
    #expect(session.missingAccessoryConditions == all)
    try session.app(.foreground, at: .milliseconds(1))
    #expect(session.missingAccessoryConditions == all.subtracting(.foreground))
    try session.session(running: true, previewVisible: true, at: .milliseconds(2))
    // No accessory.eligible cue came since the first (eligibility never flipped), yet the
    // conditions met so far are known.
    #expect(session.missingAccessoryConditions == [.open, .innerFullScreen])
    try session.display(.inner, fullScreen: true, at: .milliseconds(3))
    #expect(session.missingAccessoryConditions == [.open])
    var cues: [Cue] = []
    session.drainCues { cues.append($0) }
    #expect(cues.filter { $0.kind.tag == .accessoryEligible }.count == 1)
  }

  @Test("a session refuses events before its time and a bad configuration")
  func refusals() throws {
    var session = try CreaseSession(reorderWindow: .zero)
    session.advance(to: .milliseconds(10))
    #expect(
      throws: RefusedEvent(
        event: Event(t: .milliseconds(5), .mark(label: "old")), reason: .late(behind: .milliseconds(5)))
    ) {
      try session.send(Event(t: .milliseconds(5), .mark(label: "old")))
    }
    #expect(throws: RefusedEvent.self, "a hinge delivery is refused like any event") {
      try session.hinge(.degrees(30), status: .closed, at: .milliseconds(9))
    }
    try session.hingeUnavailable(at: .milliseconds(20))
    var cues: [Cue] = []
    session.drainCues { cues.append($0) }
    #expect(cues == [Cue(t: .milliseconds(20), since: .milliseconds(20), .hingeUnavailable)])
    var bad = Configuration.default
    bad.hinge.settle = Nanoseconds(-1)
    #expect(throws: ConfigurationError.self) { _ = try CreaseSession(configuration: bad) }
  }

  @Test("finishing fires pending timers at their due times")
  func finish() throws {
    var session = try CreaseSession()
    try session.hinge(.degrees(10), status: .closed, at: 0)
    try session.hinge(.degrees(40), status: .closed, at: .milliseconds(10))
    session.finish()
    var cues: [Cue] = []
    session.drainCues { cues.append($0) }
    #expect(
      cues.last
        == Cue(
          t: .milliseconds(310), since: .milliseconds(10), .hingeSettled(angle: .degrees(40), zone: .half))
    )
    #expect(throws: RefusedEvent(event: Event(t: .seconds(1), .mark(label: "x")), reason: .afterEnd)) {
      try session.send(Event(t: .seconds(1), .mark(label: "x")))
    }
  }

  @Test("a copy of a session goes on apart from it: each has the events sent to it alone")
  func copiedSession() throws {
    var original = try CreaseSession(reorderWindow: .zero)
    try original.send(Event(t: 0, .mark(label: "both")))
    var copy = original
    try copy.send(Event(t: 1, .mark(label: "copy")))
    try original.send(Event(t: 2, .mark(label: "original")))
    original.finish()
    copy.finish()
    var originalLabels: [CueKind] = []
    var copyLabels: [CueKind] = []
    original.drainCues { originalLabels.append($0.kind) }
    copy.drainCues { copyLabels.append($0.kind) }
    #expect(originalLabels == [.mark(label: "both"), .mark(label: "original")])
    #expect(copyLabels == [.mark(label: "both"), .mark(label: "copy")])
  }

  @Test("an async sequence of events gives the same cues as the engine")
  func asyncSequence() async throws {
    let events = RandomHingeStream.deliveries(seed: 3, count: 300).map {
      Event(t: .milliseconds($0.ms), .hinge($0.delivery))
    }
    var streamed: [Cue] = []
    for try await cue in AsyncEvents(events: events).cues() { streamed.append(cue) }
    var engine = Engine(processor: Pipeline(configuration: .default), sourceCount: 1)
    for event in events { try engine.push(event, from: 0) }
    engine.finish(source: 0)
    var expected: [Cue] = []
    engine.drainCues { cue, _ in expected.append(cue) }
    #expect(!streamed.isEmpty)
    #expect(streamed == expected)
  }

  @Test("a late event ends the async iteration with an error naming it, by loop or by hand alike")
  func asyncLate() async throws {
    let events = [
      Event(t: .milliseconds(100), .mark(label: "a")), Event(t: 0, .mark(label: "late")),
      Event(t: .milliseconds(200), .mark(label: "b")),
    ]
    let refusal = RefusedEvent(event: events[1], reason: .late(behind: .milliseconds(100)))
    await #expect { for try await _ in AsyncEvents(events: events).cues() {} } throws: {
      ($0 as? CueSequenceFailure)?.refusedEvent == refusal
    }
    var iterator = AsyncEvents(events: events).cues().makeAsyncIterator()
    var failure: CueSequenceFailure?
    do { while try await iterator.next() != nil {} } catch { failure = error }
    #expect(failure?.refusedEvent == refusal)
    #expect(try await iterator.next() == nil, "after the failure the iteration has ended, as the loop's has")
  }

  @Test("with a skipping policy, a late event is reported and the cues go on")
  func asyncSkip() async throws {
    let events = [
      Event(t: .milliseconds(100), .mark(label: "a")), Event(t: 0, .mark(label: "late")),
      Event(t: .milliseconds(200), .mark(label: "b")),
    ]
    let reported = Reported()
    var labels: [String] = []
    for try await cue in AsyncEvents(events: events).cues(onRefusal: .skip { reported.add($0) }) {
      if case .mark(let label) = cue.kind { labels.append(label) }
    }
    #expect(labels == ["a", "b"])
    #expect(reported.refusals == [RefusedEvent(event: events[1], reason: .late(behind: .milliseconds(100)))])
  }

  /// A screen's model, as an app writes one: main-actor state, no lock.
  @MainActor final class ScreenModel {
    var refusals: [RefusedEvent] = []
    var labels: [String] = []

    func follow(_ events: [Event]) async throws {
      for try await cue in AsyncEvents(events: events).cues(
        onRefusal: .skipOnMainActor { self.refusals.append($0) })
      {
        if case .mark(let label) = cue.kind { labels.append(label) }
      }
    }
  }

  @Test("a main-actor model keeps the refusals in its own state")
  @MainActor func mainActorRefusals() async throws {
    let events = [
      Event(t: .milliseconds(100), .mark(label: "a")), Event(t: 0, .mark(label: "late")),
      Event(t: .milliseconds(200), .mark(label: "b")),
    ]
    let model = ScreenModel()
    try await model.follow(events)
    #expect(model.labels == ["a", "b"])
    #expect(model.refusals == [RefusedEvent(event: events[1], reason: .late(behind: .milliseconds(100)))])
  }

  /// Refusals a skipping policy reported, from whatever isolation it was called in.
  final class Reported: Sendable {
    private let state = Locked<[RefusedEvent]>([])
    var refusals: [RefusedEvent] { state.withLock { $0 } }
    func add(_ refusal: RefusedEvent) { state.withLock { $0.append(refusal) } }
  }

  @Test("an event after an end event ends the async iteration with an error")
  func asyncAfterEnd() async {
    let events = [Event(t: 0, .end), Event(t: 1, .mark(label: "after"))]
    await #expect { for try await _ in AsyncEvents(events: events).cues() {} } throws: {
      ($0 as? CueSequenceFailure)?.refusedEvent == RefusedEvent(event: events[1], reason: .afterEnd)
    }
  }

  @Test("a timer's cue comes with the event that moves the watermark past it, not one later")
  func asyncCueAtWatermark() async throws {
    let (events, input) = AsyncStream<Event>.makeStream()
    var cues = events.cues().makeAsyncIterator()
    input.yield(Event(t: 0, .hinge(HingeDelivery(angle: .degrees(0), status: .closed))))
    input.yield(
      Event(t: .milliseconds(100), .hinge(HingeDelivery(angle: .degrees(40), status: .partiallyOpen))))
    input.yield(Event(t: .seconds(2), .mark(label: "a")))
    var seen: [Cue] = []
    while !seen.contains(where: { $0.kind.tag == .hingeStatus }), let cue = try await cues.next() {
      seen.append(cue)
    }
    // Only now does the stream end; the debounce cue came without it.
    input.finish()
    var rest: [Cue] = []
    while let cue = try await cues.next() { rest.append(cue) }
    #expect(seen.last?.t == .milliseconds(150))
    #expect(rest.map(\.kind.name).contains("mark"))
  }

  @Test("with idle advance, trace time follows the clock while no event arrives", .suspendingTestLimit)
  func asyncIdleAdvance() async throws {
    let (events, input) = AsyncStream<Event>.makeStream()
    let clock = CreaseTestClock()
    var cues = events.cues(idleAdvance: .milliseconds(10), clock: clock).makeAsyncIterator()
    input.yield(Event(t: 0, .hinge(HingeDelivery(angle: .degrees(0), status: .closed))))
    input.yield(
      Event(t: .milliseconds(100), .hinge(HingeDelivery(angle: .degrees(40), status: .partiallyOpen))))
    let first = try await cues.next()
    #expect(first?.kind.tag == .hingeInitial)
    // No further event: only the clock moves, 200 ms after the events came.
    clock.advance(by: .milliseconds(200))
    var seen: [Cue] = []
    while !seen.contains(where: { $0.kind.tag == .hingeStatus }), let cue = try await cues.next() {
      seen.append(cue)
    }
    #expect(
      seen.last
        == Cue(
          t: .milliseconds(150), since: .milliseconds(100), .hingeStatus(from: .closed, to: .partiallyOpen)))
    input.finish()
    while try await cues.next() != nil {}
  }
}

/// A plain async sequence over an array, standing in for a live event source.
struct AsyncEvents: AsyncSequence {
  typealias Element = Event
  let events: [Event]

  func makeAsyncIterator() -> Iterator { Iterator(remaining: events[...]) }

  struct Iterator: AsyncIteratorProtocol {
    var remaining: ArraySlice<Event>
    mutating func next() async -> Event? { remaining.popFirst() }
  }
}
