/// A fixed number of frame durations (the gap threshold, the stall delay), rounded once for each
/// nominal duration rather than for every frame: a stream's nominal duration seldom changes, and
/// rounding it twice a frame cost the camera stage 90 instructions a frame (callgrind).
struct FrameMultiple: Sendable {
  /// How many frame durations.
  let factor: Double
  private var latest: (duration: FrameDuration, value: Nanoseconds)?

  init(_ factor: Double) { self.factor = factor }

  /// `factor` times `duration`, rounded to the nearest nanosecond:
  /// `duration.scaled(by: factor)`.
  /// - Complexity: O(1).
  mutating func of(_ duration: FrameDuration) -> Nanoseconds {
    if let latest, latest.duration == duration { return latest.value }
    let value = duration.scaled(by: factor)
    latest = (duration, value)
    return value
  }
}
