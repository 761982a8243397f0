import Crease
import CreaseLocking
import CreaseTesting
import Testing

/// Events a test hands to an async iteration one by one, knowing when each was taken: the
/// iteration has asked for the next event only once it has passed the last one on.
final class ScriptedEvents: AsyncSequence, Sendable {
  typealias Element = Event

  private struct State {
    var queued: [Event?] = []
    var waiting: CheckedContinuation<Event?, Never>?
    var asked = 0
    var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }
  private let state = Locked(State())

  /// Hands `event` to the iteration (`nil` ends it).
  func send(_ event: Event?) {
    let waiting = state.withLock { state -> CheckedContinuation<Event?, Never>? in
      if let waiting = state.waiting {
        state.waiting = nil
        return waiting
      }
      state.queued.append(event)
      return nil
    }
    waiting?.resume(returning: event)
  }

  /// Returns once the iteration has asked for `count` events: it has taken the first
  /// `count - 1` and passed each on.
  func asked(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state in
        if state.asked >= count { return true }
        state.watchers.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  private func next() async -> Event? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
      let (answer, watchers) = state.withLock { state -> (Event??, [CheckedContinuation<Void, Never>]) in
        state.asked += 1
        let satisfied = state.watchers.filter { $0.count <= state.asked }.map(\.continuation)
        state.watchers.removeAll { $0.count <= state.asked }
        if !state.queued.isEmpty { return (.some(state.queued.removeFirst()), satisfied) }
        state.waiting = continuation
        return (.none, satisfied)
      }
      for watcher in watchers { watcher.resume() }
      if let answer { continuation.resume(returning: answer) }
    }
  }

  struct Iterator: AsyncIteratorProtocol {
    let events: ScriptedEvents
    mutating func next() async -> Event? { await events.next() }
  }

  func makeAsyncIterator() -> Iterator { Iterator(events: self) }
}

@Suite("Live paths: idle advance keeps the window, one set of knobs")
struct LiveKnobsTests {
  static func mark(_ label: String, at milliseconds: Int64) -> Event {
    Event(t: .milliseconds(milliseconds), .mark(label: label))
  }

  @Test(
    "the adapter with idle advance keeps an event that arrives within the window after a quiet spell",
    .suspendingTestLimit)
  func idleAdvanceKeepsTheWindow() async throws {
    let events = ScriptedEvents()
    let clock = CreaseTestClock()
    // The configuration's 50 ms window; ticks every 10 ms; the default policy ends on a refusal.
    let consumer = Task {
      var cues: [Cue] = []
      for try await cue in events.cues(idleAdvance: .milliseconds(10), clock: clock) { cues.append(cue) }
      return cues
    }
    events.send(Self.mark("a", at: 0))
    await events.asked(2)
    // 20 ms of silence: the ticks at 10 and 20 ms move the largest t to 20 ms, the watermark
    // to -30 ms, and an event 10 ms after the last is still in time.
    await clock.sleeping()
    clock.advance(to: .milliseconds(20))
    await clock.sleeping()
    events.send(Self.mark("b", at: 10))
    await events.asked(3)
    events.send(nil)
    let cues = try await consumer.value
    #expect(cues.map(\.kind) == [.mark(label: "a"), .mark(label: "b")])
  }

  @Test(
    "idle advance brings a timer's cue once the watermark, a window behind, passes it",
    .suspendingTestLimit)
  func idleAdvanceBringsTimers() async throws {
    let events = ScriptedEvents()
    let clock = CreaseTestClock()
    var configuration = Configuration.default
    configuration.reorderWindow = .milliseconds(8)
    let session = try CreaseSession(configuration: configuration)
    let consumer = Task {
      var seen: [Cue] = []
      for try await cue in events.cues(session: session, idleAdvance: .milliseconds(10), clock: clock) {
        seen.append(cue)
        if cue.kind.tag == .hingeStatus { return seen }
      }
      return seen
    }
    events.send(Event(t: 0, .hinge(HingeDelivery(angle: .degrees(0), status: .closed))))
    events.send(
      Event(t: .milliseconds(100), .hinge(HingeDelivery(angle: .degrees(40), status: .partiallyOpen))))
    await events.asked(3)
    await clock.sleeping()
    // The debounce commits at 150 ms; 60 ms after the last event the watermark is 152 ms.
    clock.advance(to: .milliseconds(60))
    let seen = try await consumer.value
    #expect(
      seen.last
        == Cue(
          t: .milliseconds(150), since: .milliseconds(100), .hingeStatus(from: .closed, to: .partiallyOpen)))
    events.send(nil)
  }

  @Test(
    "a session and the cues of a sequence over that session give the same cues, window and rates included")
  func sessionAndAdapterAgree() async throws {
    // Frames at a declared 30 fps with the second missing, two of them arriving out of order.
    let frames = [0, 66_666_667, 100_000_000, 166_666_667, 133_333_333, 200_000_000].map { pts in
      Event(
        t: Nanoseconds(Int64(pts)),
        .frame(Frame(pts: PresentationTime(nanoseconds: Int64(pts)), camera: .innerFront)))
    }
    let session = try CreaseSession(reorderWindow: .milliseconds(40), frameRates: [.video: 30])
    var direct = session
    for event in frames { try direct.send(event) }
    direct.finish()
    var expected: [Cue] = []
    direct.drainCues { expected.append($0) }
    var adapted: [Cue] = []
    for try await cue in AsyncEvents(events: frames).cues(session: session) { adapted.append(cue) }
    #expect(adapted == expected)
    #expect(
      expected.contains { $0.kind.tag == .cameraGap }, "the declared rate finds the first frame missing")
  }

  @Test("a session takes its window from the configuration unless given one")
  func windowFromConfiguration() throws {
    var configuration = Configuration.default
    configuration.reorderWindow = .milliseconds(7)
    #expect(try CreaseSession(configuration: configuration).reorderWindow == .milliseconds(7))
    #expect(try CreaseSession().reorderWindow == Configuration.default.reorderWindow)
    #expect(try CreaseSession(configuration: configuration, reorderWindow: .zero).reorderWindow == .zero)
  }

  @Test("a drain hands each cue with its bound, with no second access to the session")
  func drainWithBounds() throws {
    var session = try CreaseSession(reorderWindow: .zero)
    try session.hinge(.degrees(12), status: .closed, at: 0)
    try session.hinge(.degrees(40), status: .partiallyOpen, at: .milliseconds(100))
    session.advance(to: .milliseconds(400))
    var drained: [(Cue, Nanoseconds?)] = []
    session.drainCues { cue, bound in drained.append((cue, bound)) }
    #expect(drained.contains { $0.0.kind.tag == .hingeStatus })
    for (cue, bound) in drained { #expect(bound == session.latencyBound(for: cue)) }
  }

  @Test("a throwing drain leaves the cues after the one it threw on queued, in order")
  func throwingDrainKeepsTheRest() throws {
    struct Stop: Error {}
    var session = try CreaseSession(reorderWindow: .zero)
    for (index, label) in ["a", "b", "c"].enumerated() {
      try session.mark(label, at: Nanoseconds(Int64(index)))
    }
    #expect(throws: Stop.self) {
      try session.drainCues { cue in if cue.kind == .mark(label: "a") { throw Stop() } }
    }
    var rest: [CueKind] = []
    session.drainCues { rest.append($0.kind) }
    #expect(rest == [.mark(label: "b"), .mark(label: "c")])
  }

  @Test(
    "the test clock's own example: wait until the sequence sleeps, then move the clock",
    .suspendingTestLimit)
  func testClockExample() async throws {
    let (events, input) = AsyncStream<Event>.makeStream()
    input.yield(Event(t: 0, .hinge(HingeDelivery(angle: .degrees(0), status: .closed))))
    input.yield(
      Event(t: .milliseconds(100), .hinge(HingeDelivery(angle: .degrees(40), status: .partiallyOpen))))
    let clock = CreaseTestClock()
    // As in CreaseTestClock's documentation.
    var cues = events.cues(idleAdvance: .milliseconds(10), clock: clock).makeAsyncIterator()
    let first = try await cues.next()  // the iteration has started and taken the events
    await clock.sleeping()  // its idle ticker waits on the clock
    clock.advance(by: .milliseconds(200))  // the debounce cue comes without another event
    var status = try await cues.next()
    while let cue = status, cue.kind.tag != .hingeStatus { status = try await cues.next() }
    #expect(first?.kind.tag == .hingeInitial)
    #expect(status?.t == .milliseconds(150))
    input.finish()
  }
}
