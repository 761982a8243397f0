import CreaseSynth
import Testing

@testable import Crease

@Suite("Frame cadence")
struct FrameCadenceTests {
  @Test(
    "the estimate is the median of the last 15 ordinary deltas, from the third on, through rate changes adopted",
    arguments: 0..<20)
  func medianOfTheWindow(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var cadence = FrameCadence(framesPerSecond: nil)
    var window: [Int64] = []
    for index in 0..<600 {
      if Int.random(in: 0..<100, using: &random) == 0 {
        // A confirmed rate change fills the window with the new duration.
        let duration = Int64.random(in: 10_000_000...50_000_000, using: &random)
        cadence.adopt(Nanoseconds(duration))
        window = Array(repeating: duration, count: FrameCadence.window)
      } else {
        // Repeated values as often as not: a steady rate gives equal deltas.
        let delta =
          Bool.random(using: &random)
          ? 33_333_333 : Int64.random(in: 1...100_000_000, using: &random)
        cadence.observe(Nanoseconds(delta))
        window = Array((window + [delta]).suffix(FrameCadence.window))
      }
      let expected =
        window.count >= FrameCadence.minimumSamples
        ? FrameDuration(Nanoseconds(window.sorted()[window.count / 2])) : nil
      #expect(cadence.nominal == expected, "seed \(seed), delta \(index)")
    }
  }

  @Test("a declared rate is never estimated over")
  func declared() {
    var cadence = FrameCadence(framesPerSecond: 30)
    let declared = cadence.nominal
    for _ in 0..<20 { cadence.observe(Nanoseconds(50_000_000)) }
    #expect(cadence.nominal == declared && declared != nil)
  }
}
