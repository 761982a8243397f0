import Crease

/// A reader's items, read on the replay's own thread as it asks for them: one thread, several
/// sources, a live source, or a rejects output (``ReplayPlan/inline``, ``ReplayPlan/writeBehind``).
///
/// Asking for the next event reads the next item and holds it until it is taken; the reader's
/// position and line then describe the held item, which is the next one taken.
final class ReaderFeed: EventFeed {
  let reader: any RecordReader
  /// The item read and not yet taken, moved in and out of storage of its own rather than kept
  /// in a stored optional. Tuning: moved-not-copied. Safe because `isHolding` says
  /// whether it is initialized: set only after initializing it, cleared only on moving it out.
  private let held = UnsafeMutablePointer<TraceItem>.allocate(capacity: 1)
  private var isHolding = false

  /// A feed of `reader`; its line is the reader's own, kept whatever `keepingLines` says.
  init(reading reader: any RecordReader, keepingLines: Bool) { self.reader = reader }

  deinit {
    if isHolding { held.deinitialize(count: 1) }
    held.deallocate()
  }

  func takeEvent(if admits: (Nanoseconds) -> Bool) throws -> Event? {
    if !isHolding {
      held.initialize(to: try reader.next())
      isHolding = true
    }
    switch held.move() {
    case .record(.event(let event)) where !event.isEnd && admits(event.t):
      isHolding = false
      return event
    case let other:
      held.initialize(to: other)
      return nil
    }
  }

  func takeItem() throws -> TraceItem { isHolding ? takeHeld() : try reader.next() }

  private func takeHeld() -> TraceItem {
    precondition(isHolding, "an item is taken after it was read")
    isHolding = false
    return held.move()
  }
}
