import Crease
import CreaseIO

/// `crease stats`: counts, rates and gaps of traces.
enum StatsCommand: Subcommand {
  static let description = CommandDescription(
    name: "stats",
    abstract: "Show counts, rates, duration and frame gaps per kind and stream.",
    discussion: """
      A stream's gaps and nominal rate are the ones 'crease replay' reports (the header's fps or
      the estimate, followed through rate changes): 'camera.gap' cues and the frames they miss.
      A stream that ends with too few frames for an estimate says so.
      """,
    arguments: [TraceInputs.traceArgument],
    options: [TraceInputs.configOption, formatOption])

  static let formatOption = TextOrJSON.option(json: "one object: lines, duration, events, streams")

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let configuration = try TraceInputs.configuration(arguments)
    let sources = try TraceInputs.open(arguments.positionals, streams: streams)
    let replay = TraceReplay(configuration: configuration) { TraceStatistics(configuration: configuration) }
    let (summary, statistics) = try replay.run(
      sources, to: .init(cues: DiscardingSink(), diagnostics: streams.error))
    let total = summary.total
    switch try arguments.choice(formatOption, of: TextOrJSON.self) ?? .text {
    case .text:
      try streams.output.write(
        "lines: \(total.lines) (\(total.processed) processed, \(total.rejected) rejected, "
          + "\(total.late) late, \(total.blank) blank)\n" + statistics.rendered)
    case .json:
      try streams.output.write(statistics.json(lines: total).bytes)
    }
    return total.rejected > 0 ? .dataError : .success
  }
}
