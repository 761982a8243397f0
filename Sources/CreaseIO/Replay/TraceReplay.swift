import Crease
import CreaseRecording

/// Reads traces, runs them through the engine and writes cues: the work of `crease replay`,
/// `check` and `stats`, without a process around it.
///
/// Bad lines are reported as `FILE:LINE:COL: error: MESSAGE` and skipped (SPEC 7); late lines
/// go to the late output; every line is counted once in the ``ReplaySummary``.
public struct TraceReplay<Processor: EventProcessor & Sendable> {
  /// Where a replay's byproducts go.
  public struct Outputs {
    /// Cues, in the chosen format.
    public var cues: ByteSink
    /// Diagnostics: bad lines, warnings.
    public var diagnostics: ByteSink
    /// Rejected lines, verbatim, one per line.
    public var rejects: ByteSink?
    /// Late lines, verbatim, one per line.
    public var late: ByteSink?

    public init(cues: ByteSink, diagnostics: ByteSink, rejects: ByteSink? = nil, late: ByteSink? = nil) {
      self.cues = cues
      self.diagnostics = diagnostics
      self.rejects = rejects
      self.late = late
    }
  }

  /// Stop at the first bad or late line (`--strict`).
  public var strict = false
  /// How many bad lines to report before only counting them; `nil` reports all (`check`).
  public var reportLimit: Int? = 20
  /// Warn about keys the format does not define (`check`).
  public var warnsAboutUnknownKeys = false
  /// Warn about each late line, besides counting it (`check`).
  public var warnsAboutLateLines = false
  /// The cue output format.
  public var format = CueFormat.jsonl
  /// Writes each cue when its trace time comes (`--speed`); `nil` writes as fast as possible.
  public var pacer: Pacer?
  /// How many times to replay the input (`--loop`); trace time continues across loops.
  public var loops = 1
  /// Lets trace time follow the wall clock while the input is quiet for this long
  /// (`--idle-advance`), so timers fire on time for a live source.
  public var idleAdvance: Nanoseconds?
  /// The wall clock idle advance follows.
  public var clock: WallClock = SystemClock()
  /// Shows how far through the input the replay is, on a terminal.
  public var progress: ProgressReporter?
  /// The most threads the replay runs on (at least 1). With 2, a helper thread reads and parses
  /// the trace (``ReadAheadReader``) while this one processes the events, and formats and writes
  /// the cues (``CueWriter``) where it has the time; without a reading thread, the cue writer
  /// gets the helper thread to itself. More than 2 adds nothing: the machine this is measured on
  /// has two cores, and a third thread measured slower. The output is the same bytes either way.
  /// One thread is right when several replays share the cores already.
  ///
  /// Each helper is taken only where it is safe and pays, for input that never waits for a
  /// writer (a live replay keeps to one thread, flushing as it goes): reading ahead for one
  /// source without a rejects output (an overlong line is streamed there by the reader, as it
  /// reads); writing cues unpaced, in a line format, to a cue output no other output shares, and
  /// by the reading thread only for binary input (parsing JSON keeps that thread busy) and a
  /// single pass. Docs/Decisions.md, "Worker threads", has the numbers.
  public var maximumThreads = 1

  private let makeProcessor: () -> Processor
  private let reorderWindow: Nanoseconds
  private let bufferLimit: Int
  private let bufferBytes: Int

  /// A replay that processes events with a fresh `processor()` per run.
  public init(
    reorderWindow: Nanoseconds, bufferLimit: Int = Configuration.default.reorderBufferLimit,
    bufferBytes: Int = Configuration.default.reorderBufferBytes, processor: @escaping () -> Processor
  ) {
    self.reorderWindow = reorderWindow
    self.bufferLimit = bufferLimit
    self.bufferBytes = bufferBytes
    self.makeProcessor = processor
  }

  /// A replay with the configuration's reorder window and buffer limits.
  public init(configuration: Configuration, processor: @escaping () -> Processor) {
    self.init(
      reorderWindow: configuration.reorderWindow, bufferLimit: configuration.reorderBufferLimit,
      bufferBytes: configuration.reorderBufferBytes, processor: processor)
  }

  /// Replays `sources`, merged by `t`, and returns the summary and the processor's final state.
  ///
  /// - Parameter reopen: opens source `i` again for the next loop; required when `loops` > 1.
  // Specialized here for the pipeline `crease` runs: a client's build without cross-module
  // optimization (any app's, `swift build -c release`'s) would otherwise call the generic code.
  @_specialize(exported:true,where Processor == Pipeline)
  public func run(
    _ sources: [ByteSource], reopen: ((Int) throws -> ByteSource)? = nil, to outputs: Outputs
  ) throws -> (ReplaySummary, Processor) {
    precondition(loops == 1 || reopen != nil, "looping needs a way to reopen the sources")
    var run = try Run(replay: self, sources: sources, outputs: outputs)
    run.reopen = reopen
    try run.readAll()
    return (run.summary, run.engine.processor)
  }

  /// What the replay does after one item.
  private enum Step {
    /// Read on.
    case next
    /// The source has no more items: the engine is told it finished.
    case sourceEnded
    /// The source starts its next pass (`--loop`), with a new ``ReplaySource``.
    case reopened
    /// `--strict` met a bad or late line: stop here.
    case stop
  }

  /// The state of one replay.
  private struct Run {
    let replay: TraceReplay
    var sources: [ReplaySource]
    let outputs: Outputs
    var reopen: ((Int) throws -> ByteSource)?
    var cueOutput: LineOutput
    /// The cues drained, on their way to the output when this thread writes them.
    let staged = CueBatch(capacity: CueWriter.batchSize)
    /// Writes the cues on a helper thread, when the replay has one for them; it has the cue
    /// output until the end.
    var cueWriter: CueWriter?
    /// The chrome format's state across cues; `nil` for the line formats.
    let chrome: ChromeTimeline?
    /// The latest `t` read from any source, and the wall time it was read at (idle advance).
    var latestRead: (t: Nanoseconds, wall: Nanoseconds)?
    /// The latest `t` of any event read, where a paced replay ends without an `end` event.
    var latestEvent: Nanoseconds?
    /// The first `t` read, from which progress counts trace time.
    var firstEvent: Nanoseconds?
    var engine: Engine<Processor>
    /// Whether the events the engine accepts are taken by a loop of their own, straight from a
    /// reading-ahead source's batch (``takeEvents(from:_:)``) or from the one source's reader
    /// (``takeEvents(from:)``): not when each line needs more than counting and admitting (a
    /// Chrome timeline, a looping replay's time shift, progress, unknown keys).
    let takesEventsDirectly: Bool
    var summary: ReplaySummary
    var diagnostics: Diagnostics

    init(replay: TraceReplay, sources: [ByteSource], outputs: Outputs) throws(IOError) {
      var replay = replay
      // A system that gives no thread now (`RLIMIT_NPROC` reached) gets a replay on this one.
      if replay.maximumThreads >= 2 && !WorkerThread.canStart { replay.maximumThreads = 1 }
      self.replay = replay
      self.outputs = outputs
      self.sources = []
      self.engine = Engine(
        processor: replay.makeProcessor(), sourceCount: max(1, sources.count),
        reorderWindow: replay.reorderWindow, bufferLimit: replay.bufferLimit, bufferBytes: replay.bufferBytes)
      self.summary = ReplaySummary(sources: [])
      self.cueOutput = LineOutput(sink: outputs.cues, pacer: replay.pacer)
      self.chrome = replay.format == .chrome ? ChromeTimeline(sourceNames: sources.map(\.name)) : nil
      self.takesEventsDirectly =
        replay.format != .chrome && replay.loops == 1 && replay.progress == nil
        && !replay.warnsAboutUnknownKeys
      self.diagnostics = Diagnostics(
        sink: outputs.diagnostics, rejects: outputs.rejects, late: outputs.late, limit: replay.reportLimit)
      let oneQuietSource = sources.count == 1 && !sources[0].isLive
      self.sources = sources.enumerated().map { index, source in
        ReplaySource(
          index: index,
          reader: Self.openReader(source, replay: replay, outputs: outputs, oneQuietSource: oneQuietSource),
          isLive: source.isLive, loop: LoopShift(), counts: ReplaySummary.LineCounts(name: source.name))
      }
      let isLive = self.sources.map(\.isLive)
      let readers = self.sources.map(\.reader)
      let cuesHaveTheirOwnSink = [outputs.diagnostics, outputs.rejects, outputs.late].allSatisfy {
        $0 !== outputs.cues
      }
      let writesBehind =
        replay.maximumThreads >= 2 && !isLive.contains(true) && replay.pacer == nil && chrome == nil
        && cuesHaveTheirOwnSink
      if writesBehind, replay.loops == 1, let reader = readers.first as? ReadAheadReader,
        sources.allSatisfy(RecordReaders.isBinary)
      {
        // Decoding binary leaves the reading thread time to write the cues too (a third thread,
        // on two cores, measured slower). Parsing JSON does not: its cues are written here. With
        // `--loop` the reading thread ends with each pass, so the cues are written here too.
        cueWriter = try CueWriter(output: cueOutput, format: replay.format, host: reader)
      } else if writesBehind, !(readers.first is ReadAheadReader) {
        cueWriter = try CueWriter(output: cueOutput, format: replay.format)
      }
    }

    static func openReader(
      _ source: ByteSource, replay: TraceReplay, outputs: Outputs, oneQuietSource: Bool
    ) -> any RecordReader {
      let reader = RecordReaders.open(source, overflow: outputs.rejects)
      reader.collectsUnknownKeys = replay.warnsAboutUnknownKeys
      let readsAhead = replay.maximumThreads >= 2 && oneQuietSource && outputs.rejects == nil
      return readsAhead ? ReadAheadReader(reader, keepingLines: outputs.late != nil) : reader
    }

    mutating func readAll() throws {
      defer { summary.pendingTimers = engine.endOfInput?.pendingTimers.count ?? 0 }
      if chrome != nil { try outputs.cues.write(ChromeTimeline.prologue) }
      var items = 0
      reading: while let index = engine.sourceToRead {
        // Taken once for as long as the engine reads from it: taking it from the array for
        // each line retained and released it, 40 instructions a line.
        let source = sources[index]
        repeat {
          // An item the one-thread loop read and left to be handled here.
          var readFirst: TraceItem?
          if takesEventsDirectly {
            if let readAhead = source.readAhead {
              try takeEvents(from: source, readAhead)
            } else if sources.count == 1, !source.isLive {
              readFirst = try takeEvents(from: source)
            }
          }
          items += 1
          // A paced replay reports trace time with every line (the reporter redraws at most
          // four times a second); one as fast as possible checks every 4,096 lines.
          if let progress = replay.progress, replay.pacer != nil || items % 4096 == 0 {
            let traceTime = (latestEvent ?? .zero) - (firstEvent ?? .zero)
            try progress.update(done: sources.reduce(0) { $0 + $1.reader.bytesRead }, traceTime: traceTime)
          }
          let step = try readFirst.map { try handle($0, from: source) } ?? step(source)
          switch step {
          case .next:
            // Asked inline: most lines leave no cue, and the call alone cost more than the test.
            if engine.hasCues { try writeCues() }
          case .reopened:
            continue reading
          case .sourceEnded:
            engine.finish(source: index)
            try writeCues()
            continue reading
          case .stop:
            summary.stoppedEarly = true
            engine.stop()
            try writeCues()
            break reading
          }
        } while engine.sourceToRead == index
      }
      summary.sources = sources.map(\.counts)
      summary.endTime = engine.endOfInput?.endTime
      summary.releasedEarly = engine.releasedEarly
      try writeCues()
      if let cueWriter {
        let written = try cueWriter.finish()
        cueOutput = written.output
        summary.takeCues(of: written.summary)
      }
      if let last = summary.endTime ?? latestEvent { try cueOutput.finishPacing(at: last) }
      try cueOutput.flush()
      if let chrome { try outputs.cues.write(chrome.epilogue()) }
      try replay.progress?.finish()
      summary.pacing = cueOutput.pacer?.accuracy
      try reportTotals()
    }

    /// Takes the events `readAhead` has ready for as long as the engine accepts them, straight
    /// from its batch: what ``step(_:)`` does with such an event, without wrapping it in an item
    /// and unwrapping it again (115 instructions an event less on this thread). Whatever else
    /// comes (a header, a bad or blank line, a late event, `end`, the batch's end) is left to
    /// ``step(_:)``.
    @inline(never)
    mutating func takeEvents(from source: ReplaySource, _ readAhead: ReadAheadReader) throws {
      // Counted here and added once: the counts live in a class, written back for each event.
      var taken = 0
      defer { source.countProcessedEvents(taken) }
      while let t = readAhead.nextEventTime, engine.refusal(at: t, isEnd: false, from: source.index) == nil {
        let event = readAhead.takeEvent()
        taken &+= 1
        noteRead(t)
        engine.admit(consume event, from: source.index, isEnd: false)
        if engine.hasCues { try writeCues() }
      }
    }

    /// Reads `source`, which is the only one and never waits, for as long as it gives events
    /// the engine accepts, and admits each as ``step(_:)`` would, without its checks for what
    /// this replay cannot meet (a live source, another source to read, a looping shift, a
    /// header). Returns the first other item it read (a header, a bad or blank line, a late
    /// event, `end`, the end of input), which ``handle(_:from:)`` takes. The path of a source not
    /// read ahead: with one thread, as `crease batch` replays each trace, or a rejects output.
    @inline(never)
    mutating func takeEvents(from source: ReplaySource) throws -> TraceItem {
      var taken = 0
      defer { source.countProcessedEvents(taken) }
      while true {
        let item = try source.reader.next()
        // Looked at in place first, then moved apart once known to be an event: matching and
        // binding in one go copied the item (a value-witness call, 44 instructions an event).
        guard let t = item.eventTime, engine.refusal(at: t, isEnd: false, from: source.index) == nil else {
          return item
        }
        guard case .record(.event(let event)) = consume item else { preconditionFailure("not an event") }
        taken &+= 1
        noteRead(t)
        engine.admit(consume event, from: source.index, isEnd: false)
        if engine.hasCues { try writeCues() }
      }
    }

    /// Reads and handles one item of `source`.
    mutating func step(_ source: ReplaySource) throws -> Step {
      if source.isLive && !source.reader.hasBufferedItem { try waitForInput(from: source) }
      return try handle(try source.readAhead?.next() ?? source.reader.next(), from: source)
    }

    /// Handles `item`, which `source` returned last.
    mutating func handle(_ item: consuming TraceItem, from source: ReplaySource) throws -> Step {
      if case .endOfInput = item { return try endOfSource(source) }
      source.counts.lines += 1
      switch consume item {
      case .endOfInput:
        return try endOfSource(source)  // handled above, before the line is counted
      case .blank:
        source.counts.blank += 1
        return .next
      case .bad(let column, let message):
        source.loop.records += 1
        return try reject(source, column: column, message)
      case .record(let record):
        if replay.warnsAboutUnknownKeys { try warnAboutUnknownKeys(source) }
        return try accept(record, from: source)
      }
    }

    /// The source ran out: it ended, or another loop starts it over.
    mutating func endOfSource(_ source: ReplaySource) throws -> Step {
      guard source.loop.pass + 1 < replay.loops, let reopen else { return .sourceEnded }
      let reader = Self.openReader(
        try reopen(source.index), replay: replay, outputs: outputs,
        oneQuietSource: sources.count == 1 && !source.isLive)
      var loop = source.loop
      loop.nextPass()
      sources[source.index] = ReplaySource(
        index: source.index, reader: reader, isLive: source.isLive, loop: loop, counts: source.counts)
      return .reopened
    }

    /// Takes in a well-formed record, the item `source` returned last. Inlined into `step`: a
    /// call of its own, with its frame, cost 18 instructions a line.
    @inline(__always)
    mutating func accept(_ record: consuming TraceRecord, from source: ReplaySource) throws -> Step {
      source.loop.records += 1
      switch consume record {
      case .header(let header):
        guard source.loop.records == 1 else {
          return try reject(source, column: 1, "a header must be the first record of a trace")
        }
        if source.loop.pass == 0 { engine.apply(header) }
      case .event(let read):
        // Only a looping replay measures and shifts trace time.
        let event = replay.loops > 1 ? source.loop.shift(read) : read
        if case .end = event.payload, source.loop.pass + 1 < replay.loops { break }
        noteRead(event.t)
        let isEnd: Bool
        if case .end = event.payload { isEnd = true } else { isEnd = false }
        switch engine.refusal(at: event.t, isEnd: isEnd, from: source.index) {
        case .late(let behind):
          _ = engine.push(event, from: source.index)  // the engine counts its source as having reached t
          return try handleLate(source, behind: behind, event: event)
        case .afterEnd:
          return try reject(source, column: 1, "a record after this trace's 'end' event")
        case .accepted, nil:
          if let chrome {
            try cueOutput.write(at: event.t) { chrome.note(event, from: source.index, into: &$0) }
          }
          // Asked first, so the event is handed over without a copy or a second check.
          engine.admit(consume event, from: source.index, isEnd: isEnd)
          if isEnd {
            source.counts.processed += 1
            return try rejectRest(of: source)
          }
        }
      }
      source.counts.processed += 1
      return .next
    }

    /// After a source's `end` event the engine reads no further from it: every line left is
    /// read now and rejected (blank lines stay blank).
    mutating func rejectRest(of source: ReplaySource) throws -> Step {
      let endLine = source.reader.position
      while true {
        switch try source.reader.next() {
        case .endOfInput:
          return .next
        case .blank:
          source.counts.lines += 1
          source.counts.blank += 1
          continue
        case .bad, .record: break
        }
        source.counts.lines += 1
        let message = "a line after this trace's 'end' event (line \(endLine))"
        if try reject(source, column: 1, message) == .stop { return .stop }
      }
    }

    mutating func noteRead(_ t: Nanoseconds) {
      if latestEvent == nil {
        cueOutput.startPacing(at: t)
        firstEvent = t
      }
      latestEvent = max(latestEvent ?? t, t)
      guard replay.idleAdvance != nil, t > (latestRead?.t ?? .min) else { return }
      latestRead = (t, replay.clock.now())
    }

    /// Before a read that may block: flushes the cues so far (a live consumer sees them now)
    /// and, with idle advance, lets trace time follow the wall clock while nothing arrives.
    mutating func waitForInput(from source: ReplaySource) throws {
      try cueOutput.flush()
      guard let idle = replay.idleAdvance else { return }
      while try !source.reader.source.waitForInput(timeout: idle, clock: replay.clock) {
        guard let latestRead else { continue }
        engine.advance(to: latestRead.t + (replay.clock.now() - latestRead.wall))
        try writeCues()
        try cueOutput.flush()
      }
    }

    /// Counts a late event and writes it to the late output: its line as read, or, from a
    /// binary trace, its JSON Lines encoding.
    mutating func handleLate(
      _ source: ReplaySource, behind: Nanoseconds, event: Event
    ) throws -> Step {
      source.counts.late += 1
      if source.reader.line != nil {
        try diagnostics.copyLine(of: source.reader, to: outputs.late)
      } else if let late = outputs.late {
        var line: [UInt8] = []
        TraceEncoder.encode(.event(event), into: &line)
        try late.write(line)
      }
      let message =
        "late event: \(behind.rawValue) ns behind the latest t of its trace, more than the reorder window"
        + " (\(replay.reorderWindow.rawValue) ns)"
      if replay.strict {
        try diagnostics.report(source.reader, column: 1, "error", message)
        return .stop
      }
      if replay.warnsAboutLateLines { try diagnostics.report(source.reader, column: 1, "warning", message) }
      return .next
    }

    mutating func reject(_ source: ReplaySource, column: Int, _ message: String) throws -> Step {
      source.counts.rejected += 1
      try diagnostics.reject(source.reader, column: column, message)
      return replay.strict ? .stop : .next
    }

    func warnAboutUnknownKeys(_ source: ReplaySource) throws {
      for key in source.reader.unknownKeys {
        try diagnostics.report(
          source.reader, column: key.column, "warning", "unknown key '\(key.name)' is ignored")
      }
    }

    /// Says what the per-line reports left out: bad lines past the limit, and late lines
    /// (never silently dropped, even without `--late`).
    func reportTotals() throws {
      let total = summary.total
      try diagnostics.reportUnshown(rejected: total.rejected)
      if total.late > 0 && !replay.warnsAboutLateLines && !replay.strict {
        let destination = outputs.late == nil ? "; --late FILE keeps them" : ", written to the late output"
        try outputs.diagnostics.write(
          "crease: \(total.late) late line(s) not processed (more than the reorder window behind)\(destination)\n"
        )
      }
    }

    /// Writes the cues the engine produced, and resumes the work it deferred at its cue limit,
    /// writing those cues too, until none is left.
    mutating func writeCues() throws {
      while engine.hasCues {
        try writeDrainedCues()
        engine.resume()
      }
    }

    private mutating func writeDrainedCues() throws {
      // Asked through the optional, not bound: a bound writer was retained and released for
      // every hand-over (callgrind: 40 instructions).
      if cueWriter != nil {
        try cueWriter?.write(cuesOf: &engine)
        return
      }
      // Moved to a batch with their bounds, asked now (a stall's bound follows its stream's
      // nominal rate, which may change), and written from there, in order.
      let staged = staged
      staged.append(cuesOf: &engine)
      defer { staged.removeAll() }
      while let (cue, bound) = staged.takeFirst() {
        summary.record(cue, bound: bound)
        if let chrome {
          try cueOutput.write(at: cue.t) { chrome.encode(cue, into: &$0) }
        } else {
          try cueOutput.write(cue, in: replay.format)
        }
      }
    }
  }
}
