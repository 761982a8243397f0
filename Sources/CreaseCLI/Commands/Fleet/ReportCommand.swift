import CreaseIO

/// `crease report`: the fleet report, merged from replay summaries (or from other reports).
enum ReportCommand: Subcommand {

  static let description = CommandDescription(
    name: "report",
    abstract: "Merge replay summaries into one fleet report.",
    discussion: """
      Reads the files 'replay --summary-json' writes, or reports this command or 'batch' wrote,
      and merges them exactly: per cue kind the count and p50, p90, p99 and largest latency over
      all traces (from the summaries' histograms), every bound violation with its trace, gaps
      by cause, stalls, stale frames, the slowest traces, and a row per trace. Merging is
      associative: a report of reports equals the report of all their summaries. '-f json' is
      Schemas/report.schema.json; '-f csv' and '-f markdown' hold the per-kind table.
      """,
    arguments: [
      .init("summary", help: "Summary or report files ('-' reads standard input).", isRepeating: true)
    ],
    options: [TableFormat.option, TableFormat.outputOption])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let path = arguments.value(TableFormat.outputOption) ?? "-"
    try OutputPaths.refuseOverlaps([("--output", path)], inputs: arguments.positionals, streams: streams)
    let sources = try TraceInputs.open(arguments.positionals, streams: streams)
    let report = FleetReport.merging(try sources.map(FleetReport.read))
    try TableFormat.write(
      arguments, streams: streams, text: report.text, table: report.table, json: report.json)
    return .success
  }

  static func rendering(_ report: FleetReport, as format: TextOrJSON) -> [UInt8] {
    switch format {
    case .json: report.json.bytes
    case .text: Array(report.text.utf8)
    }
  }
}
