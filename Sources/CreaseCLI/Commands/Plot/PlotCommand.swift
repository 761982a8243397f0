import Crease
import CreaseIO
import CreaseReports

/// `crease plot`: a picture of a trace and its cues.
enum PlotCommand: Subcommand {
  static let outputOption = CommandDescription.Option(
    ["-o", "--output"], value: "file", isRequired: true,
    help: "The SVG file to write ('-' for standard output).")

  static let fromOption = CommandDescription.Option(
    ["--from"], value: "seconds",
    help: "Start the picture at this trace time, in seconds as 'crease replay -f text' prints them.")
  static let toOption = CommandDescription.Option(
    ["--to"], value: "seconds",
    help: "End the picture at this trace time, in seconds as 'crease replay -f text' prints them.")

  static let description = CommandDescription(
    name: "plot",
    abstract: "Draw a trace as SVG: angle over time, boundaries, status bands, cues, gaps.",
    discussion: """
      The hinge angle over time on status bands (closed, partly open, fully open), the
      configuration's boundaries, motion, settle and threshold cues as markers, marks as lines,
      a camera lane with masks, gaps, stalls and mirroring decisions, a row of frames per stream,
      and each cue's latency against its bound. Time is the trace's own, in the seconds 'crease
      replay -f text' prints, over the whole trace. Hover for times and values. A long trace keeps every motion: the angle is drawn as its lowest and highest
      value per pixel column, and markers that would overlap merge.
      """,
    arguments: [
      .init(
        "trace", help: "The trace to draw (JSON Lines or .crtrace; '-', or none, reads standard input).",
        completion: .traces, readsStandardInputWhenOmitted: true)
    ],
    options: [
      TraceInputs.configOption, outputOption, fromOption, toOption,
    ])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let path = arguments.value(outputOption)!  // a required option: the parser checked it
    let window = try (from: seconds(arguments, fromOption), to: seconds(arguments, toOption))
    if let from = window.from, let to = window.to, from >= to {
      throw UsageError("'--from \(from)' must come before '--to \(to)'.")
    }
    let configuration = try TraceInputs.configuration(arguments)
    try OutputPaths.refuseOverlaps([("--output", path)], inputs: arguments.positionals, streams: streams)
    let sources = try TraceInputs.open(arguments.positionals, streams: streams)
    let replay = TraceReplay(configuration: configuration) {
      PlotRecorder(configuration: configuration)
    }
    let (summary, recorder) = try replay.run(
      sources, to: .init(cues: DiscardingSink(), diagnostics: streams.error))
    if let span = recorder.span, !SVGPlot.window(window, overlaps: span) {
      let shown = { (t: Nanoseconds) in String(fixed: Double(t.rawValue) / 1e9, decimals: 3) }
      throw UsageError(
        "The window asked for (--from/--to) is outside the trace, which spans \(shown(span.lowerBound)) s to "
          + "\(shown(span.upperBound)) s.")
    }
    let plot = SVGPlot(recorder, configuration: configuration, title: sources[0].name, window: window)
    let target = try OutputTarget(path, streams: streams)
    try target.sink.write(plot.svg)
    try target.commit()
    return summary.total.rejected > 0 ? .dataError : .success
  }

  /// A window edge: seconds, 0 or more, at most a century.
  private static func seconds(_ arguments: ParsedArguments, _ option: CommandDescription.Option)
    throws(UsageError)
    -> Double?
  {
    try arguments.value(option, as: "a number of seconds, 0 or more") { text in
      Double(text).flatMap { $0.isFinite && $0 >= 0 && $0 <= 3e9 ? $0 : nil }
    }
  }
}
