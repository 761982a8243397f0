import Crease
import Testing

@Suite("In-process API")
struct SessionTests {
  @Test("a session turns hinge callbacks into cues, and advancing time brings the debounced ones")
  func session() throws {
    var session = try CreaseSession()
    var cues: [Cue] = []
    session.hinge(.degrees(12), status: .closed, at: 0)
    session.hinge(.radians(0.7), status: .partiallyOpen, at: .milliseconds(100))
    session.drainCues { cues.append($0) }
    #expect(!cues.contains { $0.kind.name == "hinge.status" })
    session.advance(to: .milliseconds(149))
    session.drainCues { cues.append($0) }
    #expect(!cues.contains { $0.kind.name == "hinge.status" })
    session.advance(to: .milliseconds(150))
    session.drainCues { cues.append($0) }
    #expect(
      cues.contains(
        Cue(t: .milliseconds(150), since: .milliseconds(100), .hingeStatus(from: .closed, to: .partiallyOpen))
      ))
    #expect(session.now == .milliseconds(150))
  }

  @Test("a session refuses events before its time and a bad configuration")
  func refusals() throws {
    var session = try CreaseSession()
    session.advance(to: .milliseconds(10))
    let accepted = session.send(Event(t: .milliseconds(5), .mark(label: "old")))
    #expect(!accepted)
    session.hingeUnavailable(at: .milliseconds(20))
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
    session.hinge(.degrees(10), status: .closed, at: 0)
    session.hinge(.degrees(40), status: .closed, at: .milliseconds(10))
    session.finish()
    var cues: [Cue] = []
    session.drainCues { cues.append($0) }
    #expect(
      cues.last == Cue(t: .milliseconds(310), since: .milliseconds(10), .hingeSettled(angle: 40, zone: .half))
    )
  }

  @Test("an async sequence of events gives the same cues as the engine")
  func asyncSequence() async throws {
    let events = RandomHingeStream.deliveries(seed: 3, count: 300).map {
      Event(t: .milliseconds($0.ms), .hinge($0.delivery))
    }
    var streamed: [Cue] = []
    for try await cue in AsyncEvents(events: events).cues() { streamed.append(cue) }
    var engine = Engine(processor: Pipeline(configuration: .default), sourceCount: 1)
    for event in events { _ = engine.push(event, from: 0) }
    engine.finish(source: 0)
    var expected: [Cue] = []
    engine.drainCues { expected.append($0) }
    #expect(!streamed.isEmpty)
    #expect(streamed == expected)
  }

  @Test("a late event ends the async iteration with an error naming it")
  func asyncLate() async {
    let events = [Event(t: .milliseconds(100), .mark(label: "a")), Event(t: 0, .mark(label: "late"))]
    await #expect(throws: LateEventError(event: events[1], behind: .milliseconds(100))) {
      for try await _ in AsyncEvents(events: events).cues() {}
    }
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
