import CreaseIO
import CreaseReports

/// `crease compare`: two runs side by side, a gate for CI.
enum CompareCommand: Subcommand {
  static let thresholdOption = CommandDescription.Option(
    ["--threshold"], value: "percent",
    help: "The change past which a count or latency counts as changed (default 5).")
  static let anyTracesOption = CommandDescription.Option(
    ["--any-traces"], help: "Compare runs of different traces (refused otherwise).")
  static let allowCountChangeOption = CommandDescription.Option(
    ["--allow-count-change"], help: "Pass a cue kind whose count moved past the threshold (fails otherwise).")
  static let allowRemovedOption = CommandDescription.Option(
    ["--allow-removed"], help: "Pass a cue kind the new run no longer has (fails otherwise).")

  static let description = CommandDescription(
    name: "compare",
    abstract: "Compare two summaries or reports, cue kind by cue kind: a gate for CI.",
    discussion: """
      Reads two files 'replay --summary-json', 'batch' or 'report' wrote: BASE (a saved baseline)
      and NEW. Per cue kind it shows the count and the p50, p90, p99 and largest latency of each
      and their change, and judges the kind regressed (a latency grew past the threshold),
      countChanged (its count moved past it, either way), improved (a latency shrank past it,
      none grew) or unchanged; a kind only NEW has is added, one only BASE has removed. A
      regression, an added kind, a count change and a removed kind fail the gate; the last two
      pass with '--allow-count-change' and '--allow-removed'. Traces are told apart by content (their digests), so a
      renamed trace is the same trace and an edited one is not; runs of different traces are
      refused unless '--any-traces'. Each side's crease version and configuration are shown:
      comparing two of them is the point. Exits 1 when the gate fails, 0 otherwise.
      """,
    arguments: [
      .init("base", help: "The baseline: a summary or report file."),
      .init("new", help: "The run to judge: a summary or report file."),
    ],
    options: [
      thresholdOption, allowCountChangeOption, allowRemovedOption, TableFormat.option,
      TableFormat.outputOption,
      TableFormat.htmlOption, anyTracesOption,
    ])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let threshold =
      try arguments.value(thresholdOption, as: "a percentage from 0") { text in
        Double(text).flatMap { $0 >= 0 && $0.isFinite ? $0 / 100 : nil }
      } ?? 0.05
    try OutputPaths.refuseOverlaps(
      TableFormat.outputs(arguments), inputs: arguments.positionals, streams: streams)
    let reports = try TraceInputs.open(arguments.positionals, streams: streams).map(FleetReport.read)
    let (base, new) = (reports[0], reports[1])
    let unmatched = FleetComparison.unmatchedTraces(base, new)
    if !unmatched.isEmpty && !arguments.flag(anyTracesOption) {
      let only = unmatched.prefix(5).joined(separator: ", ")
      try streams.error.write(
        "crease: the two runs replayed different traces (\(only)); '--any-traces' compares them anyway\n")
      return .dataError
    }
    let policy = FleetComparison.Policy(
      allowsCountChange: arguments.flag(allowCountChangeOption),
      allowsRemoved: arguments.flag(allowRemovedOption))
    let comparison = FleetComparison(base: base, new: new, threshold: threshold, policy: policy)
    try TableFormat.write(
      arguments, streams: streams, text: comparison.text, table: comparison.table,
      markdown: comparison.markdown,
      json: comparison.json
    ) { HTMLReport.page(comparison, base: base, new: new) }
    return comparison.regressed ? .failure : .success
  }
}
