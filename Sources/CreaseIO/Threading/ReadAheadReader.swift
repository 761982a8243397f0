import Crease

/// Runs another reader on another thread, a few batches ahead of its caller, so reading and
/// parsing a trace overlap with processing it: two cores instead of one.
///
/// It hands over exactly what the reader returned, item by item: the same records, and with
/// each item the reader's `position`, `bytesRead`, line, line terminator and unknown keys as
/// they were right after it (the line copied, unless the caller needs none). An error the
/// reader throws is thrown at the item where it happened. Output made from it is therefore
/// byte for byte the output made from the reader itself.
///
/// Only a reader whose `next()` has no side effect other than reading may be wrapped: one that
/// streams overlong lines to an overflow sink would write to it from the other thread, out of
/// order with the caller's writes. And a live source, which the caller waits on between
/// lines, gains nothing. ``TraceReplay`` reads ahead only when neither is the case.
///
/// The reading is a job on `thread`, which other work may share (`CueWriter`).
///
/// Memory is bounded: at most ``batchCount`` batches of ``batchSize`` items and their lines
/// are in flight, each batch ending early at ``batchBytes`` of its source, and their
/// storage is reused, so reading allocates nothing per item.
public final class ReadAheadReader: RecordReader {
  /// Items per batch: large enough that handing a batch over costs nothing per item, and that
  /// a reading thread faster than its caller (binary input) seldom sleeps and wakes. Of 128 to
  /// 8,192 items, and 2 to 16 batches, 4 of 4,096 replayed the bench trace fastest in both
  /// formats; they hold about 4 MB.
  public static let batchSize = 4096
  /// Batches in flight: one being read, one being handed over, and room for either side to
  /// run ahead for a moment.
  public static let batchCount = 4
  /// The bytes of its source past which a batch is handed over however few its items: traces of
  /// few large events (labels of a megabyte) stay within a few MiB in flight too.
  public static let batchBytes = 1 << 20

  private let wrapped: any RecordReader
  private let handoff: BatchHandoff<Batch>
  /// The thread the reading runs on, from the first ``next()``.
  let thread: JobThread
  private var started = false
  /// The wrapped reader's source.
  public let source: ByteSource
  private var collectsKeys: Bool
  private let keepsLines: Bool
  /// The batch being handed over, and its place among the batches.
  private var batch: Batch?
  private var batchIndex = -1
  /// The batch's items and notes, and the next one to hand over: read here rather than through
  /// the batch, an object that would be retained and released for every item. Safe because they
  /// are the storage of `batch`, which this side holds from ``nextBatch()`` until it gives the
  /// batch back, and items are moved out only at `cursor < count`, each once.
  private var items: UnsafeMutablePointer<TraceItem>?
  private var cursor = 0
  private var count = 0
  private var finished = false
  /// What the reader said of the item last handed over: read from the batch being handed
  /// over, at `lastIndex`, or a copy kept when its batch was given back. Only the index is set
  /// for each item (copying what was said cost 8 instructions an event).
  private var lastIndex = -1
  private var lastReleased = Said(position: 0, bytesRead: 0, endsWithCarriageReturn: false)
  private var last: Said { lastIndex >= 0 ? batch!.said(of: lastIndex) : lastReleased }
  private var lastUnknownKeys: [UnknownKey] = []
  /// Bytes taken after the last batch given back.
  private var lastTaken = 0

  /// Wraps `reader`, which must not be read otherwise from now on. Reading starts with the
  /// first ``next()``, so `collectsUnknownKeys` may still be set before.
  ///
  /// Without `keepingLines`, no line is handed over (`line` is `nil`): for a caller that
  /// never copies one, so the reading thread does not copy each line for it. A replay copies
  /// lines only to a late output (with a rejects output, it does not read ahead at all).
  public init(_ reader: any RecordReader, keepingLines: Bool = true) {
    wrapped = reader
    keepsLines = keepingLines
    source = reader.source
    collectsKeys = reader.collectsUnknownKeys
    thread = JobThread(named: "read-ahead")
    handoff = BatchHandoff(batches: (0..<Self.batchCount).map { _ in Batch() }, signal: thread.signal)
  }

  deinit {
    batch?.taken = cursor
    // The reading stops at its next batch; the thread ends, and is joined, with the last owner.
    handoff.cancel()
  }

  /// The position of the item last handed over.
  public var position: Int { last.position }
  /// Bytes the reader had read once the batch of the item last handed over was filled: the
  /// reading runs ahead by up to a batch.
  public var bytesRead: Int { last.bytesRead }
  /// Bytes of the source taken up to the end of the item last handed over, as far as its batch
  /// tells: the bytes its batch took, shared evenly among its items (asked of each item, on the
  /// reading thread, it cost 5 to 11 instructions an event).
  public var bytesTaken: Int {
    guard let batch, lastIndex >= 0 else { return lastTaken }
    return batch.takenBefore + (batch.takenAfter - batch.takenBefore) * (lastIndex + 1) / max(1, batch.count)
  }
  /// The next item never waits for the source, only for the reading thread.
  public var hasBufferedItem: Bool { true }
  /// The line last handed over, when lines are kept.
  public var unsafeLine: UnsafeRawBufferPointer? { lastIndex >= 0 ? batch?.unsafeLine(of: lastIndex) : nil }
  /// The terminator of the line last handed over.
  public var lineTerminator: String { last.endsWithCarriageReturn ? "\r\n" : "\n" }
  /// Whether the line last handed over ended with `\r\n`.
  public var endsWithCarriageReturn: Bool { last.endsWithCarriageReturn }
  /// The unknown keys of the item last handed over.
  public var unknownKeys: [UnknownKey] { lastUnknownKeys }
  /// Whether the reader lists unknown keys; set before reading starts.
  public var collectsUnknownKeys: Bool {
    get { collectsKeys }
    set {
      precondition(!started, "collectsUnknownKeys is set before reading starts")
      wrapped.collectsUnknownKeys = newValue
      collectsKeys = newValue
    }
  }

  /// The next item from the batch at hand, waiting for the reading thread at a batch's end.
  public func next() throws -> TraceItem {
    while cursor == count {
      guard !finished else { return .endOfInput }
      try nextBatch()
    }
    lastIndex = cursor
    if collectsKeys { lastUnknownKeys = batch!.unknownKeys(at: cursor) }
    defer { cursor &+= 1 }
    return (items! + cursor).move()
  }

  /// Moves out the next item of the batch being handed over when it is an event other than
  /// `end` whose `t` `admits` accepts: ``next()`` without the item's wrapping. At the batch's
  /// end, `nil`, so that the replay's fast loop ends and ``next()`` waits for the next batch.
  /// The item is moved out and looked at once, and moved back in the rare case it is not
  /// taken: asking its time in place and then moving it out looked at its kind twice
  /// (callgrind, the day trace: 1 instruction an event binary, 2 JSON Lines).
  @inline(__always)
  func takeEvent(if admits: (Nanoseconds) -> Bool) -> Event? {
    guard cursor < count else { return nil }
    let slot = items! + cursor
    switch slot.move() {
    case .record(.event(let event)) where !event.isEnd && admits(event.t):
      lastIndex = cursor
      if collectsKeys { lastUnknownKeys = batch!.unknownKeys(at: cursor) }
      cursor &+= 1
      return event
    case let other:
      slot.initialize(to: other)
      return nil
    }
  }

  /// Gives the batch just handed over back to the reading thread and waits for the next one;
  /// throws the reader's error when it ended the batch.
  private func nextBatch() throws {
    if !started { try start() }
    if let batch {
      if lastIndex >= 0 { lastReleased = batch.said(of: lastIndex) }
      lastIndex = -1
      lastTaken = batch.takenAfter
      batch.taken = cursor
      // Read before the batch is given back, when the reading thread may refill it.
      let failure = batch.failure
      finished = batch.isLast || failure != nil
      self.batch = nil
      handoff.release()
      if let failure { throw failure }
      if finished { return }
    }
    batchIndex = (batchIndex + 1) % Self.batchCount
    _ = handoff.waitForBatch()  // only this side cancels, on its way out
    let batch = handoff.batches[batchIndex]
    self.batch = batch
    (items, count, cursor) = (batch.items, batch.count, 0)
  }

  private func start() throws(IOError) {
    started = true
    let batches = ReadAheadBatches(handoff: handoff, keepsLines: keepsLines)
    try thread.add((wrapped as? any ReadsAheadDirectly)?.readingJob(batches) ?? batches.job(reading: wrapped))
  }
}

/// A reader whose read-ahead job is compiled for its own type, so that the job's calls for each
/// item are direct rather than through the protocol (callgrind: 5 calls an item). A format's
/// reader declares it where the reader is declared: ``ReadAheadReader`` names no format.
protocol ReadsAheadDirectly: RecordReader {
  /// The job that reads this reader into `batches`.
  func readingJob(_ batches: ReadAheadBatches) -> any ThreadJob
}

extension ReadsAheadDirectly {
  // A requirement, not only an extension method: each conformance's witness calls `job` with
  // its own type, which the optimizer specializes.
  func readingJob(_ batches: ReadAheadBatches) -> any ThreadJob { batches.job(reading: self) }
}

/// The batches a ``ReadAheadReader`` takes its items from, for the job that fills them.
struct ReadAheadBatches {
  fileprivate let handoff: BatchHandoff<Batch>
  fileprivate let keepsLines: Bool

  /// The job that fills the batches from `reader`.
  func job<Reader: RecordReader>(reading reader: Reader) -> any ThreadJob {
    ReadingJob(reader: reader, keepingLines: keepsLines, handoff: handoff)
  }
}

/// What the reader said of an item, as the caller asks it. Plain data, so that keeping and
/// taking it copies no reference.
private struct Said {
  var position: Int
  var bytesRead: Int
  var endsWithCarriageReturn: Bool
}

/// An item's position and whether its line ended with `\r\n`, in one word: the one note
/// written for every item. (A note of five fields, the bytes read among them, cost 13
/// instructions an event more in binary and 22 in JSON Lines; callgrind, the bench's day trace.)
private struct ItemNote {
  private let bits: Int

  @inline(__always)
  init(position: Int, endsWithCarriageReturn: Bool) {
    bits = position &<< 1 | (endsWithCarriageReturn ? 1 : 0)
  }

  var position: Int { bits >> 1 }
  var endsWithCarriageReturn: Bool { bits & 1 != 0 }
}

/// Where an item's line was kept in its batch: written only while lines are kept.
private struct LineSpan {
  var start: Int
  /// −1 when the item has no line (an overlong one, streamed elsewhere, or a binary record).
  var count: Int
}

/// A batch of items, moved in by the reading thread and out by the caller, with their notes
/// and lines. Its storage is kept from one use to the next.
///
/// Items are moved, never copied or rebuilt: a record holds strings, and copying one goes
/// through its value witnesses, which cost more than parsing it (callgrind).
///
/// Safe because items and notes `0..<count` are initialized, and line spans too while lines
/// are kept (``append(_:position:line:endsWithCarriageReturn:)`` is the only writer, and the
/// filling stops at capacity), the caller moves items out in order and says how far (`taken`),
/// and ``reset()`` deinitializes exactly the items not moved out. The batch belongs to one
/// thread at a time (``BatchHandoff``).
private final class Batch: @unchecked Sendable {
  let items = UnsafeMutablePointer<TraceItem>.allocate(capacity: ReadAheadReader.batchSize)
  private let notes = UnsafeMutablePointer<ItemNote>.allocate(capacity: ReadAheadReader.batchSize)
  private let lineSpans = UnsafeMutablePointer<LineSpan>.allocate(capacity: ReadAheadReader.batchSize)
  private(set) var count = 0
  /// Whether the items' lines are kept, with a line span for each.
  var keepsLines = false
  /// How far into its source the reader was before the first item, and after the last: an
  /// item's text and line come from the bytes read between, so they bound the batch's memory
  /// (asked of each item instead, they cost a copy of it: about 90 instructions an event).
  var bytesReadBefore = 0
  var bytesReadAfter = 0
  /// Items before this one have been moved out (the caller says so as it gives the batch back).
  var taken = 0
  /// Unknown keys by item, only while the reader collects them.
  private var keysByItem: [Int: [UnknownKey]] = [:]
  /// The lines, one after another, in memory of the batch's own: a pointer into an array's
  /// storage may not outlive the call that lends it.
  private var lines = UnsafeMutableRawBufferPointer.allocate(byteCount: initialLineBytes, alignment: 1)
  private static let initialLineBytes = 1 << 16
  private var used = 0
  /// Bytes of the source taken before the batch's first item and after its last.
  var takenBefore = 0
  var takenAfter = 0
  /// What the reader threw after the items.
  var failure: (any Error)?
  /// Whether the reader has nothing after this batch.
  var isLast = false

  deinit {
    reset()
    items.deallocate()
    notes.deallocate()
    lineSpans.deallocate()
    lines.deallocate()
  }

  /// Empties the batch for the next use, keeping its storage.
  func reset() {
    (items + taken).deinitialize(count: count - taken)
    count = 0
    (bytesReadBefore, bytesReadAfter) = (0, 0)
    taken = 0
    if !keysByItem.isEmpty { keysByItem.removeAll() }
    used = 0
    // A batch that once held a run of the longest lines gives their room back.
    if lines.count > 2 * ReadAheadReader.batchBytes {
      lines.deallocate()
      lines = .allocate(byteCount: Self.initialLineBytes, alignment: 1)
    }
    failure = nil
    isLast = false
  }

  /// Moves `item` in, read at `position`, with a copy of its line while lines are kept.
  // Inlined into the reading job's fill. Tuning: hot-inline.
  @inline(__always)
  func append(
    _ item: consuming TraceItem, position: Int, line: @autoclosure () -> UnsafeRawBufferPointer?,
    endsWithCarriageReturn: Bool
  ) {
    if keepsLines {
      let kept = line()
      (lineSpans + count).initialize(to: LineSpan(start: used, count: kept?.count ?? -1))
      if let kept { keep(kept) }
    }
    (items + count).initialize(to: item)
    (notes + count).initialize(
      to: ItemNote(position: position, endsWithCarriageReturn: endsWithCarriageReturn))
    count &+= 1
  }

  /// What the reader said of the item at `index`.
  func said(of index: Int) -> Said {
    Said(
      position: notes[index].position, bytesRead: bytesReadAfter,
      endsWithCarriageReturn: notes[index].endsWithCarriageReturn)
  }

  /// Keeps the unknown keys of the item appended last.
  func keepUnknownKeys(_ keys: [UnknownKey]) {
    if !keys.isEmpty { keysByItem[count - 1] = keys }
  }

  func unknownKeys(at index: Int) -> [UnknownKey] { keysByItem[index] ?? [] }

  /// The line kept for the item at `index`. The lines are not touched again until the batch is
  /// given back, so the pointer stays good until then.
  func unsafeLine(of index: Int) -> UnsafeRawBufferPointer? {
    guard keepsLines, lineSpans[index].count >= 0 else { return nil }
    let span = lineSpans[index]
    return UnsafeRawBufferPointer(rebasing: lines[span.start..<(span.start + span.count)])
  }

  private func keep(_ line: UnsafeRawBufferPointer) {
    if used + line.count > lines.count {
      let larger = UnsafeMutableRawBufferPointer.allocate(
        byteCount: max(lines.count * 2, used + line.count), alignment: 1)
      larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: lines[..<used]))
      lines.deallocate()
      lines = larger
    }
    UnsafeMutableRawBufferPointer(rebasing: lines[used...]).copyMemory(from: line)
    used += line.count
  }
}

/// The reading: fills the batches in turn, a batch a step, until the reader ends or throws.
///
/// Not generic itself: a generic class's methods reached through a protocol run unspecialized
/// (callgrind: 60 instructions an item more). Its filling is a closure made where the reader's
/// type is known.
private final class ReadingJob: ThreadJob, @unchecked Sendable {
  private let handoff: BatchHandoff<Batch>
  private let fill: (Batch) -> Void
  private var index = 0
  /// Set on the job's thread once the reader has ended or thrown; read there only.
  private var finished = false

  init<Reader: RecordReader>(reader: Reader, keepingLines: Bool, handoff: BatchHandoff<Batch>) {
    self.handoff = handoff
    let filler = BatchFiller(reader: reader, keepsLines: keepingLines)
    fill = { filler.fill($0) }
  }

  var hasWork: Bool { !finished && !handoff.isCancelled && handoff.hasFreeBatch }

  func step() {
    let batch = handoff.batches[index]
    fill(batch)
    finished = batch.isLast || batch.failure != nil
    handoff.publish()
    index = (index + 1) % handoff.batches.count
  }
}

/// Moves a reader's items, with what it says about each, into a batch.
private struct BatchFiller<Reader: RecordReader> {
  let reader: Reader
  let keepsLines: Bool
  let collectsKeys: Bool

  init(reader: Reader, keepsLines: Bool) {
    self.reader = reader
    self.keepsLines = keepsLines
    collectsKeys = reader.collectsUnknownKeys
  }

  /// Fills `batch` until it is full, the reader ends, or the reader throws.
  func fill(_ batch: Batch) {
    batch.reset()
    batch.keepsLines = keepsLines
    batch.takenBefore = reader.bytesTaken
    batch.bytesReadBefore = reader.bytesRead
    defer { (batch.takenAfter, batch.bytesReadAfter) = (reader.bytesTaken, reader.bytesRead) }
    repeat {
      let item: TraceItem
      do { item = try reader.next() } catch {
        batch.failure = error
        return
      }
      if case .endOfInput = item { batch.isLast = true }
      batch.append(
        consume item, position: reader.position, line: reader.unsafeLine,
        endsWithCarriageReturn: reader.endsWithCarriageReturn)
      if collectsKeys { batch.keepUnknownKeys(reader.unknownKeys) }
      if batch.isLast { return }
    } while batch.count < ReadAheadReader.batchSize
      // Unchecked: a reader's bytes read only grow from what they were.
      && reader.bytesRead &- batch.bytesReadBefore < ReadAheadReader.batchBytes
  }
}
