import Crease

/// Progress on a terminal for a replay that takes more than about a second (SPEC 6): silent
/// for the first second, then updated in place, and erased at the end.
///
/// A replay as fast as possible shows the share of its input taken (`crease: 42%`); a paced one
/// shows trace time, against the trace's length estimated from the bytes taken so far when the
/// input's size is known (`crease: 12.3 s of ~61.0 s of trace`). A looping replay shows its pass
/// first (`crease: pass 2 of 3, 42%`).
///
/// Bytes taken, not read: a reader reads ahead by its buffer (a small file at once), and the
/// estimate then said the trace ended where the replay was.
public final class ProgressReporter {
  /// What progress is measured in.
  public enum Measure: Sendable {
    /// The share of the input's bytes read.
    case bytes
    /// Trace time replayed, for paced replays.
    case traceTime
  }

  private let sink: ByteSink
  private let clock: WallClock
  private let total: Int?
  private let measure: Measure
  /// How many passes the replay makes (`--loop`; `Int.max` until stopped).
  private let passes: Int
  private let start: Nanoseconds
  private var lastShown: (text: String, wall: Nanoseconds)?

  /// Reports progress through `total` bytes a pass (`nil` when unknown) over `passes` passes to
  /// `sink`, standard error on a terminal.
  public init(
    sink: ByteSink, total: Int?, measure: Measure = .bytes, passes: Int = 1, clock: WallClock = SystemClock()
  ) {
    self.sink = sink
    self.total = total.map { max($0, 1) }
    self.measure = measure
    self.passes = max(1, passes)
    self.clock = clock
    self.start = clock.now()
  }

  /// `done` bytes of pass `pass` (from 1) are taken, and `traceTime` of the trace is replayed
  /// (over every pass).
  public func update(done: Int, traceTime: Nanoseconds, pass: Int = 1) throws {
    let now = clock.now()
    guard now - start >= .milliseconds(1000) else { return }
    // Paced replays call for every line; the terminal is redrawn at most four times a second.
    if measure == .traceTime, let lastShown, now - lastShown.wall < .milliseconds(250) { return }
    let shown = render(done: done, traceTime: traceTime, pass: pass)
    let text =
      passes == 1
      ? shown : "pass \(pass)\(passes == .max ? "" : " of \(passes)")" + (shown.map { ", " + $0 } ?? "")
    guard let text, text != lastShown?.text else { return }
    lastShown = (text, now)
    try sink.write("\rcrease: \(text)\u{1B}[K")
    try sink.flush()
  }

  private func render(done: Int, traceTime: Nanoseconds, pass: Int) -> String? {
    switch measure {
    case .bytes:
      return total.map { "\(min(100, done * 100 / $0))%" }
    case .traceTime:
      let replayed = Self.seconds(traceTime)
      // Past the first pass the trace time runs over several passes, the bytes over one.
      guard let total, done > 0, traceTime > .zero, pass == 1 else { return "\(replayed) of trace" }
      let estimate = Double(traceTime.rawValue) * Double(total) / Double(done)
      return "\(replayed) of ~\(Self.seconds(Nanoseconds(rounding: estimate))) of trace"
    }
  }

  /// Seconds with one decimal, truncated.
  private static func seconds(_ duration: Nanoseconds) -> String {
    let tenths = max(0, duration.rawValue / 100_000_000)
    return "\(tenths / 10).\(tenths % 10) s"
  }

  /// Erases the progress line, if one was shown.
  public func finish() throws {
    guard lastShown != nil else { return }
    try sink.write("\r\u{1B}[K")
    try sink.flush()
  }
}
