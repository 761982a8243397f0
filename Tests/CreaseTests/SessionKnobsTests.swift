import Crease
import CreaseSynth
import Testing

@Suite("A session with the knobs a replay has")
struct SessionKnobsTests {
  /// A minute of the `day` scenario: hinge, frames, drops, inputs, directions, marks.
  static let events: [Event] = Scenario.day.generate(SynthOptions(seed: 5, duration: 60)).events.filter {
    $0.payload != .end
  }

  static func cues(
    of events: [Event], reorderWindow: Nanoseconds = .zero, frameRates: [StreamName: Double] = [:]
  ) throws -> [Cue] {
    var session = try CreaseSession(reorderWindow: reorderWindow, frameRates: frameRates)
    var cues: [Cue] = []
    for event in events { try session.send(event) }
    session.finish()
    session.drainCues { cues.append($0) }
    return cues
  }

  @Test("events a few ms out of order within the window give the cues of the events in order")
  func reorderWindow() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    // Each event delayed by up to 4 ms, as callbacks hopping to an actor arrive, and sorted by
    // arrival, stably. Events at one `t` share a delay: their order among themselves is the
    // input's (the engine orders equal times by arrival, as SPEC 4.1 says).
    let arrivals = Self.events.enumerated().map { index, event in
      var random = SplitMix64(seed: seed ^ UInt64(bitPattern: event.t.rawValue))
      return (arrival: event.t + Nanoseconds(Int64(random.next() % 4_000_000)), index: index, event: event)
    }.sorted { ($0.arrival, $0.index) < ($1.arrival, $1.index) }.map(\.event)
    #expect(arrivals != Self.events, "seed \(seed): the arrivals are out of order")
    let inOrder = try Self.cues(of: Self.events)
    #expect(try Self.cues(of: arrivals, reorderWindow: .milliseconds(5)) == inOrder, "seed \(seed)")
    #expect(throws: RefusedEvent.self, "without a window, the first event behind is refused") {
      _ = try Self.cues(of: arrivals)
    }
  }

  @Test("declared frame rates judge gaps against the declared rate, as a trace header does")
  func frameRates() throws {
    // Frames at 30 fps with the third missing, then two at 24 fps. Measured, the rate is the
    // median delta (41.7 ms) and the 66.7 ms hole a one-frame gap, judged once the estimate
    // exists (SPEC 4.6).
    let frames = [0, 33_333_333, 100_000_000, 141_666_667, 183_333_334].map { pts in
      Event(
        t: Nanoseconds(pts + 1_000_000),
        .frame(Frame(pts: PresentationTime(nanoseconds: Int64(pts)), camera: .innerFront)))
    }
    let gaps = { (cues: [Cue]) in
      cues.compactMap { cue -> Int? in
        if case .cameraGap(_, _, _, let missing, _, _) = cue.kind { return missing }
        return nil
      }
    }
    #expect(try gaps(Self.cues(of: frames)) == [1])
    // Declared at 12 fps (83.3 ms a frame), no delta is a gap; at 30 fps the hole misses 1.
    #expect(try gaps(Self.cues(of: frames, frameRates: [.video: 12])) == [])
    #expect(try gaps(Self.cues(of: frames, frameRates: [.video: 30])) == [1])
  }

  @Test("a session states each cue's latency bound, and refuses a bad knob")
  func boundsAndRefusals() throws {
    let session = try CreaseSession(reorderWindow: .milliseconds(3))
    #expect(session.reorderWindow == .milliseconds(3))
    let status = Cue(
      t: .milliseconds(150), since: .milliseconds(100), .hingeStatus(from: .closed, to: .partiallyOpen))
    #expect(
      session.latencyBound(for: status) == Configuration.default.latencyBound(for: .statusDebounce).bound())
    #expect(session.latencyBound(for: Cue(t: 5, since: 5, .mark(label: "m"))) == .zero)
    #expect(throws: ConfigurationError.self) { _ = try CreaseSession(reorderWindow: Nanoseconds(-1)) }
    #expect(throws: ConfigurationError.self) { _ = try CreaseSession(frameRates: [.video: 0]) }
    #expect(throws: ConfigurationError.self) { _ = try CreaseSession(frameRates: [.video: .nan]) }
    #expect(throws: ConfigurationError.self) { _ = try CreaseSession(frameRates: ["": 30]) }
  }
}
