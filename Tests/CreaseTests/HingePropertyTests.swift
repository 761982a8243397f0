import Crease
import CreaseSynth
import Testing

/// Seeded random hinge streams: hand movements with noise, a varying delivery rate, flapping
/// statuses, `unknown`, and the occasional lost hinge.
struct RandomHingeStream {
  static func deliveries(seed: UInt64, count: Int = 2000) -> [(ms: Int64, delivery: HingeDelivery?)] {
    var random = SplitMix64(seed: seed)
    func uniform(_ range: ClosedRange<Double>) -> Double {
      range.lowerBound + Double(random.next() % 1_000_001) / 1_000_000 * (range.upperBound - range.lowerBound)
    }
    var result: [(Int64, HingeDelivery?)] = []
    var t: Int64 = 0
    var angle = uniform(0...180)
    var target = angle
    for _ in 0..<count {
      t += Int64(uniform(4...40))
      if uniform(0...1) < 0.02 { target = uniform(0...185) }
      angle += max(-6, min(6, (target - angle) * 0.2)) + uniform(-0.8...0.8)
      if uniform(0...1) < 0.005 {
        result.append((t, nil))
        continue
      }
      var status: HingeStatus = angle < 5 ? .closed : angle > 170 ? .fullyOpen : .partiallyOpen
      if uniform(0...1) < 0.1 { status = HingeStatus.allCases[Int(random.next() % 4)] }
      result.append((t, HingeDelivery(angle: .degrees(angle), status: status)))
    }
    return result
  }
}

@Suite("Hinge properties over seeded random streams")
struct HingePropertyTests {
  static let configurations: [Configuration] = {
    var unbounded = Configuration.default
    unbounded.hinge.statusMaxWait = .zero
    var fast = Configuration.default
    fast.hinge.progressMaxRateHz = 30
    fast.hinge.settle = .milliseconds(100)
    fast.hinge.statusMaxWait = .milliseconds(80)
    fast.hinge.boundaries.append(Boundary(name: "tent", below: 60, above: 75))
    return [.default, unbounded, fast]
  }()

  @Test("every cue keeps its stage's latency bound, and cues come out in order", arguments: 0..<30)
  func latencyBound(seed: UInt64) throws {
    for configuration in Self.configurations {
      let cues = try hingeCues(RandomHingeStream.deliveries(seed: seed), configuration: configuration)
      #expect(cues.map(\.t) == cues.map(\.t).sorted(), "seed \(seed)")
      // The streams exercise every bounded stage, so the bound check is not vacuous.
      let kinds = Set(cues.map(\.kind.name))
      #expect(
        kinds.isSuperset(of: ["hinge.status", "hinge.settled", "hinge.progress", "hinge.motion"]),
        "seed \(seed)")
      for cue in cues {
        #expect(cue.latency >= .zero, "seed \(seed): \(cue)")
        guard let bound = configuration.latencyBound(for: cue.kind.latencyStage).bound() else { continue }
        #expect(cue.latency <= bound, "seed \(seed): \(cue) exceeds \(bound)")
      }
    }
  }

  @Test("no flicker: boundary sides alternate, each past its far threshold", arguments: 0..<30)
  func noFlicker(seed: UInt64) throws {
    let configuration = Self.configurations[2]
    var sides: [BoundaryName: BoundarySide] = [:]
    var crossings = 0
    for cue in try hingeCues(RandomHingeStream.deliveries(seed: seed), configuration: configuration) {
      guard case .hingeThreshold(let name, let side, let angle, let initial) = cue.kind else { continue }
      let boundary = configuration.hinge.boundaries.first { $0.name == name }!
      if !initial {
        crossings += 1
        #expect(sides[name] != side, "seed \(seed): \(name.rawValue) repeated \(side) at \(cue.t)")
        #expect(
          side == .above ? angle.degrees >= boundary.above : angle.degrees <= boundary.below,
          "seed \(seed): \(cue)")
      }
      sides[name] = side
    }
    #expect(crossings > 0, "seed \(seed): the stream never crossed a boundary")
  }

  @Test("a movement never repeats its phase before it settles", arguments: 0..<30)
  func alternatingPhases(seed: UInt64) throws {
    var lastPhase: MotionPhase?
    for cue in try hingeCues(RandomHingeStream.deliveries(seed: seed)) {
      switch cue.kind {
      case .hingeMotion(let phase, _):
        #expect(phase != lastPhase, "seed \(seed): \(phase) twice at \(cue.t)")
        lastPhase = phase
      case .hingeSettled, .hingeUnavailable:
        lastPhase = nil
      default:
        break
      }
    }
  }

  @Test("the same input twice gives the same cues", arguments: 0..<5)
  func deterministic(seed: UInt64) throws {
    let deliveries = RandomHingeStream.deliveries(seed: seed)
    #expect(try hingeCues(deliveries) == hingeCues(deliveries), "seed \(seed)")
  }

  @Test("a hinge resting with noise under the deadband emits no motion", arguments: 0..<10)
  func restingNoise(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let deliveries = (0..<500).map { index in
      let noise = Double(random.next() % 7000) / 1000 - 3.5
      return (ms: Int64(index) * 16, delivery: HingeDelivery?(hinge(110 + noise, .partiallyOpen)))
    }
    let cues = try hingeCues(deliveries)
    #expect(
      !cues.contains { $0.kind.tag == .hingeMotion || $0.kind.tag == .hingeProgress }, "seed \(seed)")
  }
}
