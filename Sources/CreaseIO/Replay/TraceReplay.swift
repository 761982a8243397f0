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

    /// Outputs for cues and diagnostics, and rejected and late lines when wanted.
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
  /// How bad lines and warnings are written to the diagnostics output.
  public var diagnosticStyle = DiagnosticStyle.text
  /// The cue output format.
  public var format = CueFormat.jsonl
  /// The cue kinds written (`--cues`, `--except`); the summary counts every cue.
  public var cueFilter = CueFilter.everything
  /// Whether the summary counts the cues: each kind's count and latencies against its bound,
  /// the gaps by cause, the stalls' bounds. A run whose summary is not read (`replay` without
  /// `--summary` or `--summary-json`) turns it off, and asks no cue's latency bound: about 15
  /// instructions an event of a working day (callgrind). Off, the summary's
  /// ``ReplaySummary/cues`` stay empty; its line counts do not.
  public var countsCues = true
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
  /// the trace (``ReadAheadReader``) while this one processes the events, or writes the cues
  /// (`CueWriter`), or both, where that is safe and pays (`ReplayPlan`). More than 2 adds
  /// nothing: the machine this is measured on has two cores, and a third thread measured
  /// slower. The output is the same bytes either way. One thread is right when several
  /// replays share the cores already.
  public var maximumThreads = 1

  private let makeProcessor: () -> Processor
  let reorderWindow: Nanoseconds
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
  /// The work is laid over threads by a `ReplayPlan`; each plan runs the same loop
  /// (`ReplayRun`) with its own feed and cue sink, so each is compiled for them.
  ///
  /// - Parameters:
  ///   - sources: the traces, in command-line order (ties in `t` go to the earlier).
  ///   - reopen: opens source `i` again for the next loop; required when `loops` > 1.
  ///   - outputs: where cues, diagnostics, and rejected and late lines go.
  // Specialized here for the pipeline `crease` runs: a client's build (any app's, `swift build
  // -c release`'s) would otherwise call the generic code, 6,900 instructions an event more.
  @_specialize(exported:true,where Processor == Pipeline)
  public func run(
    _ sources: [ByteSource], reopen: ((Int) throws -> ByteSource)? = nil, to outputs: Outputs
  ) throws -> (ReplaySummary, Processor) {
    precondition(loops == 1 || reopen != nil, "looping needs a way to reopen the sources")
    let plan = ReplayPlan(
      .init(
        maximumThreads: maximumThreads, threadsAvailable: maximumThreads < 2 || WorkerThread.canStart,
        sourceCount: sources.count, anySourceLive: sources.contains(where: \.isLive),
        allBinary: sources.allSatisfy(RecordReaders.isBinary), hasRejectsOutput: outputs.rejects != nil,
        paced: pacer != nil, cuesAreLines: format != .chrome,
        cueOutputShared: [outputs.diagnostics, outputs.rejects, outputs.late].contains {
          $0 === outputs.cues
        },
        loops: loops))
    let output = LineOutput(sink: outputs.cues, pacer: pacer)
    switch plan {
    case .inline:
      return try runOnThisThread(sources, feed: ReaderFeed.self, output: output, reopen: reopen, outputs)
    case .readAhead(writingCues: false):
      return try runOnThisThread(sources, feed: ReadAheadReader.self, output: output, reopen: reopen, outputs)
    case .readAhead(writingCues: true):
      // Reading binary input keeps its thread busy a small part of the time: the cue writer
      // takes turns on it, rather than a third thread on two cores.
      let feeds = openFeeds(sources, as: ReadAheadReader.self, outputs)
      let writer = try CueWriter(
        output: output, format: format, filter: cueFilter, countsCues: countsCues, on: feeds[0].thread)
      return try run(feeds, sources, sink: writer, reopen: reopen, outputs)
    case .writeBehind:
      let writer = try CueWriter(output: output, format: format, filter: cueFilter, countsCues: countsCues)
      return try run(
        openFeeds(sources, as: ReaderFeed.self, outputs), sources, sink: writer, reopen: reopen, outputs)
    }
  }

  /// Runs the replay with cues written on this thread, in the chosen format.
  private func runOnThisThread<Feed: EventFeed>(
    _ sources: [ByteSource], feed: Feed.Type, output: LineOutput, reopen: ((Int) throws -> ByteSource)?,
    _ outputs: Outputs
  ) throws -> (ReplaySummary, Processor) {
    let feeds = openFeeds(sources, as: Feed.self, outputs)
    if format == .chrome {
      let sink = ChromeCueSink(
        output: output, sourceNames: sources.map(\.name), filter: cueFilter, countsCues: countsCues)
      return try run(feeds, sources, sink: sink, reopen: reopen, outputs)
    }
    let sink = LineCueSink(output: output, format: format, filter: cueFilter, countsCues: countsCues)
    return try run(feeds, sources, sink: sink, reopen: reopen, outputs)
  }

  private func run<Feed: EventFeed, Sink: CueSink>(
    _ feeds: [Feed], _ sources: [ByteSource], sink: Sink, reopen: ((Int) throws -> ByteSource)?,
    _ outputs: Outputs
  ) throws -> (ReplaySummary, Processor) {
    let engine = Engine(
      processor: makeProcessor(), sourceCount: max(1, sources.count), reorderWindow: reorderWindow,
      bufferLimit: bufferLimit, bufferBytes: bufferBytes)
    let replaySources = zip(sources, feeds).enumerated().map { index, pair in
      ReplaySource(
        index: index, feed: pair.1, isLive: pair.0.isLive, loop: LoopShift(),
        counts: ReplaySummary.LineCounts(name: pair.0.name))
    }
    var run = ReplayRun(replay: self, engine: engine, sources: replaySources, sink: sink, outputs: outputs)
    run.reopen = reopen.map { reopen in { index in self.openFeed(try reopen(index), as: Feed.self, outputs) }
    }
    try run.readAll()
    return (run.summary, run.engine.processor)
  }

  private func openFeeds<Feed: EventFeed>(_ sources: [ByteSource], as feed: Feed.Type, _ outputs: Outputs)
    -> [Feed]
  {
    sources.map { openFeed($0, as: Feed.self, outputs) }
  }

  /// A feed of `source` in its format. Lines are kept for a late output only: rejected lines
  /// are copied on this thread, and a rejects output is never read ahead.
  private func openFeed<Feed: EventFeed>(_ source: ByteSource, as feed: Feed.Type, _ outputs: Outputs) -> Feed
  {
    let reader = RecordReaders.open(source, overflow: outputs.rejects)
    reader.collectsUnknownKeys = warnsAboutUnknownKeys
    return Feed(reading: reader, keepingLines: outputs.late != nil)
  }
}
