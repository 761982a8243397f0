import CreaseIO
import CreaseReports

/// `crease report`: the fleet report, merged from replay summaries (or from other reports).
enum ReportCommand: Subcommand {
  static let mixedOption = CommandDescription.Option(
    ["--mixed"], help: "Take files of different configurations or versions, a report for each.")

  static let description = CommandDescription(
    name: "report",
    abstract: "Merge replay summaries into one fleet report.",
    discussion: """
      Reads the files 'replay --summary-json' writes, or reports this command or 'batch' wrote,
      and merges them exactly: per cue kind the count and p50, p90, p99 and largest latency over
      all traces (from the summaries' histograms), every bound violation with its trace, gaps
      by cause, stalls, stale frames, the traces closest to their bound, and a row per trace.
      Merging is associative: a report of reports equals the report of all their summaries.
      Files made by different crease versions or under different configurations are refused
      (exit 65), since their latencies measure different things; '--mixed' keeps them apart, a
      report per configuration. '-f json' is Schemas/report.schema.json; '-f csv' and
      '-f markdown' hold the per-kind table.
      """,
    arguments: [
      .init("summary", help: "Summary or report files ('-' reads standard input).", isRepeating: true)
    ],
    options: [TableFormat.option, TableFormat.outputOption, TableFormat.htmlOption, mixedOption])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let files = arguments.positionals
    try OutputPaths.refuseOverlaps(TableFormat.outputs(arguments), inputs: files, streams: streams)
    // Each file folded in as it is read: a report over thousands of summaries holds one
    // histogram a cue kind and a row a trace.
    guard arguments.flag(mixedOption) else {
      var accumulator = FleetReport.Accumulator()
      accumulator.reserveCapacity(rows: files.count)
      var firstAttributed: String?
      try TraceInputs.forEach(files, streams: streams) { source in
        let report = try FleetReport.read(source)
        do throws(FleetReport.MixedProvenance) {
          try accumulator.add(report)
        } catch {
          let (first, second) = (Provenance.describe(error.first), Provenance.describe(error.second))
          let message =
            "made by \(second), but '\(firstAttributed ?? "")' by \(first): their latencies measure different "
            + "things; '--mixed' keeps them apart, a report for each"
          throw JSONFile.Error(path: source.name, message: message)
        }
        if report.provenance != nil { firstAttributed = firstAttributed ?? source.name }
      }
      let report = accumulator.takeReport()
      try TableFormat.write(
        arguments, streams: streams, text: report.text, table: report.table, json: report.json
      ) { HTMLReport.page(report) }
      return .success
    }
    var groups = FleetReport.GroupedAccumulator()
    try TraceInputs.forEach(files, streams: streams) { groups.add(try FleetReport.read($0)) }
    let mixed = groups.reports
    let sweep = FleetSweep(
      settings: mixed.map { .init(name: Provenance.describe($0.provenance), report: $0) },
      label: "configuration")
    try TableFormat.write(
      arguments, streams: streams,
      text: mixed.map { "\(Provenance.describe($0.provenance)):\n" + $0.text }.joined(separator: "\n"),
      table: sweep.table, json: FleetReport.json(mixed: mixed)
    ) { HTMLReport.page(sweep) }
    return .success
  }

  /// Writes `report` to `sink` as `format` has it (`batch`'s report.json and report.txt).
  static func write(_ report: FleetReport, as format: TextOrJSON, to sink: some ByteSink) throws {
    switch format {
    case .json: try report.json.write(to: sink)
    case .text: try sink.write(report.text)
    }
  }
}
