/// A number a scenario draws from: fixed, or uniform in a range.
///
/// A range with equal bounds gives its bound and still takes its draw: a model's drawn
/// parameter set to one number is read as that range, so fixing one value leaves every later
/// draw, and so the rest of the trace, as it was.
public enum ScenarioValue: Hashable, Sendable {
  /// Always this number.
  case fixed(Double)
  /// Uniform between the bounds, both included.
  case range(ClosedRange<Double>)

  /// The value drawn from `random`.
  func draw(_ random: inout SynthRandom) -> Double {
    switch self {
    case .fixed(let value): value
    case .range(let range): random.uniform(range)
    }
  }

  /// Seconds drawn from `random`, as whole nanoseconds.
  func drawSeconds(_ random: inout SynthRandom) -> Int64 {
    switch self {
    case .fixed(let seconds): Int64((seconds * 1e9).rounded())
    case .range(let range): random.seconds(range)
    }
  }

  /// The bounds: a fixed value is the range holding only itself.
  public var bounds: ClosedRange<Double> {
    switch self {
    case .fixed(let value): value...value
    case .range(let range): range
    }
  }
}
