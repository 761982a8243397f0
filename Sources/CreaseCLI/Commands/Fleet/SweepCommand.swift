import Crease
import CreaseIO
import CreaseReports

/// `crease sweep`: the traces under every combination of configuration values, side by side.
enum SweepCommand: Subcommand {
  static let setOption = CommandDescription.Option(
    ["--set"], value: "key=values",
    help:
      "A configuration key by its dotted path and the values to try, e.g. hinge.statusDebounceMs=30,50,80.")
  static let description = CommandDescription(
    name: "sweep",
    abstract: "Replay traces under every combination of configuration values, side by side.",
    discussion: """
      Each '--set KEY=V1,V2,...' names a configuration key by its dotted path (as in crease(1),
      CONFIGURATION) and the values to try; the traces are replayed, each on its own as 'batch'
      does, under every combination, over the '-c' configuration or the defaults, on all cores.
      For each setting and cue kind: the count and the p50, p90, p99 and largest latency, so the
      trade-off between latency and flicker (status commits, gaps, masks) can be read off. The
      same inputs give the same bytes.
      """,
    arguments: [TraceInputs.traceArgument],
    options: [
      TraceInputs.configOption, setOption, BatchCommand.jobsOption, TableFormat.option,
      TableFormat.outputOption, TableFormat.htmlOption,
    ])

  /// One `--set`: a key and the values to try, as written.
  struct Axis {
    var key: String
    var values: [String]
  }

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let base = try TraceInputs.configuration(arguments)
    let axes = try arguments.allValues(setOption).map(axis)
    guard !axes.isEmpty else { throw UsageError("Give at least one '--set KEY=V1,V2,...'.") }
    let settings = try combinations(axes).map { setting in
      (
        name: setting.map { "\($0.key)=\($0.value)" }.joined(separator: " "),
        configuration: try configure(setting, over: base)
      )
    }
    let traces = arguments.positionals
    try OutputPaths.refuseOverlaps(TableFormat.outputs(arguments), inputs: traces, streams: streams)
    let jobs =
      try arguments.value(BatchCommand.jobsOption, as: "a whole number from 1") {
        Int($0).flatMap { $0 >= 1 ? $0 : nil }
      } ?? BatchCommand.processorCount
    // Every (setting, trace) pair is one piece of work, so all cores stay busy.
    let outcomes = ParallelWork.map(count: settings.count * traces.count, jobs: jobs) { index in
      let (setting, trace) = index.quotientAndRemainder(dividingBy: traces.count)
      return BatchCommand.replay(
        traces[trace], configuration: settings[setting].configuration, format: .jsonl)
    }
    let reports = try stride(from: 0, to: outcomes.count, by: traces.count).map { start in
      try BatchCommand.fleetReport(of: traces, outcomes[start..<(start + traces.count)])
    }
    // A bad line reads the same under every setting: each trace's diagnostics are written once,
    // and again only where a setting changed them (a swept reorder window makes lines late).
    for (index, outcome) in outcomes.enumerated()
    where index < traces.count || outcome.diagnostics != outcomes[index % traces.count].diagnostics {
      if index >= traces.count {
        try streams.error.write("crease: under \(settings[index / traces.count].name):\n")
      }
      try streams.error.write(outcome.diagnostics)
    }
    let sweep = FleetSweep(settings: zip(settings, reports).map { ($0.name, $1) }, label: "setting")
    let rendered = sweep.table
    try TableFormat.write(arguments, streams: streams, text: rendered.text, table: rendered, json: sweep.json)
    {
      HTMLReport.page(sweep)
    }
    return outcomes.map(\.status).max { $0.severity < $1.severity } ?? .success
  }

  /// `KEY=V1,V2,...` taken apart.
  static func axis(_ text: String) throws -> Axis {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
      throw UsageError("'--set \(text)': expected KEY=V1,V2,..., such as hinge.statusDebounceMs=30,50.")
    }
    let key = String(text[..<equals])
    let known = ConfigurationFile.keys.map(\.path)
    guard known.contains(key), key != "hinge.boundaries" else {
      throw UsageError(
        "'--set \(text)': '\(key)' is not a number a sweep can set.\(Suggestion.didYouMean(key, in: known))")
    }
    let values = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
      .map(String.init)
    guard !values.isEmpty, values.allSatisfy({ Double($0)?.isFinite == true }) else {
      throw UsageError("'--set \(text)': the values must be numbers, separated by commas.")
    }
    return Axis(key: key, values: values)
  }

  /// Every combination of the axes' values, the first axis varying slowest.
  static func combinations(_ axes: [Axis]) -> [[(key: String, value: String)]] {
    axes.reduce([[]]) { partial, axis in
      partial.flatMap { setting in axis.values.map { setting + [(axis.key, $0)] } }
    }
  }

  /// `base` with the setting's keys set, read as a configuration file would be, and validated.
  static func configure(_ setting: [(key: String, value: String)], over base: Configuration) throws
    -> Configuration
  {
    var groups: [String: [String]] = [:]
    var top: [String] = []
    for (key, value) in setting {
      let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
      if parts.count == 2 {
        groups[parts[0], default: []].append("\"\(parts[1])\":\(value)")
      } else {
        top.append("\"\(key)\":\(value)")
      }
    }
    let members = top + groups.keys.sorted().map { "\"\($0)\":{\(groups[$0]!.joined(separator: ","))}" }
    let name = setting.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    return try ConfigurationFile.parse(
      Array("{\(members.joined(separator: ","))}".utf8), path: "--set \(name)", over: base)
  }
}
