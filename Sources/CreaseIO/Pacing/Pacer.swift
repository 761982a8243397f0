import Crease

/// Writes lines when their trace time comes (`--speed X`: 1 is real time, 10 ten times faster),
/// and measures how late each went out against its schedule.
public struct Pacer {
  /// How late lines went out: p50, p99 and the maximum.
  public struct Accuracy: Hashable, Sendable {
    /// Lines paced.
    public var lines: Int
    /// The median lateness.
    public var p50: Nanoseconds
    /// The 99th percentile of lateness.
    public var p99: Nanoseconds
    /// The latest any line went out.
    public var maximum: Nanoseconds
  }

  /// Trace time per wall time: 1 is real time, 2 twice as fast.
  public let speed: Double
  private let clock: WallClock
  private var origin: (wall: Nanoseconds, trace: Nanoseconds)?
  private var lateness = LatenessHistogram()

  /// A pacer at `speed` (greater than 0) on `clock`.
  public init(speed: Double, clock: WallClock = SystemClock()) {
    precondition(speed > 0 && speed.isFinite, "the speed must be a positive number")
    self.speed = speed
    self.clock = clock
  }

  /// Sets the origin at trace time `t`, now, unless a line or an earlier start has set it: a
  /// replay starts the clock at the first event read, as a recording played back does.
  public mutating func start(at t: Nanoseconds) {
    if origin == nil { origin = (clock.now(), t) }
  }

  /// Waits until trace time `t` comes, writing nothing: a paced replay lasts as long as its
  /// input, to the last event's `t`, whenever its last cue was.
  public mutating func pause(until t: Nanoseconds) { clock.sleep(until: schedule(t)) }

  /// The wall time at which a line at trace time `t` is due; the first line sets the origin.
  public mutating func schedule(_ t: Nanoseconds) -> Nanoseconds {
    guard let origin else {
      origin = (clock.now(), t)
      return origin!.wall
    }
    let offset = Double((t - origin.trace).rawValue) / speed
    return origin.wall + Nanoseconds(rounding: offset)
  }

  /// Waits until the line at trace time `t` is due and returns its schedule; call ``sent(_:)``
  /// with it once the line is out.
  public mutating func wait(for t: Nanoseconds) -> Nanoseconds {
    let due = schedule(t)
    clock.sleep(until: due)
    return due
  }

  /// Records how late a line scheduled for `due` went out.
  public mutating func sent(_ due: Nanoseconds) { lateness.record(clock.now() - due) }

  /// Lateness so far, or `nil` before the first line.
  public var accuracy: Accuracy? { lateness.accuracy }
}

/// Lateness in 10 µs buckets up to 1 s, with the exact maximum: constant memory, whatever the
/// number of lines.
struct LatenessHistogram {
  private static let bucket: Int64 = 10_000
  private var counts = [Int](repeating: 0, count: 100_001)
  private var total = 0
  private var maximum = Nanoseconds.zero

  mutating func record(_ lateness: Nanoseconds) {
    let late = Swift.max(lateness, .zero)
    counts[Int(Swift.min(late.rawValue / Self.bucket, Int64(counts.count - 1)))] += 1
    total += 1
    maximum = Swift.max(maximum, late)
  }

  var accuracy: Pacer.Accuracy? {
    guard total > 0 else { return nil }
    return Pacer.Accuracy(lines: total, p50: quantile(0.5), p99: quantile(0.99), maximum: maximum)
  }

  /// The `fraction` quantile, rounded down to the bucket's 10 µs.
  private func quantile(_ fraction: Double) -> Nanoseconds {
    let rank = Swift.max(1, Int((Double(total) * fraction).rounded(.up)))
    var seen = 0
    for (index, count) in counts.enumerated() {
      seen += count
      if seen >= rank { return Nanoseconds(Int64(index) * Self.bucket) }
    }
    return maximum
  }
}
