import Crease
import Testing

/// A call that releases many events whose cues fan out (a direction update over many streams)
/// stops once it holds ``Engine/cueLimit`` cues (checked after each event) and resumes once they
/// are taken: memory stays bounded, and the cues are those, in the order, that one unbounded
/// call would give.
@Suite("Event-time engine: cues per call bounded")
struct EngineCueLimitTests {
  /// `streams` streams with a physical front input, then `flips` direction updates that turn
  /// each one's facing, all within one reorder window: the end of input releases them at once.
  /// With `spacing`, events that far apart, so that each is released alone.
  static func events(streams: Int, flips: Int, spacing: Int64 = 1) -> [Event] {
    let inputs = (0..<streams).map {
      Event(
        t: Nanoseconds(Int64($0) * spacing),
        .input(stream: StreamName(rawValue: "s\($0)"), camera: .outerFront))
    }
    let updates = (0..<flips).map { index in
      let toward: CameraSet = index.isMultiple(of: 2) ? [CameraSet(.innerFront)] : [CameraSet(.outerFront)]
      let away: CameraSet = index.isMultiple(of: 2) ? [CameraSet(.outerFront)] : [CameraSet(.innerFront)]
      return Event(
        t: Nanoseconds(Int64(streams + index) * spacing),
        .direction(DirectionUpdate(toward: toward, away: away)))
    }
    return inputs + updates
  }

  @Test("no call leaves more than the limit; resuming gives every cue, as a session drains them")
  func boundedAndComplete() throws {
    let events = Self.events(streams: 1_500, flips: 8)
    var engine = Engine(processor: Pipeline(configuration: .default))
    for event in events { try engine.push(event, from: 0) }
    engine.finish(source: 0)
    var cues: [Cue] = []
    var calls = 1
    while true {
      // The limit is checked after each event: one event's cues more at the most.
      let held = engine.cueCount
      #expect(held < Engine<Pipeline>.cueLimit + 2 * 1_500)
      engine.drainCues { cue, _ in cues.append(cue) }
      guard engine.hasDeferredWork else { break }
      engine.resume()
      calls += 1
    }
    #expect(calls > 1, "the end of input stopped at the limit")
    #expect(cues.count > 8 * 1_500, "each flip turns every stream")
    var session = try! CreaseSession()
    for event in events { try! session.send(event) }
    session.finish()
    var drained: [Cue] = []
    session.drainCues { drained.append($0) }
    #expect(drained == cues)
    // Released one at a time, the same events give the same cues in the same order: only
    // their times differ.
    var spread = try! CreaseSession()
    for event in Self.events(streams: 1_500, flips: 8, spacing: 1_000_000_000) { try! spread.send(event) }
    spread.finish()
    var kinds: [CueKind] = []
    spread.drainCues { cue, _ in kinds.append(cue.kind) }
    #expect(kinds == cues.map(\.kind))
  }

  @Test("a push after a call that stopped finishes the stopped work first, in order")
  func pushFinishesDeferredWork() throws {
    let events = Self.events(streams: 1_500, flips: 4)
    var engine = Engine(processor: Pipeline(configuration: .default))
    for event in events { try engine.push(event, from: 0) }
    // The last event moves the watermark past all the others: one call releases them all.
    try engine.push(Event(t: .seconds(1), .mark(label: "first")), from: 0)
    let deferred = engine.hasDeferredWork
    #expect(deferred)
    // Not resumed: the next push does the rest first, and the mark comes after it.
    try engine.push(Event(t: .seconds(2), .mark(label: "second")), from: 0)
    engine.finish(source: 0)
    var cues: [Cue] = []
    repeat {
      engine.drainCues { cue, _ in cues.append(cue) }
      engine.resume()
    } while engine.hasCues
    let marks = cues.filter { if case .mark = $0.kind { true } else { false } }
    #expect(marks.map(\.kind) == [.mark(label: "first"), .mark(label: "second")])
    #expect(cues.suffix(2).map(\.kind) == marks.map(\.kind), "every direction cue before the marks")
    #expect(zip(cues, cues.dropFirst()).allSatisfy { $0.t <= $1.t }, "in order of t")
  }
}
