import Crease

/// One source of a replay: its feed, where it stands in `--loop`, and its line counts.
///
/// A class, so its fields sit at fixed offsets: counting a line then costs no uniqueness check
/// of an array of counters, and its feed is called without a retain (per-source arrays of
/// readers, loops and counts cost the replay's thread about 80 instructions a line).
final class ReplaySource<Feed: EventFeed> {
  /// The index of the source among the replay's, for the engine.
  let index: Int
  /// The feed of this pass; the next pass gets a new `ReplaySource`, the counts carried over.
  let feed: Feed
  /// The feed's reader, asked about the item last taken.
  let reader: any RecordReader
  /// Whether reading may wait for a writer (a pipe, a terminal, a live source): only then are
  /// cues flushed, and time advanced, before a read. A regular file or memory never makes a
  /// reader wait.
  let isLive: Bool
  var loop: LoopShift
  private(set) var counts: ReplaySummary.LineCounts

  init(index: Int, feed: Feed, isLive: Bool, loop: LoopShift, counts: ReplaySummary.LineCounts) {
    self.index = index
    self.feed = feed
    self.reader = feed.reader
    self.isLive = isLive
    self.loop = loop
    self.counts = counts
  }

  /// Counts `lines` lines of one outcome; every line read is counted once, here.
  func count(_ outcome: ReplaySummary.LineOutcome, lines: Int = 1) {
    counts.add(lines, outcome)
    if outcome != .blank { loop.records &+= lines }
  }
}
