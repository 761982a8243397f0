/// A sample buffer's presentation timestamp: an integer count of nanoseconds or a CMTime
/// (`value / timescale` seconds), kept as recorded so conversions are lossless.
public struct PresentationTime: Hashable, Sendable {
  /// The timescale of a plain nanosecond count.
  public static let nanosecondTimescale: Int32 = 1_000_000_000

  /// The CMTime value.
  public let value: Int64
  /// The CMTime timescale (ticks per second), always positive.
  public let timescale: Int32
  /// The time in nanoseconds, rounded toward negative infinity.
  public let nanoseconds: Nanoseconds

  /// A presentation time given directly in nanoseconds.
  public init(nanoseconds: Int64) {
    self.value = nanoseconds
    self.timescale = Self.nanosecondTimescale
    self.nanoseconds = Nanoseconds(nanoseconds)
  }

  /// A CMTime, or `nil` when the timescale is not positive or the time in nanoseconds does not
  /// fit in 64 bits.
  ///
  /// The conversion is exact: a 128-bit product, then floor division, so no timescale drifts.
  public init?(value: Int64, timescale: Int32) {
    guard timescale > 0 else { return nil }
    self.value = value
    self.timescale = timescale
    // The usual case, and the same result without a 128-bit division.
    guard timescale != Self.nanosecondTimescale else {
      self.nanoseconds = Nanoseconds(value)
      return
    }
    let scaled = Int128(value) * 1_000_000_000
    var quotient = scaled / Int128(timescale)
    if scaled % Int128(timescale) != 0 && scaled < 0 { quotient -= 1 }
    guard let nanoseconds = Int64(exactly: quotient) else { return nil }
    self.nanoseconds = Nanoseconds(nanoseconds)
  }
}
