import Crease
import Glibc

/// Formats, counts and writes cues on a thread of its own, so a replay's own thread only
/// processes events: the third stage of a replay over threads, after ``ReadAheadReader``.
///
/// The replay hands over cues in batches, each with the latency bound that applied when it
/// was made (a stall's bound follows its stream's nominal rate, which can change, so it is
/// asked at once), in the order it drained them; the thread records each in a summary of its
/// own and writes it, in that order, exactly as the replay would have. Its output is the same
/// bytes. An error writing stops the thread, and the next hand-over, or ``finish()``, throws it.
final class CueWriterThread {
  /// Cues per batch: enough that a hand-over costs nothing per cue.
  static let batchSize = 1024
  static let batchCount = 4

  private let handoff: BatchHandoff<Batch>
  private let worker: Worker
  private var thread: pthread_t?
  /// The batch being filled, and its place among the batches.
  private var batch: Batch?
  private var batchIndex = 0

  /// Starts a thread writing to `output` in `format` (not Chrome, whose timeline the replay's
  /// own thread adds to).
  init(output: LineOutput, format: CueFormat) {
    precondition(format != .chrome, "the Chrome timeline is written on the replay's thread")
    handoff = BatchHandoff(batches: (0..<Self.batchCount).map { _ in Batch() })
    worker = Worker(output: output, format: format, handoff: handoff)
    let worker = worker
    thread = startThread(named: "cue writer") { worker.run() }
  }

  deinit {
    guard let thread else { return }
    handoff.cancel()
    pthread_join(thread, nil)
  }

  /// Adds `cue`, made under `bound`, to the batch being filled; hands the batch over when it
  /// is full.
  func write(_ cue: Cue, bound: Nanoseconds?) throws {
    if batch == nil { try takeFreeBatch() }
    batch!.cues.append(cue)
    batch!.bounds.append(bound)
    if batch!.cues.count == Self.batchSize { handOver() }
  }

  /// Hands the last cues over, waits for all of them to be written and flushed, and returns the
  /// output and the cues' summary.
  func finish() throws -> (output: LineOutput, summary: ReplaySummary) {
    if batch == nil { try takeFreeBatch() }
    batch!.isLast = true
    handOver()
    pthread_join(thread!, nil)
    thread = nil
    if let failure = worker.failure { throw failure }
    return (worker.output, worker.summary)
  }

  private func takeFreeBatch() throws {
    guard handoff.waitForFreeBatch() else { throw worker.failure! }
    batch = handoff.batches[batchIndex]
  }

  private func handOver() {
    batch = nil
    handoff.publish()
    batchIndex = (batchIndex + 1) % Self.batchCount
  }
}

/// Cues and their bounds; the arrays keep their storage from one use to the next.
private final class Batch: @unchecked Sendable {
  var cues: [Cue] = []
  var bounds: [Nanoseconds?] = []
  var isLast = false

  init() {
    cues.reserveCapacity(CueWriterThread.batchSize)
    bounds.reserveCapacity(CueWriterThread.batchSize)
  }
}

/// The writing thread's work and state. Its output and summary are read by the replay's thread
/// only after joining it.
private final class Worker: @unchecked Sendable {
  var output: LineOutput
  let format: CueFormat
  let handoff: BatchHandoff<Batch>
  var summary = ReplaySummary(sources: [])
  var failure: (any Error)?

  init(output: LineOutput, format: CueFormat, handoff: BatchHandoff<Batch>) {
    self.output = output
    self.format = format
    self.handoff = handoff
  }

  func run() {
    var index = 0
    while handoff.waitForBatch() {
      let batch = handoff.batches[index]
      let isLast = batch.isLast
      do {
        for (cue, bound) in zip(batch.cues, batch.bounds) {
          summary.record(cue, bound: bound)
          try output.write(cue, in: format)
        }
        if isLast { try output.flush() }
      } catch {
        failure = error
        handoff.cancel()
        return
      }
      batch.cues.removeAll(keepingCapacity: true)
      batch.bounds.removeAll(keepingCapacity: true)
      batch.isLast = false
      handoff.release()
      if isLast { return }
      index = (index + 1) % handoff.batches.count
    }
  }
}
