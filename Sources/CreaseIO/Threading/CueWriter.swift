import Crease

/// Formats, counts and writes cues on another thread than the replay's, so that the replay's
/// own thread only processes events: on a thread of its own, or taking turns with other work on
/// a shared one (``JobThread``).
///
/// The replay hands over cues in batches, each with the latency bound that applied when it
/// was made (a stall's bound follows its stream's nominal rate, which can change, so it is
/// asked at once), in the order it drained them; the writing thread records each in a summary
/// of its own and writes it, in that order, exactly as the replay would have. Its output is the
/// same bytes. An error writing stops the writing, and the next hand-over, or ``finish()``,
/// throws it.
final class CueWriter: CueSink {
  /// Cues per batch: enough that a hand-over costs nothing per cue.
  static let batchSize = 1024
  /// The bytes of text past which a batch is handed over however few its cues: with
  /// ``batchCount`` batches, the cues in flight carry at most a few MiB of labels and names.
  static let batchTextBytes = 1 << 20
  static let batchCount = 4

  private let handoff: BatchHandoff<CueBatch>
  /// The work, for the thread that does it.
  private let job: CueWriteJob
  /// The thread the writing runs on.
  private var thread: JobThread?
  /// The batch being filled, and its place among the batches.
  private var batch: CueBatch?
  private var batchIndex = 0
  /// Whether the summary counts the cues, which then need their bounds.
  private let countsCues: Bool

  /// A writer to `output` in `format` (not Chrome, whose timeline the replay's own thread adds
  /// to), counting every cue in its summary when `countsCues`, on `thread` or, without one, on
  /// a thread of its own. Its job is added to the thread now, ahead of any added later: the
  /// replay waits when every batch is full.
  init(
    output: LineOutput, format: CueFormat, filter: CueFilter, countsCues: Bool,
    on thread: JobThread = JobThread(named: "cue writer")
  )
    throws(IOError)
  {
    precondition(format != .chrome, "the Chrome timeline is written on the replay's thread")
    handoff = BatchHandoff(
      batches: (0..<Self.batchCount).map { _ in CueBatch(capacity: Self.batchSize) },
      signal: thread.signal)
    job = CueWriteJob(
      output: output, format: format, filter: filter, countsCues: countsCues, handoff: handoff)
    self.countsCues = countsCues
    try thread.add(job)
    self.thread = thread
  }

  deinit {
    handoff.cancel()
  }

  /// Moves the cues `engine` has produced to the batch being filled, each with its latency
  /// bound asked now when the summary counts them. Hands the batch over when it is full, or
  /// first when the cues would not fit in it.
  func write<Processor>(cuesOf engine: inout Engine<Processor>) throws {
    if let batch, batch.count > 0, batch.room < engine.cueCount { handOver() }
    if batch == nil { try takeFreeBatch() }
    // The batch is lent without a retain: the handoff holds every batch for the writer's life,
    // and nothing here lets go of it. Called through the optional, it was retained and released
    // around the engine's drain for every event with cues (callgrind: binary's replay thread
    // 10 instructions an event).
    let full = Unmanaged.passUnretained(batch!)._withUnsafeGuaranteedRef { filling in
      filling.append(cuesOf: &engine, askingBounds: countsCues)
      return filling.count >= Self.batchSize || filling.textBytes >= Self.batchTextBytes
    }
    if full { handOver() }
  }

  /// Hands the last cues over, waits for all of them to be written and flushed, and returns
  /// their statistics. Never paced (``ReplayPlan``): `end` changes nothing.
  func finish(at end: Nanoseconds?) throws -> ReplaySummary {
    if batch == nil { try takeFreeBatch() }
    batch!.isLast = true
    handOver()
    job.waitUntilDone()
    // The thread ends once nothing else shares it.
    thread = nil
    if let failure = job.failure { throw failure }
    return job.summary
  }

  // Nothing comes before the first cue, the output is not paced, and the writing thread flushes
  // at the end: a replay writing behind never waits for its input (``ReplayPlan``).
  func begin() {}
  func start(at t: Nanoseconds) {}
  func flush() {}
  static var notesEvents: Bool { false }

  @inline(__always) func note(_ event: borrowing Event, from source: Int) {}

  private func takeFreeBatch() throws {
    guard handoff.waitForFreeBatch() else { throw job.failure! }
    batch = handoff.batches[batchIndex]
  }

  private func handOver() {
    batch = nil
    handoff.publish()
    batchIndex = (batchIndex + 1) % Self.batchCount
  }
}

/// The writing: its state, and the steps a thread takes to do it. Its output, summary and
/// failure are read by the replay's thread only once it is done.
private final class CueWriteJob: ThreadJob, @unchecked Sendable {
  private var output: LineOutput
  let format: CueFormat
  let filter: CueFilter
  let countsCues: Bool
  private let handoff: BatchHandoff<CueBatch>
  private(set) var summary = ReplaySummary(sources: [])
  private(set) var failure: (any Error)?
  /// Set, under the signal's lock, once the last batch is written or writing failed.
  private var done = false
  private var index = 0

  init(
    output: LineOutput, format: CueFormat, filter: CueFilter, countsCues: Bool,
    handoff: BatchHandoff<CueBatch>
  ) {
    self.output = output
    self.format = format
    self.filter = filter
    self.countsCues = countsCues
    self.handoff = handoff
  }

  /// Whether a batch waits to be written; only inside the signal's lock.
  var hasWork: Bool { !isDone && handoff.hasReadyBatch }
  /// Whether nothing is left to write; only inside the signal's lock.
  private var isDone: Bool { done || handoff.isCancelled }

  /// Writes the next published batch and gives it back.
  func step() {
    let batch = handoff.batches[index]
    let isLast = batch.isLast
    do {
      try Self.write(
        batch, in: format, filter: filter, to: &output, counting: &summary, countsCues: countsCues)
      if isLast { try output.flush() }
    } catch {
      failure = error
      finish()
      handoff.cancel()
      return
    }
    batch.removeAll()
    index = (index + 1) % handoff.batches.count
    handoff.release()
    if isLast { finish() }
  }

  /// Writes the cues of `batch`, and counts them in `summary` when `countsCues`. The output
  /// and the summary come in as `inout` arguments, checked once a batch. Tuning: inout-state.
  private static func write(
    _ batch: CueBatch, in format: CueFormat, filter: CueFilter, to output: inout LineOutput,
    counting summary: inout ReplaySummary, countsCues: Bool
  ) throws {
    while let (cue, bound) = batch.takeFirst() {
      if countsCues { summary.record(cue, bound: bound) }
      if filter.writes(cue.kind.tag) { try output.write(cue, in: format) }
      // Ended a payload at a time, not destroyed whole. Tuning: owned-parts.
      cue.kind.end()
    }
  }

  /// The replay's thread: waits until the last batch is written, or writing failed.
  func waitUntilDone() {
    handoff.signal.locked {
      while !isDone { handoff.signal.wait() }
    }
  }

  private func finish() {
    handoff.signal.locked {
      done = true
      handoff.signal.broadcast()
    }
  }
}
