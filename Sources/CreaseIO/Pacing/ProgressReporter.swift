import Crease

/// A percentage on a terminal for a replay that takes more than about a second (SPEC 6): silent
/// for the first second, then updated in place, and erased at the end.
public final class ProgressReporter {
  private let sink: ByteSink
  private let clock: WallClock
  private let total: Int
  private let start: Nanoseconds
  private var shown: Int?

  /// Reports progress through `total` bytes to `sink` (standard error on a terminal).
  public init(sink: ByteSink, total: Int, clock: WallClock = SystemClock()) {
    self.sink = sink
    self.total = max(total, 1)
    self.clock = clock
    self.start = clock.now()
  }

  /// `done` bytes of the total are read.
  public func update(done: Int) throws {
    guard clock.now() - start >= .milliseconds(1000) else { return }
    let percent = min(100, done * 100 / total)
    guard percent != shown else { return }
    shown = percent
    try sink.write("\rcrease: \(percent)%")
    try sink.flush()
  }

  /// Erases the percentage, if one was shown.
  public func finish() throws {
    guard shown != nil else { return }
    try sink.write("\r\u{1B}[K")
    try sink.flush()
  }
}
