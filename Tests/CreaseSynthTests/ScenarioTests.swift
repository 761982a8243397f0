import Crease
import CreaseSynth
import Testing

/// The cues of a generated trace, through the same pipeline `replay` uses.
func cues(of trace: SyntheticTrace, configuration: Configuration = .default) throws -> [Cue] {
  var engine = Engine(
    processor: Pipeline(configuration: configuration), sourceCount: 1,
    reorderWindow: configuration.reorderWindow)
  engine.apply(trace.header)
  for event in trace.events { try engine.push(event, from: 0) }
  engine.finish(source: 0)
  var cues: [Cue] = []
  repeat {
    engine.drainCues { cue, _ in cues.append(cue) }
    engine.resume()
  } while engine.hasCues
  return cues
}

extension [Cue] {
  func tagged(_ tag: CueKind.Tag) -> [Cue] { filter { $0.kind.tag == tag } }
}

@Suite("Synthetic scenarios")
struct ScenarioTests {
  @Test("the same seed gives the same trace; another seed another one", arguments: Scenario.allCases)
  func deterministic(scenario: Scenario) {
    let options = SynthOptions(seed: 7, duration: scenario == .day ? 40 : nil)
    let first = scenario.generate(options)
    #expect(first.events == scenario.generate(options).events)
    var other = options
    other.seed = 8
    #expect(first.events != scenario.generate(other).events)
  }

  @Test("events are in time order and end with an end event at the duration", arguments: Scenario.allCases)
  func ordered(scenario: Scenario) {
    let trace = scenario.generate(SynthOptions(seed: 3, duration: 9))
    #expect(trace.events.map(\.t) == trace.events.map(\.t).sorted())
    #expect(trace.events.last == Event(t: .milliseconds(9000), .end))
  }

  @Test("hinge deliveries come at a varying rate around --hinge-hz, with noise")
  func hingeRate() {
    let trace = Scenario.wobble.generate(SynthOptions(seed: 1, duration: 10, hingeHz: 60))
    let times = trace.events.filter { $0.payload.kind == .hinge }.map(\.t.rawValue)
    let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
    #expect((540...660).contains(times.count))
    #expect(Set(intervals).count > 100, "jitter: the intervals vary")
    #expect(intervals.max()! > 3 * 16_666_666, "the occasional pause")
  }

  @Test("the wobble gives no flicker: only the initial side of the flat boundary, no motion")
  func wobble() throws {
    for seed in UInt64(1)...5 {
      let cues = try cues(of: Scenario.wobble.generate(SynthOptions(seed: seed)))
      #expect(cues.tagged(.hingeThreshold).count == 1, "seed \(seed)")
      #expect(cues.tagged(.hingeMotion).isEmpty, "seed \(seed)")
    }
  }

  @Test("open-close opens, settles fully open, closes and settles closed")
  func openClose() throws {
    let cues = try cues(of: Scenario.openClose.generate(SynthOptions(seed: 2)))
    let phases = cues.compactMap { cue -> MotionPhase? in
      if case .hingeMotion(let phase, _) = cue.kind { return phase }
      return nil
    }
    #expect(phases.prefix(2) == [.opening, .closing])
    #expect(cues.contains { if case .hingeSettled(_, .fullyOpen) = $0.kind { true } else { false } })
    #expect(cues.contains { if case .hingeSettled(_, .closed) = $0.kind { true } else { false } })
  }

  @Test("tabletop comes to rest half open")
  func tabletop() throws {
    let cues = try cues(of: Scenario.tabletop.generate(SynthOptions(seed: 4)))
    #expect(
      cues.contains {
        if case .hingeSettled(let angle, .half) = $0.kind {
          (80...112).contains(angle.degrees)
        } else {
          false
        }
      })
  }

  @Test(
    "fold-while-recording gives a camera-switch gap, a mirroring change and a mask",
    arguments: [UInt64(1), 2, 3, 4])
  func foldWhileRecording(seed: UInt64) throws {
    let cues = try cues(of: Scenario.foldWhileRecording.generate(SynthOptions(seed: seed)))
    #expect(
      cues.contains { if case .cameraGap(_, _, _, _, .cameraSwitch, nil) = $0.kind { true } else { false } })
    #expect(
      cues.contains {
        $0.kind == .cameraMirroring(stream: .video, camera: .innerFront, mirrored: true, basis: .direction)
      })
    #expect(cues.tagged(.cameraMask).count == 2)
    #expect(
      !cues.contains { if case .cameraGap(_, _, _, _, .reportedDrop, _) = $0.kind { true } else { false } })
  }

  @Test("fold-while-recording at 60 fps has no gap but the switch")
  func foldAt60() throws {
    let cues = try cues(of: Scenario.foldWhileRecording.generate(SynthOptions(seed: 5, fps: 60)))
    #expect(cues.tagged(.cameraGap).count == 1)
  }

  @Test("flip-around mirrors the rear camera while it faces the person")
  func flipAround() throws {
    let mirroring = try cues(of: Scenario.flipAround.generate(SynthOptions(seed: 1))).tagged(.cameraMirroring)
      .map(\.kind)
    #expect(
      mirroring == [
        .cameraMirroring(stream: .video, camera: .backWide, mirrored: false, basis: .direction),
        .cameraMirroring(stream: .video, camera: .backWide, mirrored: true, basis: .direction),
        .cameraMirroring(stream: .video, camera: .backWide, mirrored: false, basis: .direction),
      ])
  }

  @Test("dropped-frames explains its gaps with drop reasons")
  func droppedFrames() throws {
    let gaps = try cues(of: Scenario.droppedFrames.generate(SynthOptions(seed: 1, duration: 30))).tagged(
      .cameraGap)
    #expect(gaps.count > 5)
    #expect(
      gaps.allSatisfy { if case .cameraGap(_, _, _, _, .reportedDrop, _?) = $0.kind { true } else { false } })
  }

  @Test("accessory turns eligibility on and off as conditions come and go")
  func accessory() throws {
    let eligibility = try cues(of: Scenario.accessory.generate(SynthOptions(seed: 1))).compactMap {
      cue -> Bool? in
      if case .accessoryEligible(let eligible, _) = cue.kind { return eligible }
      return nil
    }
    #expect(eligibility == [false, true, false, true, false, true, false])
  }

  @Test("day mixes the scenarios, each announced by a mark")
  func day() {
    let trace = Scenario.day.generate(SynthOptions(seed: 1, duration: 120))
    let labels = Set(trace.events.compactMap { if case .mark(let label) = $0.payload { label } else { nil } })
    #expect(labels.intersection(Scenario.allCases.map(\.rawValue)).count >= 4)
  }
}
