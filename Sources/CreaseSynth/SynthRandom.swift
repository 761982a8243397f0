import Crease

/// Seeded randomness for the models, from arithmetic alone (no libm), so the same seed gives
/// the same bytes on every machine.
struct SynthRandom {
  private var generator: SplitMix64

  init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  /// Uniform in `range`.
  mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    let unit = Double(generator.next() >> 11) / Double(UInt64(1) << 53)
    return range.lowerBound + unit * (range.upperBound - range.lowerBound)
  }

  /// Uniform whole number in `range`.
  mutating func integer(_ range: ClosedRange<Int64>) -> Int64 {
    range.lowerBound + Int64(generator.next() % UInt64(range.upperBound - range.lowerBound + 1))
  }

  /// Approximately normal with mean 0 and deviation `sigma` (the sum of four uniforms).
  mutating func gaussian(_ sigma: Double) -> Double {
    var sum = 0.0
    for _ in 0..<4 { sum += uniform(0...1) }
    return (sum - 2) * 1.7320508075688772 * sigma
  }

  /// True with probability `probability`.
  mutating func chance(_ probability: Double) -> Bool { uniform(0...1) < probability }

  /// Seconds as nanoseconds, uniform in `range`.
  mutating func seconds(_ range: ClosedRange<Double>) -> Int64 { Int64((uniform(range) * 1e9).rounded()) }
}
