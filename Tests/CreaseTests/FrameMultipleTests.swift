import CreaseSynth
import Testing

@testable import Crease

@Suite("Frame multiples")
struct FrameMultipleTests {
  @Test(
    "a remembered multiple or fraction is the duration scaled, rounded, whenever the duration changes or comes back",
    arguments: 0..<10)
  func followsTheDuration(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let factor = [1.5, 2.5, 3, 0.1][Int(random.next() % 4)]
    var multiple = FrameMultiple(factor)
    // A few durations, revisited in a random order: a declared rate, estimates in whole
    // nanoseconds, and one that is not a whole number of nanoseconds.
    let durations = [
      FrameDuration(framesPerSecond: 30), FrameDuration(framesPerSecond: 59.94),
      FrameDuration(Nanoseconds(16_666_667)), FrameDuration(Nanoseconds(33_366_700)),
    ]
    var fraction = FrameMultiple(dividingBy: factor)
    for step in 0..<200 {
      let duration = durations[Int(random.next() % UInt64(durations.count))]
      #expect(multiple.of(duration) == duration.scaled(by: factor), "seed \(seed), step \(step)")
      // The exact duration divided, then rounded: not times a rounded reciprocal.
      #expect(
        fraction.of(duration) == Nanoseconds(rounding: duration.nanoseconds / factor),
        "seed \(seed), step \(step)")
    }
  }
}
