/// A stream's nominal frame duration, kept exact: 10⁹ / fps for a declared rate, not first
/// rounded to whole nanoseconds (SPEC 4.6).
///
/// Every threshold is computed from the exact duration and only then rounded to the nearest
/// nanosecond, so at 30 fps a stall after 3 frames is due at exactly 100 ms, not 99.999999 ms.
public struct FrameDuration: Hashable, Sendable {
  /// The duration in nanoseconds, with its fraction.
  public let nanoseconds: Double

  /// The duration of one frame at `framesPerSecond` (finite and positive).
  public init(framesPerSecond: Double) { nanoseconds = 1e9 / framesPerSecond }

  /// A measured duration in whole nanoseconds.
  public init(_ duration: Nanoseconds) { nanoseconds = Double(duration.rawValue) }

  /// 30 fps, the slowest rate the capture formats here use: what `--latency-budget` assumes
  /// for bounds in frames.
  public static let reference = FrameDuration(framesPerSecond: 30)

  /// `factor` frame durations, rounded to the nearest nanosecond (saturating).
  public func scaled(by factor: Double) -> Nanoseconds { Nanoseconds(rounding: nanoseconds * factor) }

  /// One frame duration, rounded to the nearest nanosecond.
  public var rounded: Nanoseconds { Nanoseconds(rounding: nanoseconds) }

  /// How many frame durations `span` is, to the nearest whole number (saturating).
  public func frames(in span: Nanoseconds) -> Int {
    let frames = (Double(span.rawValue) / nanoseconds).rounded()
    guard frames < 9.2e18 else { return .max }
    guard frames > -9.2e18 else { return .min }
    return Int(frames)
  }
}
