import Crease
import CreaseSynth
import Testing

@Suite("Latency bounds over every scenario")
struct LatencyBoundPropertyTests {
  /// Scenarios at several seeds and both camera rates; `day` is shortened to keep the suite quick
  /// (its segments are the other scenarios, so length adds repetition, not new situations).
  static let cases: [(Scenario, UInt64, Int)] = Scenario.allCases.flatMap { scenario in
    (0..<12).map { seed in (scenario, seed, seed % 3 == 2 ? 60 : 30) }
  }

  @Test("no cue ever exceeds the bound of its stage", arguments: cases)
  func noBoundExceeded(scenario: Scenario, seed: UInt64, fps: Int) throws {
    try replay(scenario, SynthOptions(seed: seed, duration: scenario == .day ? 180 : nil, fps: fps))
  }

  @Test("half an hour of the day at seed 22, whose drops were once taken for a rate change")
  func longDay() throws {
    try replay(.day, SynthOptions(seed: 22, duration: 1800))
  }

  /// Replays the scenario and checks every cue against its bound as it comes out.
  func replay(_ scenario: Scenario, _ options: SynthOptions) throws {
    let (seed, fps) = (options.seed, options.fps)
    let trace = scenario.generate(options)
    let configuration = Configuration.default
    var engine = Engine(
      processor: Pipeline(configuration: configuration), reorderWindow: configuration.reorderWindow)
    engine.apply(trace.header)
    var judged = 0
    var previous = Nanoseconds.min
    func judge(_ engine: inout Engine<Pipeline>) {
      let pipeline = engine.processor
      engine.drainCues { cue, _ in
        judged += 1
        #expect(cue.t >= previous, "\(scenario) seed \(seed) fps \(fps): out of order at \(cue)")
        previous = cue.t
        #expect(cue.latency >= .zero, "\(scenario) seed \(seed) fps \(fps): \(cue)")
        if let bound = pipeline.latencyBound(for: cue) {
          #expect(cue.latency <= bound, "\(scenario) seed \(seed) fps \(fps): \(cue) exceeds \(bound)")
        }
        // The stage judges a stall by the nominal it estimated; the scenario knows the true
        // rate, so a wrong estimate (say, drops taken for a rate change) shows here too.
        if case .cameraStall = cue.kind {
          let trueBound = FrameDuration(framesPerSecond: Double(fps)).scaled(
            by: configuration.camera.stallFactor)
          #expect(
            cue.latency <= trueBound, "\(scenario) seed \(seed) fps \(fps): \(cue) exceeds \(trueBound)")
        }
      }
    }
    for event in trace.events {
      try engine.push(event, from: 0)
      judge(&engine)
    }
    engine.finish(source: 0)
    judge(&engine)
    #expect(judged > 0)
  }
}
