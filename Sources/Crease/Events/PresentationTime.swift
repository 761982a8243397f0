/// A sample buffer's presentation timestamp: an integer count of nanoseconds or a CMTime
/// (`value / timescale` seconds), kept as recorded so conversions are lossless.
public struct PresentationTime: Hashable, Sendable {
  /// The timescale of a plain nanosecond count.
  public static let nanosecondTimescale: Int32 = 1_000_000_000

  /// The CMTime value.
  public let value: Int64
  /// The timescale in a whole word: see `timescale`.
  @usableFromInline let wordTimescale: Int64
  /// The CMTime timescale (ticks per second), always positive.
  // Stored in a word of its own: packed into one with a frame's camera and its case, it was
  // shifted and masked in and out of registers at every call that took the payload (callgrind:
  // 3 instructions an event binary, 2 a JSON line).
  @inlinable public var timescale: Int32 { Int32(truncatingIfNeeded: wordTimescale) }

  /// The time in nanoseconds, rounded toward negative infinity.
  // Worked out when asked rather than stored: a stored copy made every frame and drop a word
  // larger, and events are moved whole through the reading thread's batches and the reorder
  // ring (callgrind: 21 instructions an event binary, 7 a JSON line). A nanosecond count, the
  // usual case, is `value`.
  @inlinable
  public var nanoseconds: Nanoseconds {
    guard wordTimescale != Int64(Self.nanosecondTimescale) else { return Nanoseconds(value) }
    // Checked when the time was made: it fits.
    return Nanoseconds(Self.nanoseconds(value: value, timescale: timescale).unsafelyUnwrapped)
  }

  /// A presentation time given directly in nanoseconds.
  public init(nanoseconds: Int64) {
    self.value = nanoseconds
    self.wordTimescale = Int64(Self.nanosecondTimescale)
  }

  /// A CMTime, or `nil` when the timescale is not positive or the time in nanoseconds does not
  /// fit in 64 bits.
  public init?(value: Int64, timescale: Int32) {
    guard timescale > 0, Self.nanoseconds(value: value, timescale: timescale) != nil else { return nil }
    self.value = value
    self.wordTimescale = Int64(timescale)
  }

  /// `value / timescale` seconds in nanoseconds, rounded toward negative infinity, or `nil` when
  /// that does not fit in 64 bits; `timescale` is positive.
  ///
  /// The conversion is exact, floor division throughout, so no timescale drifts: `value` is
  /// split into whole ticks of the timescale and a remainder, whose nanoseconds
  /// (|remainder| × 10⁹ < 2⁶¹) fit in 64 bits. No 128-bit integer, which would need iOS 18.
  @usableFromInline
  static func nanoseconds(value: Int64, timescale: Int32) -> Int64? {
    // The usual case, and the same result without a division.
    guard timescale != nanosecondTimescale else { return value }
    let ticks = Int64(timescale)
    let (seconds, remainder) = value.quotientAndRemainder(dividingBy: ticks)
    var (fraction, fractionRemainder) = (remainder * 1_000_000_000).quotientAndRemainder(dividingBy: ticks)
    if fractionRemainder < 0 { fraction -= 1 }  // toward negative infinity, not zero
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (sum, sumOverflow) = whole.addingReportingOverflow(fraction)
    guard !overflow, !sumOverflow else { return nil }
    return sum
  }
}
