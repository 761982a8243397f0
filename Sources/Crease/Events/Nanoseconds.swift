/// A point or a span on a recording's monotonic host clock, in whole nanoseconds.
///
/// Trace time is the only clock the core knows: timers, deadlines and latencies are all
/// `Nanoseconds`, so the same input gives the same output however fast it is processed.
public struct Nanoseconds: RawRepresentable, Hashable, Comparable, Sendable {
  /// The count of nanoseconds.
  public var rawValue: Int64

  /// Creates a value from a count of nanoseconds.
  public init(rawValue: Int64) { self.rawValue = rawValue }

  /// Creates a value from a count of nanoseconds.
  public init(_ value: Int64) { self.rawValue = value }

  /// A span of whole milliseconds.
  public static func milliseconds(_ value: Int64) -> Nanoseconds {
    let (product, overflow) = value.multipliedReportingOverflow(by: 1_000_000)
    return overflow ? (value < 0 ? .min : .max) : Nanoseconds(product)
  }

  /// A span of whole seconds.
  public static func seconds(_ value: Int64) -> Nanoseconds {
    let (product, overflow) = value.multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? (value < 0 ? .min : .max) : Nanoseconds(product)
  }

  /// The zero time or an empty span.
  public static let zero = Nanoseconds(0)
  /// The latest representable time.
  public static let max = Nanoseconds(.max)
  /// The earliest representable time.
  public static let min = Nanoseconds(.min)

  /// Whether `lhs` is earlier than `rhs`.
  @inlinable
  public static func < (lhs: Nanoseconds, rhs: Nanoseconds) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The sum, saturating at the ends of the range instead of trapping.
  @inlinable
  public static func + (lhs: Nanoseconds, rhs: Nanoseconds) -> Nanoseconds {
    let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
    guard overflow else { return Nanoseconds(sum) }
    return rhs.rawValue > 0 ? .max : .min
  }

  /// The difference, saturating at the ends of the range instead of trapping.
  @inlinable
  public static func - (lhs: Nanoseconds, rhs: Nanoseconds) -> Nanoseconds {
    let (difference, overflow) = lhs.rawValue.subtractingReportingOverflow(rhs.rawValue)
    guard overflow else { return Nanoseconds(difference) }
    return rhs.rawValue > 0 ? .min : .max
  }
}

extension Nanoseconds {
  /// The time `duration` (not negative) earlier, saturating at ``min``, the one end such a
  /// difference can pass: ``-(_:_:)`` without its look at the sign of what it subtracts, for
  /// the end to saturate at (callgrind, the day trace: the engine's release line, once a push,
  /// 5 instructions an event).
  @inline(__always)
  func earlier(by duration: Nanoseconds) -> Nanoseconds {
    assert(duration.rawValue >= 0, "a duration to go back by is not negative")
    let (difference, overflow) = rawValue.subtractingReportingOverflow(duration.rawValue)
    return overflow ? .min : Nanoseconds(difference)
  }
}

extension Nanoseconds: CustomStringConvertible {
  /// The count followed by `ns`, for diagnostics.
  public var description: String { "\(rawValue)ns" }
}

extension Nanoseconds: ExpressibleByIntegerLiteral {
  /// A count of nanoseconds written as a literal.
  public init(integerLiteral value: Int64) { self.rawValue = value }
}

extension Nanoseconds {
  /// `value` nanoseconds rounded to the nearest whole one, saturating at the ends of the range;
  /// NaN, which no finite input produces, becomes `.max` (never).
  public init(rounding value: Double) { self.init(saturating: value.rounded()) }

  /// `value` nanoseconds with the fraction dropped, saturating at the ends of the range; NaN
  /// becomes `.max`.
  public init(truncating value: Double) { self.init(saturating: value.rounded(.towardZero)) }

  private init(saturating rounded: Double) {
    if rounded >= 9.223372036854775807e18 || rounded.isNaN {
      self = .max
    } else if rounded <= -9.223372036854775807e18 {
      self = .min
    } else {
      self.init(Int64(rounded))
    }
  }

  /// A standard library duration in whole nanoseconds, truncated toward zero and saturating at
  /// the ends of the range.
  public init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else {
      self = seconds > 0 ? .max : .min
      return
    }
    self = Nanoseconds(whole) + Nanoseconds(attoseconds / 1_000_000_000)
  }
}
