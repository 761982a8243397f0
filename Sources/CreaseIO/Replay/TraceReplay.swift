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

  private let makeProcessor: () -> Processor
  private let reorderWindow: Nanoseconds

  /// A replay that processes events with a fresh `processor()` per run.
  public init(reorderWindow: Nanoseconds, processor: @escaping () -> Processor) {
    self.reorderWindow = reorderWindow
    self.makeProcessor = processor
  }

  /// Replays `sources`, merged by `t`, and returns the summary and the processor's final state.
  public func run(_ sources: [ByteSource], to outputs: Outputs) throws -> (ReplaySummary, Processor) {
    var run = Run(replay: self, sources: sources, outputs: outputs)
    try run.readAll()
    return (run.summary, run.engine.processor)
  }

  /// The state of one replay.
  private struct Run {
    let replay: TraceReplay
    let readers: [LineReader]
    let outputs: Outputs
    let parser = TraceParser()
    var engine: Engine<Processor>
    var summary: ReplaySummary
    var reported = 0
    var encoded: [UInt8] = []
    /// The line of each source's `end` event, once read.
    var endLines: [Int?]

    init(replay: TraceReplay, sources: [ByteSource], outputs: Outputs) {
      self.replay = replay
      self.readers = sources.map { LineReader(source: $0) }
      self.outputs = outputs
      self.engine = Engine(
        processor: replay.makeProcessor(), sourceCount: max(1, sources.count),
        reorderWindow: replay.reorderWindow)
      self.summary = ReplaySummary(sources: sources.map { ReplaySummary.LineCounts(name: $0.name) })
      self.endLines = Array(repeating: nil, count: sources.count)
      parser.collectsUnknownKeys = replay.warnsAboutUnknownKeys
      encoded.reserveCapacity(1 << 16)
    }

    mutating func readAll() throws {
      defer { summary.pendingTimers = engine.endOfInput?.pendingTimers.count ?? 0 }
      while let source = engine.sourceToRead {
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
      try writeCues()
      try reportTotals()
    }

    /// Reads and handles one line of `source`: `nil` at the end of the source, `false` when
    /// `--strict` must stop.
    mutating func readLine(from source: Int) throws -> Bool? {
      let reader = readers[source]
      let rejects = outputs.rejects
      guard let line = try reader.next(overflow: { bytes in try rejects?.write(bytes) }) else { return nil }
      summary.sources[source].lines += 1
      switch line {
      case .overlong(let length):
        try rejects?.write("\n")
        return try reject(
          source, column: reader.maximumLineLength + 1,
          "line is \(length) bytes long; the longest line read is \(reader.maximumLineLength) bytes", raw: nil
        )
      case .complete(let bytes):
        return try handle(bytes, from: source)
      }
    }

    mutating func handle(_ bytes: UnsafeRawBufferPointer, from source: Int) throws -> Bool {
      guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
        summary.sources[source].blank += 1
        return true
      }
      if let endLine = endLines[source] {
        return try reject(
          source, column: 1, "a line after this trace's 'end' event (line \(endLine))", raw: bytes)
      }
      let isFirstRecord = summary.sources[source].lines - summary.sources[source].blank == 1
      let record: TraceRecord
      do {
        record = try parser.parse(bytes)
      } catch {
        return try reject(source, column: error.column, error.message, raw: bytes)
      }
      try warnAboutUnknownKeys(source)
      switch record {
      case .header(let header):
        guard isFirstRecord else {
          return try reject(source, column: 1, "a header must be the first line of a trace", raw: bytes)
        }
        engine.apply(header)
      case .event(let event):
        switch engine.push(event, from: source) {
        case .accepted:
          if case .end = event.payload { return try finishAfterEnd(of: source) }
        case .late(let behind):
          return try handleLate(source, behind: behind, raw: bytes)
        case .afterEnd:
          return try reject(source, column: 1, "a line after this trace's 'end' event", raw: bytes)
        }
      }
      summary.sources[source].processed += 1
      return true
    }

    /// Counts an `end` event and reads the rest of its source now (the engine reads no further
    /// from it), rejecting every remaining line; `false` when `--strict` must stop.
    mutating func finishAfterEnd(of source: Int) throws -> Bool {
      summary.sources[source].processed += 1
      endLines[source] = readers[source].lineNumber
      while let keepGoing = try readLine(from: source) {
        if !keepGoing { return false }
      }
      return true
    }

    mutating func handleLate(_ source: Int, behind: Nanoseconds, raw: UnsafeRawBufferPointer) throws -> Bool {
      summary.sources[source].late += 1
      try outputs.late?.write(raw)
      try outputs.late?.write("\n")
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
        try outputs.rejects?.write(raw)
        try outputs.rejects?.write("\n")
      }
      if replay.reportLimit.map({ reported < $0 }) ?? true {
        try diagnose(source, column: column, "error", message)
        reported += 1
      }
      return !replay.strict
    }

    mutating func warnAboutUnknownKeys(_ source: Int) throws {
      for key in parser.unknownKeys {
        try diagnose(source, column: key.column, "warning", "unknown key '\(key.name)' is ignored")
      }
    }

    func diagnose(_ source: Int, column: Int, _ severity: String, _ message: String) throws {
      let reader = readers[source]
      try outputs.diagnostics.write(
        "\(reader.source.name):\(reader.lineNumber):\(column): \(severity): \(message)\n")
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
      encoded.removeAll(keepingCapacity: true)
      Self.drain(&engine, into: &summary, encoded: &encoded, format: replay.format)
      if !encoded.isEmpty { try outputs.cues.write(encoded) }
    }

    /// Moves the engine's cues into the summary and the encoded output; a function of its own
    /// so the closure captures these buffers, not the whole run that owns the engine.
    static func drain(
      _ engine: inout Engine<Processor>, into summary: inout ReplaySummary, encoded: inout [UInt8],
      format: CueFormat
    ) {
      engine.drainCues { cue in
        summary.record(cue)
        format.encode(cue, into: &encoded)
      }
    }
  }
}
