/// A fixed multiple or fraction of a frame duration (the gap threshold, the stall delay, the
/// faster-rate threshold), rounded once for each nominal duration rather than for every frame: a
/// stream's nominal duration seldom changes, and rounding it twice a frame cost the camera stage
/// 90 instructions a frame (callgrind).
struct FrameMultiple: Sendable {
  /// How many frame durations, before dividing by ``divisor``.
  let factor: Double
  /// What the scaled duration is divided by: 1 for a multiple. Kept apart from `factor` so that
  /// a fraction is the exact duration divided, then rounded (SPEC 4.6), not multiplied by a
  /// reciprocal that is itself rounded.
  let divisor: Double
  private var latest: (duration: FrameDuration, value: Nanoseconds)?

  /// `factor` frame durations.
  init(_ factor: Double) { (self.factor, divisor) = (factor, 1) }

  /// A frame duration divided by `divisor`.
  init(dividingBy divisor: Double) { (factor, self.divisor) = (1, divisor) }

  /// The duration times `factor`, divided by `divisor`, rounded to the nearest nanosecond
  /// (`duration.scaled(by: factor)` for a multiple: dividing by 1 is exact).
  /// - Complexity: O(1).
  mutating func of(_ duration: FrameDuration) -> Nanoseconds {
    // The same bits give the same value: a comparison of doubles, which must also rule out a
    // NaN, cost about 6 instructions more, three times a frame (callgrind).
    if let latest, latest.duration.nanoseconds.bitPattern == duration.nanoseconds.bitPattern {
      return latest.value
    }
    let value = Nanoseconds(rounding: duration.nanoseconds * factor / divisor)
    latest = (duration, value)
    return value
  }
}
