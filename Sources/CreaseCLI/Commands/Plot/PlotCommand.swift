import Crease
import CreaseIO

/// `crease plot`: a picture of a trace and its cues.
enum PlotCommand: Subcommand {
  static let outputOption = CommandDescription.Option(
    ["-o", "--output"], value: "file", isRequired: true,
    help: "The SVG file to write ('-' for standard output).")

  static let description = CommandDescription(
    name: "plot",
    abstract: "Draw a trace as SVG: angle over time, boundaries, status bands, cues, gaps.",
    discussion: """
      The hinge angle over time on status bands (closed, partly open, fully open), the
      configuration's boundaries, motion, settle and threshold cues as markers, marks as lines,
      and a camera lane with masks, gaps, stalls and mirroring decisions. Hover for details.
      """,
    arguments: [
      .init("trace", help: "The trace to draw (JSON Lines or .crtrace; '-' reads standard input).")
    ],
    options: [
      TraceInputs.configOption, outputOption,
    ])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let path = arguments.value(outputOption)!  // a required option: the parser checked it
    let configuration = try TraceInputs.configuration(arguments)
    try OutputPaths.refuseOverlaps([("--output", path)], inputs: arguments.positionals)
    let sources = try TraceInputs.open(arguments.positionals, streams: streams)
    let replay = TraceReplay(configuration: configuration) {
      PlotRecorder(configuration: configuration)
    }
    let (summary, recorder) = try replay.run(
      sources, to: .init(cues: DiscardingSink(), diagnostics: streams.error))
    let plot = SVGPlot(
      samples: recorder.samples, cues: recorder.cues, configuration: configuration, title: sources[0].name)
    let target = try OutputTarget(path, streams: streams)
    try target.sink.write(plot.svg)
    try target.commit()
    return summary.total.rejected > 0 ? .dataError : .success
  }
}
