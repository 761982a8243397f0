import Crease

/// One source of a ``TraceReplay``, read and counted in place.
///
/// A class, outside the generic replay so its fields sit at fixed offsets: counting a line then
/// costs no uniqueness check of an array of counters, and its reader is called without a retain
/// (per-source arrays of readers, loops and counts cost the replay's thread about 80
/// instructions a line). Usable from inlinable code because cross-module optimization does not
/// carry code that uses an internal class into other modules: without it the command's replay
/// was no longer specialized for its processor, and ran 15 times slower.
@usableFromInline final class ReplaySource {
  /// The index of the source among the replay's, for the engine.
  let index: Int
  /// The reader of this pass; the next pass gets a new `ReplaySource`, the counts carried over.
  let reader: any RecordReader
  /// The reader again when it reads ahead, the usual case, called directly: through the
  /// protocol each item was copied once more (20 instructions a line).
  let readAhead: ReadAheadReader?
  /// Whether reading may wait for a writer (a pipe, a terminal, a live source): only then are
  /// cues flushed, and time advanced, before a read. A regular file or memory never makes a
  /// reader wait.
  let isLive: Bool
  var loop: LoopShift
  var counts: ReplaySummary.LineCounts

  init(index: Int, reader: any RecordReader, isLive: Bool, loop: LoopShift, counts: ReplaySummary.LineCounts)
  {
    self.index = index
    self.reader = reader
    self.readAhead = reader as? ReadAheadReader
    self.isLive = isLive
    self.loop = loop
    self.counts = counts
  }

  /// Counts `count` lines read, each an event processed: what a replay's fast loop took,
  /// added once when the loop ends rather than for each event.
  func countProcessedEvents(_ count: Int) {
    counts.lines += count
    loop.records += count
    counts.processed += count
  }
}
