import Testing

@testable import crease_bench

@Suite("The benchmark's rounds: bests for the table, paired ratios for SPEC 9")
struct MeasureRoundsTests {
  /// A replay that stays steady and a reference whose one fast round is far from its usual
  /// ones, as the orjson loop ran on 2026-12-06 (processor seconds, five rounds).
  static let rounds = Measure.Rounds(times: [
    [0.28, 0.30, 0.26, 0.27, 0.25].map { Measure.Times(wall: $0 / 2, processor: $0) },
    [1.30, 0.70, 1.20, 1.31, 1.25].map { Measure.Times(wall: $0, processor: $0) },
  ])

  @Test("the table's best is each body's minimum, wall and processor taken apart")
  func best() {
    let best = Self.rounds.best
    #expect(best.map(\.processor) == [0.25, 0.70])
    #expect(best.map(\.wall) == [0.125, 0.70])
  }

  @Test("a speed is each round's reference time over the body's, sorted, and judged by its median")
  func pairedSpeeds() {
    let speeds = Self.rounds.speeds(of: 0, against: 1, \.processor)
    let expected = [1.30 / 0.28, 0.70 / 0.30, 1.20 / 0.26, 1.31 / 0.27, 1.25 / 0.25].sorted()
    #expect(speeds == expected)
    let median = Self.rounds.medianSpeed(of: 0, against: 1, \.processor)
    #expect(median == 1.30 / 0.28)
    // Best against best meets the reference's one fast round: under 3×, where the rounds'
    // median is over 4×.
    let bestAgainstBest = Self.rounds.best[1].processor / Self.rounds.best[0].processor
    #expect(bestAgainstBest < 3 && median > 4)
  }
}
