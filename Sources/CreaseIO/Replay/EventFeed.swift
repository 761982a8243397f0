import Crease

/// Where a replay takes one source's items from, with a fast path for the plain events that
/// make up nearly all of a trace: their time is looked at in place, and the event is moved out
/// without wrapping it in an item and unwrapping it again. Tuning: moved-not-copied.
///
/// A new input format needs no feed of its own: it is a ``RecordReader``, which either feed
/// reads (``ReplayPlan``).
protocol EventFeed: AnyObject {
  /// A feed reading `reader`, which is read through it only from now on. Without
  /// `keepingLines`, the feed may drop each line's text (``RecordReader/line``) for a replay
  /// that never copies one.
  init(reading reader: any RecordReader, keepingLines: Bool)

  /// The reader, for what the replay asks about the item last taken (its position, line and
  /// unknown keys) and for waiting on a live source.
  var reader: any RecordReader { get }

  /// Moves out the next item when it is an event other than `end` whose `t` `admits` accepts;
  /// `nil`, leaving the item to ``takeItem()``, when it is anything else. May wait for the
  /// source: a replay asks only of a source that never waits for a writer.
  func takeEvent(if admits: (Nanoseconds) -> Bool) throws -> Event?

  /// Moves out the next item, whatever it is.
  func takeItem() throws -> TraceItem
}

extension ReadAheadReader: EventFeed {
  convenience init(reading reader: any RecordReader, keepingLines: Bool) {
    self.init(reader, keepingLines: keepingLines)
  }

  var reader: any RecordReader { self }

  @inline(__always)
  func takeItem() throws -> TraceItem { try next() }
}
