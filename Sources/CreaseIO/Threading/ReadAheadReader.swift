import Crease

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs another reader on a thread of its own, a few batches ahead of its caller, so reading
/// and parsing a trace overlap with processing it: two cores instead of one.
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
  /// A cue writer this reader's thread also serves, between batches.
  private var hostedJob: CueWriteJob?
  /// The wrapped reader's source.
  public let source: ByteSource
  private var collectsKeys: Bool
  private let keepsLines: Bool
  private var thread: pthread_t?
  /// The batch being handed over, and its place among the batches.
  private var batch: Batch?
  private var batchIndex = -1
  /// The batch's items and notes, and the next one to hand over: read here rather than through
  /// the batch, an object that would be retained and released for every item.
  private var items: UnsafeMutablePointer<TraceItem>?
  private var notes: UnsafePointer<Note>?
  private var cursor = 0
  private var count = 0
  private var finished = false
  /// What the reader said right after the item last handed over: that item's note in the batch
  /// being handed over, at `lastIndex`, or a copy kept when its batch was given back. Only the
  /// index is set for each item (copying the note cost 8 instructions an event).
  private var lastIndex = -1
  private var lastReleased = Note(position: 0, bytesRead: 0, endsWithCarriageReturn: false)
  private var last: Note { lastIndex >= 0 ? notes![lastIndex] : lastReleased }
  private var lastUnknownKeys: [UnknownKey] = []

  /// Wraps `reader`, which must not be read otherwise from now on. Reading starts with the
  /// first ``next()``, so `collectsUnknownKeys` may still be set before.
  ///
  /// Without `keepingLines`, no line is handed over (``line`` is `nil`): for a caller that
  /// never copies one, so the reading thread does not copy each line for it. A replay copies
  /// lines only to a late output (with a rejects output, it does not read ahead at all).
  public init(_ reader: any RecordReader, keepingLines: Bool = true) {
    wrapped = reader
    keepsLines = keepingLines
    source = reader.source
    collectsKeys = reader.collectsUnknownKeys
    handoff = BatchHandoff(batches: (0..<Self.batchCount).map { _ in Batch() })
  }

  deinit {
    guard let thread else { return }
    batch?.taken = cursor
    handoff.cancel()
    pthread_join(thread, nil)
  }

  /// The lock and condition of this reader's batches, for a cue writer it hosts.
  var signal: HandoffSignal { handoff.signal }

  /// Has this reader's thread also write cues for `job`, whose batches share ``signal``: when a
  /// batch of cues waits it is written first, and otherwise the thread reads ahead. The thread
  /// goes on until both the reading and the writing are done. Called before reading starts.
  func host(_ job: CueWriteJob) {
    precondition(thread == nil, "a cue writer is hosted before reading starts")
    hostedJob = job
  }

  /// The position of the item last handed over.
  public var position: Int { last.position }
  /// Bytes the reader had read right after the item last handed over.
  public var bytesRead: Int { last.bytesRead }
  /// The next item never waits for the source, only for the reading thread.
  public var hasBufferedItem: Bool { true }
  /// The line last handed over, when lines are kept.
  public var unsafeLine: UnsafeRawBufferPointer? { batch?.unsafeLine(of: last) }
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
      precondition(thread == nil, "collectsUnknownKeys is set before reading starts")
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

  /// The `t` of the next item when the batch being handed over holds it and it is an event
  /// other than `end`: one ``takeEvent()`` may take. At the batch's end, `nil`, so that the
  /// replay's fast loop ends and ``next()`` waits for the next batch.
  @inline(__always)
  func nextEventTime() -> Nanoseconds? {
    guard cursor < count else { return nil }
    return items![cursor].eventTime
  }

  /// Moves out the next item, which ``nextEventTime()`` said is an event: ``next()`` without the
  /// item's wrapping.
  @inline(__always)
  func takeEvent() -> Event {
    lastIndex = cursor
    if collectsKeys { lastUnknownKeys = batch!.unknownKeys(at: cursor) }
    defer { cursor &+= 1 }
    guard case .record(.event(let event)) = (items! + cursor).move() else { fatalError("not an event") }
    return event
  }

  /// Gives the batch just handed over back to the reading thread and waits for the next one;
  /// throws the reader's error when it ended the batch.
  private func nextBatch() throws {
    if thread == nil { try start() }
    if let batch {
      if lastIndex >= 0 { lastReleased = notes![lastIndex] }
      lastIndex = -1
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
    (items, notes, count, cursor) = (batch.items, batch.notes, batch.count, 0)
  }

  private func start() throws(IOError) {
    let start = ReadAheadStart(handoff: handoff, keepsLines: keepsLines, cues: hostedJob)
    if let reader = wrapped as? any ReadsAheadDirectly {
      thread = try reader.startReadingAhead(start)
    } else {
      thread = try start.run(reading: wrapped)
    }
  }
}

/// A reader whose read-ahead thread is compiled for its own type, so that the thread's calls
/// for each item are direct rather than through the protocol (callgrind: 5 calls an item). A
/// format's reader declares it where the reader is declared: ``ReadAheadReader`` names no
/// format.
protocol ReadsAheadDirectly: RecordReader {
  /// Starts the reading thread with a producer of this reader's type.
  func startReadingAhead(_ start: ReadAheadStart) throws(IOError) -> pthread_t
}

extension ReadsAheadDirectly {
  // A requirement, not only an extension method: each conformance's witness calls `run` with
  // its own type, which the optimizer specializes.
  func startReadingAhead(_ start: ReadAheadStart) throws(IOError) -> pthread_t {
    try start.run(reading: self)
  }
}

/// What a read-ahead thread shares with its ``ReadAheadReader``, besides the reader.
struct ReadAheadStart {
  fileprivate let handoff: BatchHandoff<Batch>
  fileprivate let keepsLines: Bool
  fileprivate let cues: CueWriteJob?

  /// Starts the reading thread for `reader`.
  func run<Reader: RecordReader>(reading reader: Reader) throws(IOError) -> pthread_t {
    let producer = Producer(reader: reader, keepingLines: keepsLines, handoff: handoff, cues: cues)
    return try WorkerThread.start(named: "read-ahead") { producer.run() }
  }
}

/// What the reader said right after an item, and where its line was kept. Plain data, so
/// that keeping and taking it copies no reference.
private struct Note {
  var position: Int
  var bytesRead: Int
  var endsWithCarriageReturn: Bool
  var lineStart = 0
  /// −1 when the item has no line.
  var lineCount = -1
}

/// A batch of items, moved in by the reading thread and out by the caller, with their notes
/// and lines. Its storage is kept from one use to the next.
///
/// Items are moved, never copied or rebuilt: a record holds strings, and copying one goes
/// through its value witnesses, which cost more than parsing it (callgrind).
private final class Batch: @unchecked Sendable {
  let items = UnsafeMutablePointer<TraceItem>.allocate(capacity: ReadAheadReader.batchSize)
  private let noteStorage = UnsafeMutablePointer<Note>.allocate(capacity: ReadAheadReader.batchSize)
  var notes: UnsafePointer<Note> { UnsafePointer(noteStorage) }
  private(set) var count = 0
  /// How far into its source the reader was at the first item, and is at the last: an item's
  /// text and line come from the bytes read between, so they bound the batch's memory (asked
  /// of each item instead, they cost a copy of it: about 90 instructions an event).
  private var firstBytesRead = 0
  private var lastBytesRead = 0
  /// Items before this one have been moved out (the caller says so as it gives the batch back).
  var taken = 0
  /// Unknown keys by item, only while the reader collects them.
  private var keysByItem: [Int: [UnknownKey]] = [:]
  /// The lines, one after another, in memory of the batch's own: a pointer into an array's
  /// storage may not outlive the call that lends it.
  private var lines = UnsafeMutableRawBufferPointer.allocate(byteCount: initialLineBytes, alignment: 1)
  private static let initialLineBytes = 1 << 16
  private var used = 0
  /// What the reader threw after the items.
  var failure: (any Error)?
  /// Whether the reader has nothing after this batch.
  var isLast = false

  deinit {
    reset()
    items.deallocate()
    noteStorage.deallocate()
    lines.deallocate()
  }

  var isFull: Bool {
    count == ReadAheadReader.batchSize || lastBytesRead - firstBytesRead >= ReadAheadReader.batchBytes
  }

  /// Empties the batch for the next use, keeping its storage.
  func reset() {
    (items + taken).deinitialize(count: count - taken)
    count = 0
    (firstBytesRead, lastBytesRead) = (0, 0)
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

  /// Moves `item` in, with a copy of its line.
  // Always inlined into the producer's fill: left to the optimizer, it stayed a call in the
  // JSON Lines reader's producer (callgrind: 27 instructions a line).
  @inline(__always)
  func append(
    _ item: consuming TraceItem, line: UnsafeRawBufferPointer?, note: Note
  ) {
    var note = note
    if let line {
      note.lineStart = used
      note.lineCount = line.count
      keep(line)
    }
    if count == 0 { firstBytesRead = note.bytesRead }
    lastBytesRead = note.bytesRead
    (items + count).initialize(to: item)
    (noteStorage + count).initialize(to: note)
    count &+= 1
  }

  /// Keeps the unknown keys of the item appended last.
  func keepUnknownKeys(_ keys: [UnknownKey]) {
    if !keys.isEmpty { keysByItem[count - 1] = keys }
  }

  func unknownKeys(at index: Int) -> [UnknownKey] { keysByItem[index] ?? [] }

  /// The line kept for the item of `note`. The lines are not touched again until the batch is
  /// given back, so the pointer stays good until then.
  func unsafeLine(of note: Note) -> UnsafeRawBufferPointer? {
    guard note.lineCount >= 0 else { return nil }
    return UnsafeRawBufferPointer(rebasing: lines[note.lineStart..<(note.lineStart + note.lineCount)])
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

/// The reading thread's work: fill batches in turn until the reader ends or throws, and write
/// the hosted cue writer's batches as they come, until it is done too.
private final class Producer<Reader: RecordReader>: @unchecked Sendable {
  let reader: Reader
  let handoff: BatchHandoff<Batch>
  let cues: CueWriteJob?
  let collectsKeys: Bool
  let keepsLines: Bool

  init(reader: Reader, keepingLines: Bool, handoff: BatchHandoff<Batch>, cues: CueWriteJob?) {
    keepsLines = keepingLines
    self.reader = reader
    self.handoff = handoff
    self.cues = cues
    collectsKeys = reader.collectsUnknownKeys
  }

  private enum Work {
    case read, write, stop
  }

  func run() {
    var index = 0
    var reading = true
    while true {
      let work: Work = handoff.signal.locked {
        while true {
          if handoff.isCancelled { return .stop }
          // Cues first: the replay's thread may be waiting to hand over more.
          if let cues, cues.hasWork { return .write }
          if reading && handoff.hasFreeBatch { return .read }
          if !reading && cues?.isDone ?? true { return .stop }
          handoff.signal.wait()
        }
      }
      switch work {
      case .stop:
        return
      case .write:
        cues!.writeNextBatch()
      case .read:
        let batch = handoff.batches[index]
        fill(batch)
        reading = !batch.isLast && batch.failure == nil
        handoff.publish()
        index = (index + 1) % handoff.batches.count
      }
    }
  }

  private func fill(_ batch: Batch) {
    batch.reset()
    while !batch.isFull {
      let item: TraceItem
      do { item = try reader.next() } catch {
        batch.failure = error
        return
      }
      if case .endOfInput = item { batch.isLast = true }
      let note = Note(
        position: reader.position, bytesRead: reader.bytesRead,
        endsWithCarriageReturn: reader.endsWithCarriageReturn)
      batch.append(consume item, line: keepsLines ? reader.unsafeLine : nil, note: note)
      if collectsKeys { batch.keepUnknownKeys(reader.unknownKeys) }
      if batch.isLast { return }
    }
  }
}
