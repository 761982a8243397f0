import CreaseIO

/// `crease report`: the fleet report, merged from replay summaries (or from other reports).
enum ReportCommand: Subcommand {
  static let formatOption = TextOrJSON.option(json: "Schemas/report.schema.json")
  static let outputOption = CommandDescription.Option(
    ["-o", "--output"], value: "file",
    help: "Write the report to a file ('-' for standard output, the default).")

  static let description = CommandDescription(
    name: "report",
    abstract: "Merge replay summaries into one fleet report.",
    discussion: """
      Reads the files 'replay --summary-json' writes, or reports this command or 'batch' wrote,
      and merges them exactly: per cue kind the count and p50, p90, p99 and largest latency over
      all traces (from the summaries' histograms), every bound violation with its trace, gaps
      by cause, stalls, stale frames, the slowest traces, and a row per trace. Merging is
      associative: a report of reports equals the report of all their summaries.
      """,
    arguments: [
      .init("summary", help: "Summary or report files ('-' reads standard input).", isRepeating: true)
    ],
    options: [formatOption, outputOption])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let format = try arguments.choice(formatOption, of: TextOrJSON.self) ?? .text
    let path = arguments.value(outputOption) ?? "-"
    try OutputPaths.refuseOverlaps([("--output", path)], inputs: arguments.positionals, streams: streams)
    let sources = try TraceInputs.open(arguments.positionals, streams: streams)
    let report = FleetReport.merging(try sources.map(FleetReport.read))
    let target = try OutputTarget(path, streams: streams)
    try target.sink.write(rendering(report, as: format))
    try target.commit()
    return .success
  }

  static func rendering(_ report: FleetReport, as format: TextOrJSON) -> [UInt8] {
    switch format {
    case .json: report.json.bytes
    case .text: Array(report.text.utf8)
    }
  }
}
