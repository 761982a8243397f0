import Crease
import Testing

/// Runs hinge deliveries (time in ms; `nil` for no hinge) through the pipeline.
func hingeCues(
  _ deliveries: [(ms: Int64, delivery: HingeDelivery?)], configuration: Configuration = .default,
  end: Int64? = nil
) throws -> [Cue] {
  var engine = Engine(processor: Pipeline(configuration: configuration), sourceCount: 1, reorderWindow: 0)
  for (ms, delivery) in deliveries { try engine.push(Event(t: .milliseconds(ms), .hinge(delivery)), from: 0) }
  if let end { try engine.push(Event(t: .milliseconds(end), .end), from: 0) }
  engine.finish(source: 0)
  var cues: [Cue] = []
  engine.drainCues { cue, _ in cues.append(cue) }
  return cues
}

func hinge(_ degrees: Double, _ status: HingeStatus) -> HingeDelivery {
  HingeDelivery(angle: .degrees(degrees), status: status)
}

/// A cue with times in ms, for readable expectations.
func cue(_ t: Int64, _ since: Int64, _ kind: CueKind) -> Cue {
  Cue(t: .milliseconds(t), since: .milliseconds(since), kind)
}

@Suite("Hinge stage")
struct HingeStageTests {
  @Test("the launch delivery commits directly and sets every boundary's side")
  func launch() throws {
    var configuration = Configuration.default
    configuration.hinge.boundaries.append(Boundary(name: "tent", below: 60, above: 70))
    #expect(
      try hingeCues([(0, hinge(100, .partiallyOpen))], configuration: configuration) == [
        cue(0, 0, .hingeInitial(status: .partiallyOpen, angle: .degrees(100))),
        cue(0, 0, .hingeThreshold(boundary: "flat", side: .below, angle: .degrees(100), initial: true)),
        cue(0, 0, .hingeThreshold(boundary: "tent", side: .above, angle: .degrees(100), initial: true)),
      ])
  }

  @Test("a debounced status change comes with regions.changed; since is the window's first sample")
  func statusCommit() throws {
    let cues = try hingeCues([
      (0, hinge(10, .closed)), (100, hinge(12, .partiallyOpen)), (120, hinge(13, .partiallyOpen)),
    ])
    #expect(
      cues.suffix(2) == [
        cue(150, 100, .hingeStatus(from: .closed, to: .partiallyOpen)),
        cue(150, 100, .regionsChanged(divisionActive: true)),
      ])
    let open = try hingeCues([(0, hinge(100, .partiallyOpen)), (10, hinge(100, .fullyOpen))])
    #expect(open.last == cue(60, 10, .regionsChanged(divisionActive: false)))
  }

  @Test("an unknown launch commits nothing; the first real status commits from unknown")
  func unknownLaunch() throws {
    let cues = try hingeCues([(0, hinge(10, .unknown)), (5, hinge(10, .closed))])
    #expect(cues.first == cue(0, 0, .hingeInitial(status: .unknown, angle: .degrees(10))))
    #expect(cues.contains(cue(55, 5, .hingeStatus(from: .unknown, to: .closed))))
  }

  @Test("a hinge that goes away is reported once, its timers cancelled; its return re-sets the status")
  func availability() throws {
    let cues = try hingeCues([
      (0, hinge(10, .closed)), (10, hinge(40, .partiallyOpen)), (20, nil), (30, nil),
      (400, hinge(90, .partiallyOpen)),
    ])
    #expect(!cues.contains { $0.kind.tag == .hingeStatus || $0.kind.tag == .hingeSettled })
    #expect(cues.filter { $0.kind == .hingeUnavailable } == [cue(20, 20, .hingeUnavailable)])
    #expect(cues.contains(cue(400, 400, .hingeAvailable(status: .partiallyOpen, angle: .degrees(90)))))
    #expect(
      cues.last
        == cue(400, 400, .hingeThreshold(boundary: "flat", side: .below, angle: .degrees(90), initial: true)))
  }

  @Test("a view without a hinge reports it at its first delivery")
  func noHingeAtLaunch() throws {
    #expect(try hingeCues([(0, nil), (5, nil)]) == [cue(0, 0, .hingeUnavailable)])
  }

  @Test("an opening settles after 300 ms of rest, with the final progress first")
  func openAndSettle() throws {
    let cues = try hingeCues([
      (0, hinge(0, .closed)), (100, hinge(30, .partiallyOpen)), (110, hinge(60, .partiallyOpen)),
      (200, hinge(90, .partiallyOpen)), (490, hinge(90.4, .partiallyOpen)),
      (495, hinge(90.8, .partiallyOpen)),
    ])
    #expect(cues.contains(cue(100, 100, .hingeMotion(phase: .opening, angle: .degrees(30)))))
    #expect(cues.contains(cue(100, 100, .hingeProgress(value: 30.0 / 165))))
    #expect(
      cues.suffix(2) == [
        cue(500, 200, .hingeProgress(value: 90.8 / 165)),  // pending until 506.7 ms; settle sends it
        cue(500, 200, .hingeSettled(angle: .degrees(90.8), zone: .half)),
      ])
  }

  @Test("a committed closed status settles a moving hinge at once")
  func closedCommitSettles() throws {
    let cues = try hingeCues([
      (0, hinge(90, .partiallyOpen)), (100, hinge(60, .partiallyOpen)), (150, hinge(20, .closed)),
      (160, hinge(15, .closed)),
    ])
    #expect(cues.contains(cue(200, 150, .hingeStatus(from: .partiallyOpen, to: .closed))))
    #expect(cues.last == cue(200, 150, .hingeSettled(angle: .degrees(15), zone: .closed)))
  }

  @Test("angles in radians come out in degrees")
  func radians() throws {
    let cues = try hingeCues([(0, HingeDelivery(angle: .radians(.pi / 2), status: .partiallyOpen))])
    #expect(cues.first == cue(0, 0, .hingeInitial(status: .partiallyOpen, angle: .degrees(90))))
  }

  @Test("with an end event, a settle due after it stays pending")
  func settlePendingAtEnd() throws {
    let cues = try hingeCues([(0, hinge(0, .closed)), (100, hinge(30, .closed))], end: 200)
    #expect(!cues.contains { $0.kind.tag == .hingeSettled })
    let later = try hingeCues([(0, hinge(0, .closed)), (100, hinge(30, .closed))], end: 400)
    #expect(later.last == cue(400, 100, .hingeSettled(angle: .degrees(30), zone: .half)))
  }
}
