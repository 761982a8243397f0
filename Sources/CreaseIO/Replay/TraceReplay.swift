import Crease

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

  private let makeProcessor: () -> Processor
  private let reorderWindow: Nanoseconds
  private let bufferLimit: Int

  /// A replay that processes events with a fresh `processor()` per run.
  public init(
    reorderWindow: Nanoseconds, bufferLimit: Int = Configuration.default.reorderBufferLimit,
    processor: @escaping () -> Processor
  ) {
    self.reorderWindow = reorderWindow
    self.bufferLimit = bufferLimit
    self.makeProcessor = processor
  }

  /// A replay with the configuration's reorder window and buffer limit.
  public init(configuration: Configuration, processor: @escaping () -> Processor) {
    self.init(
      reorderWindow: configuration.reorderWindow, bufferLimit: configuration.reorderBufferLimit,
      processor: processor)
  }

  /// Replays `sources`, merged by `t`, and returns the summary and the processor's final state.
  ///
  /// - Parameter reopen: opens source `i` again for the next loop; required when `loops` > 1.
  public func run(
    _ sources: [ByteSource], reopen: ((Int) throws -> ByteSource)? = nil, to outputs: Outputs
  ) throws -> (ReplaySummary, Processor) {
    precondition(loops == 1 || reopen != nil, "looping needs a way to reopen the sources")
    var run = Run(replay: self, sources: sources, outputs: outputs)
    run.reopen = reopen
    try run.readAll()
    return (run.summary, run.engine.processor)
  }

  /// Where a source stands in its loops: trace time shifts by a whole span per loop.
  private struct Loop {
    var index = 0
    var offset = Nanoseconds.zero
    /// The earliest and latest `t` of the first pass, which give the span.
    var first: Nanoseconds?
    var last = Nanoseconds.zero
    /// Records read in this pass (a header is valid only as the first).
    var records = 0

    /// The next pass starts one 30 fps frame after this one's span, so looped frames continue
    /// without a gap.
    mutating func advance() {
      index += 1
      let period = (last - (first ?? .zero)) + Nanoseconds(33_333_333)
      // Saturates: a loop past the end of the time range stays at its end.
      let (product, overflow) = Int64(index).multipliedReportingOverflow(by: period.rawValue)
      offset = overflow ? .max : Nanoseconds(product)
      records = 0
    }
  }

  /// The state of one replay.
  private struct Run {
    let replay: TraceReplay
    var readers: [RecordSource]
    let outputs: Outputs
    var reopen: ((Int) throws -> ByteSource)?
    var loopStates: [Loop]
    var cueOutput: LineOutput
    var drained: [Cue] = []
    /// The latest `t` read from any source, and the wall time it was read at (idle advance).
    var latestRead: (t: Nanoseconds, wall: Nanoseconds)?
    /// The latest `t` of any event read, where a paced replay ends without an `end` event.
    var latestEvent: Nanoseconds?
    let parser = TraceParser()
    var engine: Engine<Processor>
    var summary: ReplaySummary
    var reported = 0
    /// The line of each source's `end` event, once read.
    var endLines: [Int?]

    init(replay: TraceReplay, sources: [ByteSource], outputs: Outputs) {
      self.replay = replay
      self.readers = sources.map(RecordSource.init)
      self.outputs = outputs
      self.engine = Engine(
        processor: replay.makeProcessor(), sourceCount: max(1, sources.count),
        reorderWindow: replay.reorderWindow, bufferLimit: replay.bufferLimit)
      self.summary = ReplaySummary(sources: sources.map { ReplaySummary.LineCounts(name: $0.name) })
      self.endLines = Array(repeating: nil, count: sources.count)
      self.loopStates = Array(repeating: Loop(), count: sources.count)
      self.cueOutput = LineOutput(sink: outputs.cues, pacer: replay.pacer)
      parser.collectsUnknownKeys = replay.warnsAboutUnknownKeys
    }

    mutating func readAll() throws {
      defer { summary.pendingTimers = engine.endOfInput?.pendingTimers.count ?? 0 }
      try outputs.cues.write(replay.format.prologue)
      var lines = 0
      while let source = engine.sourceToRead {
        lines += 1
        if let progress = replay.progress, lines % 4096 == 0 {
          try progress.update(done: readers.reduce(0) { $0 + $1.bytesRead })
        }
        guard let keepGoing = try readLine(from: source) else {
          engine.finish(source: source)
          continue
        }
        guard keepGoing else {
          summary.stoppedEarly = true
          engine.stop()
          break
        }
        try writeCues()
      }
      summary.endTime = engine.endOfInput?.endTime
      summary.releasedEarly = engine.releasedEarly
      try writeCues()
      if let last = summary.endTime ?? latestEvent { try cueOutput.finishPacing(at: last) }
      try cueOutput.flush()
      try outputs.cues.write(replay.format.epilogue)
      try replay.progress?.finish()
      summary.pacing = cueOutput.pacer?.accuracy
      try reportTotals()
    }

    /// Reads and handles one line or record of `source`: `nil` at the end of the source,
    /// `false` when `--strict` must stop.
    mutating func readLine(from source: Int) throws -> Bool? {
      switch readers[source] {
      case .lines(let reader):
        if !reader.hasBufferedLine { try waitForInput(from: source) }
        let rejects = outputs.rejects
        guard let line = try reader.next(overflow: { bytes in try rejects?.write(bytes) }) else {
          return try endOfSource(source)
        }
        summary.sources[source].lines += 1
        switch line {
        case .overlong(let length):
          try rejects?.write("\n")
          return try reject(
            source, column: reader.maximumLineLength + 1,
            "line is \(length) bytes long; the longest line read is \(reader.maximumLineLength) bytes",
            raw: nil)
        case .complete(let bytes):
          return try handle(bytes, from: source)
        }
      case .binary(let reader):
        guard let item = try reader.next() else { return try endOfSource(source) }
        summary.sources[source].lines += 1
        switch item {
        case .bad(let message, _):
          return try reject(source, column: reader.recordOffset + 1, message, raw: nil)
        case .record(let record):
          if let endLine = endLines[source] { return try rejectAfterEnd(source, endLine: endLine, raw: nil) }
          return try accept(record, from: source, raw: nil)
        }
      }
    }

    /// The source ran out: `nil`, or `true` when another loop starts it over.
    mutating func endOfSource(_ source: Int) throws -> Bool? {
      guard loopStates[source].index + 1 < replay.loops, let reopen else { return nil }
      readers[source] = RecordSource(try reopen(source))
      loopStates[source].advance()
      return true
    }

    mutating func handle(_ bytes: UnsafeRawBufferPointer, from source: Int) throws -> Bool {
      guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
        summary.sources[source].blank += 1
        return true
      }
      if let endLine = endLines[source] { return try rejectAfterEnd(source, endLine: endLine, raw: bytes) }
      let record: TraceRecord
      do {
        record = try parser.parse(bytes)
      } catch {
        loopStates[source].records += 1
        return try reject(source, column: error.column, error.message, raw: bytes)
      }
      try warnAboutUnknownKeys(source)
      return try accept(record, from: source, raw: bytes)
    }

    /// Takes in a well-formed record; `raw` is its line, when it came from JSON Lines.
    mutating func accept(_ record: TraceRecord, from source: Int, raw: UnsafeRawBufferPointer?) throws -> Bool
    {
      loopStates[source].records += 1
      switch record {
      case .header(let header):
        guard loopStates[source].records == 1 else {
          return try reject(source, column: 1, "a header must be the first record of a trace", raw: raw)
        }
        if loopStates[source].index == 0 { engine.apply(header) }
      case .event(let read):
        let event = shifted(read, source: source)
        if case .end = event.payload, loopStates[source].index + 1 < replay.loops { break }
        noteRead(event.t)
        if latestEvent == nil { cueOutput.startPacing(at: event.t) }
        latestEvent = max(latestEvent ?? event.t, event.t)
        let admission = engine.push(event, from: source)
        if admission == .accepted && replay.format.showsInput {
          let format = replay.format
          try cueOutput.write(at: event.t) { format.encode(input: event, into: &$0) }
        }
        switch admission {
        case .accepted:
          if case .end = event.payload { return try finishAfterEnd(of: source) }
        case .late(let behind):
          return try handleLate(source, behind: behind, event: event, raw: raw)
        case .afterEnd:
          return try reject(source, column: 1, "a record after this trace's 'end' event", raw: raw)
        }
      }
      summary.sources[source].processed += 1
      return true
    }

    mutating func rejectAfterEnd(_ source: Int, endLine: Int, raw: UnsafeRawBufferPointer?) throws -> Bool {
      try reject(source, column: 1, "a line after this trace's 'end' event (line \(endLine))", raw: raw)
    }

    /// The event moved to its loop's trace time (pts too, so frames continue).
    mutating func shifted(_ event: Event, source: Int) -> Event {
      if loopStates[source].index == 0 {
        if loopStates[source].first == nil { loopStates[source].first = event.t }
        loopStates[source].last = max(loopStates[source].last, event.t)
        return event
      }
      let offset = loopStates[source].offset
      var moved = event
      moved.t = event.t + offset
      switch event.payload {
      case .frame(var frame):
        frame.pts = PresentationTime(nanoseconds: (frame.pts.nanoseconds + offset).rawValue)
        moved.payload = .frame(frame)
      case .drop(var drop):
        drop.pts = PresentationTime(nanoseconds: (drop.pts.nanoseconds + offset).rawValue)
        moved.payload = .drop(drop)
      default:
        break
      }
      return moved
    }

    mutating func noteRead(_ t: Nanoseconds) {
      guard replay.idleAdvance != nil, t > (latestRead?.t ?? .min) else { return }
      latestRead = (t, replay.clock.now())
    }

    /// Before a read that may block: flushes the cues so far (a live consumer sees them now)
    /// and, with idle advance, lets trace time follow the wall clock while nothing arrives.
    mutating func waitForInput(from source: Int) throws {
      try cueOutput.flush()
      guard let idle = replay.idleAdvance else { return }
      while try !readers[source].byteSource.waitForInput(timeout: idle, clock: replay.clock) {
        guard let latestRead else { continue }
        engine.advance(to: latestRead.t + (replay.clock.now() - latestRead.wall))
        try writeCues()
        try cueOutput.flush()
      }
    }

    /// Counts an `end` event and reads the rest of its source now (the engine reads no further
    /// from it), rejecting every remaining line; `false` when `--strict` must stop.
    mutating func finishAfterEnd(of source: Int) throws -> Bool {
      summary.sources[source].processed += 1
      endLines[source] = readers[source].position
      while let keepGoing = try readLine(from: source) {
        if !keepGoing { return false }
      }
      return true
    }

    /// Counts a late event and writes it to the late output: its line as read, or, from a
    /// binary trace, its JSON Lines encoding.
    mutating func handleLate(
      _ source: Int, behind: Nanoseconds, event: Event, raw: UnsafeRawBufferPointer?
    ) throws -> Bool {
      summary.sources[source].late += 1
      if let raw {
        try writeVerbatim(raw, from: source, to: outputs.late)
      } else {
        var line: [UInt8] = []
        TraceEncoder.encode(.event(event), into: &line)
        try outputs.late?.write(line)
      }
      let message =
        "late event: \(behind.rawValue) ns behind the latest t of its trace, more than the reorder window"
        + " (\(replay.reorderWindow.rawValue) ns)"
      if replay.strict {
        try diagnose(source, column: 1, "error", message)
        return false
      }
      if replay.warnsAboutLateLines { try diagnose(source, column: 1, "warning", message) }
      return true
    }

    mutating func reject(_ source: Int, column: Int, _ message: String, raw: UnsafeRawBufferPointer?) throws
      -> Bool
    {
      summary.sources[source].rejected += 1
      if let raw {
        try writeVerbatim(raw, from: source, to: outputs.rejects)
      }
      if replay.reportLimit.map({ reported < $0 }) ?? true {
        try diagnose(source, column: column, "error", message)
        reported += 1
      }
      return !replay.strict
    }

    /// Writes a line as it was read, with its own terminator (`\r\n` stays `\r\n`).
    func writeVerbatim(_ raw: UnsafeRawBufferPointer, from source: Int, to sink: ByteSink?) throws {
      guard let sink else { return }
      try sink.write(raw)
      let crlf: Bool
      if case .lines(let reader) = readers[source] {
        crlf = reader.endedWithCarriageReturn
      } else {
        crlf = false
      }
      try sink.write(crlf ? "\r\n" : "\n")
    }

    mutating func warnAboutUnknownKeys(_ source: Int) throws {
      for key in parser.unknownKeys {
        try diagnose(source, column: key.column, "warning", "unknown key '\(key.name)' is ignored")
      }
    }

    func diagnose(_ source: Int, column: Int, _ severity: String, _ message: String) throws {
      let reader = readers[source]
      try outputs.diagnostics.write(
        "\(reader.byteSource.name):\(reader.position):\(column): \(severity): \(message)\n")
    }

    /// Says what the per-line reports left out: bad lines past the limit, and late lines
    /// (never silently dropped, even without `--late`).
    func reportTotals() throws {
      let total = summary.total
      if let limit = replay.reportLimit, total.rejected > limit {
        try outputs.diagnostics.write(
          "crease: \(total.rejected - limit) more bad line(s) not shown; \(total.rejected) rejected in all\n")
      }
      if total.late > 0 && !replay.warnsAboutLateLines && !replay.strict {
        let destination = outputs.late == nil ? "; --late FILE keeps them" : ", written to the late output"
        try outputs.diagnostics.write(
          "crease: \(total.late) late line(s) not processed (more than the reorder window behind)\(destination)\n"
        )
      }
    }

    mutating func writeCues() throws {
      engine.drainCues(into: &drained)
      let format = replay.format
      for cue in drained {
        summary.record(cue, bound: engine.processor.latencyBound(for: cue))
        try cueOutput.write(at: cue.t) { format.encode(cue, into: &$0) }
      }
      drained.removeAll(keepingCapacity: true)
    }
  }
}

/// A source's records: lines of JSON, or records of the binary format (by the `.crtrace`
/// extension of its name).
enum RecordSource {
  case lines(LineReader)
  case binary(BinaryTraceReader)

  init(_ source: ByteSource) {
    self =
      BinaryTraceFormat.isBinary(path: source.name)
      ? .binary(BinaryTraceReader(source: source)) : .lines(LineReader(source: source))
  }

  var byteSource: ByteSource {
    switch self {
    case .lines(let reader): reader.source
    case .binary(let reader): reader.source
    }
  }

  /// The line number, or the record number, of what was read last (`LINE` in diagnostics).
  var position: Int {
    switch self {
    case .lines(let reader): reader.lineNumber
    case .binary(let reader): reader.recordNumber
    }
  }

  var bytesRead: Int {
    switch self {
    case .lines(let reader): reader.bytesRead
    case .binary(let reader): reader.bytesRead
    }
  }
}
