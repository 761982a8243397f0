import Crease
import CreaseIO

/// `crease replay`: process traces and write cues.
enum ReplayCommand: Subcommand {
  static let description = CommandDescription(
    name: "replay",
    abstract: "Process traces and write cues.",
    discussion: """
      Reads hinge and camera traces, merges them by t, and writes one cue per line, ordered by t.
      Bad lines are reported as FILE:LINE:COL on standard error and skipped (exit 65).
      """,
    arguments: [TraceInputs.traceArgument],
    options: [
      TraceInputs.configOption,
      .init(["-f", "--format"], value: "format", help: "Cue format: jsonl (default), text or chrome."),
      .init(["-o", "--output"], value: "file", help: "Write cues to a file instead of standard output."),
      .init(["--summary"], help: "Print line counts and cue latencies on standard error."),
      .init(["--strict"], help: "Stop at the first bad or late line (exit 65)."),
      .init(["--rejects"], value: "file", help: "Write rejected lines, verbatim, to a file."),
      .init(["--late"], value: "file", help: "Write late lines, verbatim, to a file."),
      TraceInputs.speedOption,
      .init(["--loop"], value: "n", help: "Replay the input n times; trace time continues across loops."),
      .init(
        ["--idle-advance"], value: "ms",
        help: "For live input: let trace time follow the wall clock after this much silence."),
      .init(
        ["--latency-budget"], value: "ms",
        help: "Refuse a configuration whose latency bound (plus the reorder window) exceeds this."),
    ])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let format = try arguments.choice("--format", of: CueFormat.self) ?? .jsonl
    let configuration = try TraceInputs.configuration(arguments)
    if let budget = try arguments.value("--latency-budget", as: "a number of milliseconds", Self.milliseconds)
    {
      try enforce(budget, on: configuration)
    }
    var replay = TraceReplay(configuration: configuration) {
      Pipeline(configuration: configuration)
    }
    replay.strict = arguments.flag("--strict")
    replay.format = format
    replay.pacer = try TraceInputs.speed(arguments).map { Pacer(speed: $0) }
    replay.idleAdvance = try arguments.value("--idle-advance", as: "a positive number of milliseconds") {
      text in
      milliseconds(text).flatMap { $0 > .zero ? $0 : nil }
    }
    replay.loops =
      try arguments.value("--loop", as: "a whole number from 1") { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
      ?? 1
    if replay.loops > 1 && arguments.positionals.contains("-") {
      throw UsageError("Standard input cannot be replayed more than once ('--loop' needs files).")
    }
    // Every argument is valid by now: only then are inputs opened and outputs created.
    let outputPaths = ["--output", "--rejects", "--late"].compactMap { option in
      arguments.value(option).map { (option: option, path: $0) }
    }
    try OutputPaths.refuseOverlaps(outputPaths, inputs: arguments.positionals)
    let sources = try TraceInputs.open(arguments.positionals, streams: streams)
    let live = replay.pacer != nil || arguments.positionals.contains("-")
    let files = try outputPaths.filter { $0.path != "-" }.map {
      ($0.option, try ReplacedFile(path: $0.path, inPlace: live))
    }
    func sink(_ option: String) -> ByteSink? {
      if arguments.value(option) == "-" { return streams.output }
      return files.first { $0.0 == option }?.1.sink
    }
    let output = sink("--output") ?? streams.output
    let outputs = TraceReplay<Pipeline>.Outputs(
      cues: output, diagnostics: streams.error, rejects: sink("--rejects"), late: sink("--late"))
    replay.progress = progressReporter(for: sources, streams: streams)
    let paths = arguments.positionals
    var (summary, pipeline) = try replay.run(
      sources, reopen: { index in try FileSource(path: paths[index]) }, to: outputs)
    summary.staleFrames = pipeline.staleFrames
    try output.flush()
    for (_, file) in files { try file.commit() }
    if arguments.flag("--summary") { try streams.error.write(summary.rendered(for: configuration)) }
    return summary.total.rejected > 0 || summary.stoppedEarly ? .dataError : .success
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

  /// A percentage on standard error when it is a terminal and every input is a regular file.
  static func progressReporter(for sources: [ByteSource], streams: StandardStreams) -> ProgressReporter? {
    guard (streams.error as? FileSink)?.isTerminal == true else { return nil }
    let sizes = sources.map { ($0 as? FileSource)?.regularFileSize }
    guard sizes.allSatisfy({ $0 != nil }) else { return nil }
    return ProgressReporter(sink: streams.error, total: sizes.reduce(0) { $0 + $1! })
  }
}
