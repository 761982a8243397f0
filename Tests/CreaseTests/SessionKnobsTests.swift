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

  @Test("declared frame rates find a gap before a rate is measured, as a trace header does")
  func frameRates() throws {
    // Frames at 30 fps with the third missing: too few deltas to measure a rate.
    let frames = [0, 1, 3].map { index in
      Event(
        t: .milliseconds(Int64(index) * 33 + 1),
        .frame(Frame(pts: PresentationTime(nanoseconds: Int64(index) * 33_333_333), camera: .innerFront)))
    }
    let gap: (Cue) -> Bool = { if case .cameraGap = $0.kind { true } else { false } }
    #expect(try !Self.cues(of: frames).contains(where: gap))
    let declared = try Self.cues(of: frames, frameRates: [.video: 30])
    #expect(declared.filter(gap).map(\.kind.tag) == [.cameraGap])
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
