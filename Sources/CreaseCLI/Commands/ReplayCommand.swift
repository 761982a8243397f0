import Crease
import CreaseIO

/// `crease replay`: process traces and write cues.
enum ReplayCommand: Subcommand {
  static let formatOption = CommandDescription.Option(
    ["-f", "--format"], value: "format", completion: .values(CueFormat.allCases.map(\.rawValue)),
    help: "Cue format: jsonl (default), text or chrome.")
  static let outputOption = CommandDescription.Option(
    ["-o", "--output"], value: "file",
    help:
      "Write cues to a file or a socket (tcp://HOST:PORT, udp://HOST:PORT, unix:PATH) instead of standard output."
  )
  static let summaryOption = CommandDescription.Option(
    ["--summary"], help: "Print line counts and cue latencies on standard error.")
  static let summaryJSONOption = CommandDescription.Option(
    ["--summary-json"], value: "file",
    help: "Write the summary, with latency histograms, as JSON (Schemas/summary.schema.json).")
  static let timingOption = CommandDescription.Option(
    ["--timing"],
    help: "Add wall and CPU time, events per second and peak memory to the summary (varies by run).")
  static let strictOption = CommandDescription.Option(
    ["--strict"], help: "Stop at the first bad or late line (exit 65).")
  static let rejectsOption = CommandDescription.Option(
    ["--rejects"], value: "file", help: "Write rejected lines, verbatim, to a file.")
  static let lateOption = CommandDescription.Option(
    ["--late"], value: "file", help: "Write late lines, verbatim, to a file.")
  static let loopOption = CommandDescription.Option(
    ["--loop"], value: "n",
    help: "Replay the input n times (0: until stopped); trace time continues across loops.")
  static let idleAdvanceOption = CommandDescription.Option(
    ["--idle-advance"], value: "ms",
    help:
      "For live input: after this much silence, trace time follows the wall clock (the watermark stays the reorder window behind)."
  )
  static let threadsOption = CommandDescription.Option(
    ["--threads"], value: "n",
    help: "Run on at most n threads (default 2); 1 when several replays share the cores.")
  static let cuesOption = CommandDescription.Option(
    ["--cues"], value: "patterns", completion: .values(CueKind.Tag.allCases.map(\.name)),
    help:
      "Write only these cue kinds (comma-separated, * as a wildcard: 'hinge.*,camera.gap'); the summary counts all."
  )
  static let exceptOption = CommandDescription.Option(
    ["--except"], value: "patterns", completion: .values(CueKind.Tag.allCases.map(\.name)),
    help: "Write every cue kind but these (as --cues; 'hinge.progress').")
  static let latencyBudgetOption = CommandDescription.Option(
    ["--latency-budget"], value: "ms",
    help: "Refuse a configuration whose latency bound (plus the reorder window) exceeds this.")

  static let description = CommandDescription(
    name: "replay",
    abstract: "Process traces and write cues.",
    discussion: """
      Reads hinge and camera traces, merges them by t, and writes one cue per line, ordered by t.
      Bad lines are reported as FILE:LINE:COL on standard error and skipped (exit 65).
      """,
    arguments: [TraceInputs.traceArgument],
    options: [
      TraceInputs.configOption, formatOption, outputOption, summaryOption, summaryJSONOption, timingOption,
      cuesOption, exceptOption, strictOption, rejectsOption, lateOption, TraceInputs.speedOption, loopOption,
      idleAdvanceOption, latencyBudgetOption, threadsOption,
    ])

  /// The command line, read and checked whole before any file is touched.
  struct Options {
    var traces: [String]
    var configuration: Configuration
    var format: CueFormat
    /// The cue kinds written (`--cues`, `--except`).
    var cueFilter: CueFilter
    var summary: Bool
    /// Whether the summary records how long the replay took (`--timing`).
    var timing: Bool
    var strict: Bool
    var speed: Double?
    var loops: Int
    /// The most threads to run on.
    var threads: Int
    var idleAdvance: Nanoseconds?
    var latencyBudget: Nanoseconds?
    /// The files to write, by option (`-` is standard output).
    var outputs: [(option: String, path: String)]

    /// Whether standard input is live (a pipe or a terminal, not a redirected file).
    var standardInputIsLive: Bool

    init(_ arguments: ParsedArguments, streams: StandardStreams) throws {
      traces = arguments.positionals
      standardInputIsLive = streams.input.isLive
      configuration = try TraceInputs.configuration(arguments)
      format = try arguments.choice(formatOption, of: CueFormat.self) ?? .jsonl
      cueFilter = try Self.cueFilter(arguments)
      summary = arguments.flag(summaryOption)
      timing = arguments.flag(timingOption)
      strict = arguments.flag(strictOption)
      speed = try TraceInputs.speed(arguments)
      // `--loop 0` runs until stopped: as many passes as an Int counts, trace time saturating.
      loops =
        try arguments.value(loopOption, as: "a whole number, 0 for until stopped") {
          Int($0).flatMap { $0 >= 1 ? $0 : $0 == 0 ? .max : nil }
        }
        ?? 1
      threads =
        try arguments.value(threadsOption, as: "a whole number from 1") {
          Int($0).flatMap { $0 >= 1 ? $0 : nil }
        }
        ?? 2
      idleAdvance = try arguments.value(idleAdvanceOption, as: "a positive number of milliseconds") { text in
        milliseconds(text).flatMap { $0 > .zero ? $0 : nil }
      }
      latencyBudget = try arguments.value(latencyBudgetOption, as: "a number of milliseconds", milliseconds)
      // The cues go to standard output unless `-o` says otherwise: listed too, so that a shell
      // redirection onto an input is refused like `-o` onto it.
      outputs = [outputOption, rejectsOption, lateOption, summaryJSONOption].compactMap { option in
        (arguments.value(option) ?? (option.key == outputOption.key ? "-" : nil)).map {
          (option: option.key, path: $0)
        }
      }
      if timing && !summary && arguments.value(summaryJSONOption) == nil {
        throw UsageError("'--timing' adds to a summary: add '--summary' or '--summary-json FILE'.")
      }
      if arguments.value(summaryJSONOption) == "-" && (arguments.value(outputOption) ?? "-") == "-" {
        throw UsageError("'--summary-json -' needs the cues elsewhere: add '-o FILE'.")
      }
      for option in [rejectsOption, lateOption] {
        guard let path = arguments.value(option), BinaryTraceFormat.isBinary(path: path) else { continue }
        throw UsageError(
          "'\(option.names.last!) \(path)': rejected and late lines are kept as read, in JSON Lines; name the file .jsonl."
        )
      }
      if loops > 1 && traces.contains("-") {
        throw UsageError("Standard input cannot be replayed more than once ('--loop' needs files).")
      }
      if let latencyBudget { try enforce(latencyBudget, on: configuration) }
      try OutputPaths.refuseOverlaps(outputs, inputs: traces, streams: streams)
    }

    /// A paced run, one without end (`--loop 0`), or one reading a live standard input, has
    /// readers that follow its outputs live; standard input redirected from a file is a file
    /// like any other.
    var isLive: Bool { speed != nil || loops == .max || (traces.contains("-") && standardInputIsLive) }

    /// The kinds `--cues` and `--except` leave written; a pattern that names no kind is a usage
    /// error with the nearest name.
    private static func cueFilter(_ arguments: ParsedArguments) throws -> CueFilter {
      func patterns(_ option: CommandDescription.Option) -> [String]? {
        arguments.value(option).map {
          $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
      }
      for option in [cuesOption, exceptOption] where patterns(option)?.contains("") == true {
        throw UsageError("'\(option.names.last!)' has an empty pattern: name cue kinds between the commas.")
      }
      do {
        return try CueFilter(including: patterns(cuesOption), excluding: patterns(exceptOption) ?? [])
      } catch {
        let option = patterns(cuesOption)?.contains(error.pattern) == true ? cuesOption : exceptOption
        throw UsageError(
          "'\(option.names.last!) \(error.pattern)' names no cue kind."
            + Suggestion.didYouMean(error.pattern, in: CueKind.Tag.allCases.map(\.name)))
      }
    }

    /// Whether a summary is written, which names each trace by size and digest.
    var wantsSummary: Bool { summary || outputs.contains { $0.option == summaryJSONOption.key } }
  }

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let options = try Options(arguments, streams: streams)
    let configuration = options.configuration
    var replay = TraceReplay(configuration: configuration) { Pipeline(configuration: configuration) }
    replay.strict = options.strict
    replay.format = options.format
    replay.cueFilter = options.cueFilter
    replay.countsCues = options.wantsSummary
    replay.pacer = options.speed.map { Pacer(speed: $0) }
    replay.idleAdvance = options.idleAdvance
    replay.loops = options.loops
    replay.maximumThreads = options.threads
    // Every argument is valid by now: only then are inputs opened and outputs created.
    // Digested only for a summary: an instruction a byte a plain replay need not pay.
    let (sources, digests) =
      options.wantsSummary
      ? try TraceInputs.openDigesting(options.traces, streams: streams)
      : (try TraceInputs.open(options.traces, streams: streams), [])
    let files = try options.outputs.filter { $0.path != "-" }.map {
      // The summary is written once, at the end: always replaced whole, never in place.
      (
        $0.option,
        try OutputTarget(
          $0.path, streams: streams, inPlace: options.isLive && $0.option != summaryJSONOption.key)
      )
    }
    func sink(_ option: CommandDescription.Option) -> ByteSink? {
      guard let output = options.outputs.first(where: { $0.option == option.key }) else { return nil }
      return output.path == "-" ? streams.output : files.first { $0.0 == option.key }?.1.sink
    }
    let output = sink(outputOption) ?? streams.output
    // A run that may have no end (live, looping, paced, or reading a pipe named as a file)
    // is stopped by a signal after its last whole line.
    // With a summary, or a Chrome timeline (a JSON document, which must be closed), the signal
    // stops the replay instead, which then reports what it read and closes the document.
    if options.isLive || options.loops != 1 || sources.contains(where: \.isLive) {
      if options.wantsSummary || options.format == .chrome {
        InterruptCleanup.unwindOnStop()
      } else {
        InterruptCleanup.finishLinesOnStop()
      }
    }
    let outputs = TraceReplay<Pipeline>.Outputs(
      cues: output, diagnostics: streams.error, rejects: sink(rejectsOption), late: sink(lateOption))
    replay.progress = progressReporter(
      for: sources, paced: options.speed != nil, passes: options.loops, streams: streams)
    let paths = options.traces
    let start = options.timing ? ReplayTiming.Start() : nil
    var summary = try run(
      replay, sources, digests: digests, reopen: { index in try FileSource(path: paths[index]) }, to: outputs)
    summary.timing = start?.finish(events: summary.total.processed)
    if let summaryJSON = sink(summaryJSONOption) {
      try summaryJSON.write(summary.json(for: configuration).bytes)
      try summaryJSON.flush()
    }
    if summary.stoppedBySignal {
      // The summary is kept whole; other outputs are as a stop leaves them (written in place,
      // or their temporary files removed, the old files kept), and the process ends of the signal.
      try files.first { $0.0 == summaryJSONOption.key }?.1.commit()
      try output.flush()
      if options.summary { try streams.error.write(summary.rendered(for: configuration)) }
      InterruptCleanup.stopIfRequested()
    }
    try output.flush()
    for (_, file) in files { try file.commit() }
    if options.summary { try streams.error.write(summary.rendered(for: configuration)) }
    return summary.total.rejected > 0 || summary.stoppedEarly ? .dataError : .success
  }

  /// Runs `replay` and returns its summary, with the frames the pipeline counted as delivered
  /// under a stale mirroring decision and each source's size and digest (`replay` and `batch`
  /// both report them).
  static func run(
    _ replay: TraceReplay<Pipeline>, _ sources: [ByteSource], digests: [DigestingSource],
    reopen: ((Int) throws -> ByteSource)? = nil, to outputs: TraceReplay<Pipeline>.Outputs
  ) throws -> ReplaySummary {
    var (summary, pipeline) = try replay.run(sources, reopen: reopen, to: outputs)
    summary.staleFrames = pipeline.staleFrames
    summary.untrackedStreamEvents = pipeline.untrackedStreamEvents
    for (index, digest) in digests.enumerated() { summary.sources[index].content = try digest.content() }
    return summary
  }

  /// Refuses the configuration when a stage's bound plus the reorder window exceeds `budget`.
  static func enforce(_ budget: Nanoseconds, on configuration: Configuration) throws(UsageError) {
    let window = configuration.reorderWindow
    for stage in configuration.latencyBounds where stage.limit != .gapLength {
      guard let bound = stage.bound() else {
        throw UsageError(
          "The latency budget cannot be met: stage '\(stage.stage.name)' is unbounded (\(stage.basis) is 0).")
      }
      guard bound + window <= budget else {
        throw UsageError(
          "The latency budget of \(describe(budget)) is exceeded by stage '\(stage.stage.name)': "
            + "\(describe(bound)) (\(stage.basis)) + \(describe(window)) reorder window = \(describe(bound + window))."
        )
      }
    }
  }

  /// Milliseconds as text (fractions allowed, not negative), in nanoseconds.
  static func milliseconds(_ text: String) -> Nanoseconds? {
    guard let value = Double(text), value.isFinite, value >= 0, value < 9e12 else { return nil }
    return Nanoseconds(Int64((value * 1_000_000).rounded()))
  }

  private static func describe(_ duration: Nanoseconds) -> String {
    let microseconds = duration.rawValue / 1000
    let fraction = microseconds % 1000
    return "\(microseconds / 1000)" + (fraction == 0 ? "" : "." + String(String(fraction + 1000).dropFirst()))
      + " ms"
  }

  /// Progress on standard error when it is a terminal: trace time for a paced replay, else a
  /// percentage when every input is a regular file (a size to take a share of).
  static func progressReporter(
    for sources: [ByteSource], paced: Bool, passes: Int, streams: StandardStreams
  ) -> ProgressReporter? {
    guard (streams.error as? FileSink)?.isTerminal == true else { return nil }
    let sizes = sources.map(\.regularFileSize)
    let total = sizes.allSatisfy { $0 != nil } ? sizes.reduce(0) { $0 + $1! } : nil
    if paced {
      return ProgressReporter(sink: streams.error, total: total, measure: .traceTime, passes: passes)
    }
    return total.map { ProgressReporter(sink: streams.error, total: $0, passes: passes) }
  }
}
