import Crease
import CreaseIO
import CreaseLocking
import CreaseReports

/// `crease sweep`: the traces under every combination of configuration values, side by side.
enum SweepCommand: Subcommand {
  static let setOption = CommandDescription.Option(
    ["--set"], value: "key=values", completion: .values(sweptKeys.map { $0 + "=" }),
    help: """
      A configuration key by its dotted path and the values to try, e.g. \
      hinge.statusDebounceMs=30,50,80 (once a key).
      """)
  static let description = CommandDescription(
    name: "sweep",
    abstract: "Replay traces under every combination of configuration values, side by side.",
    discussion: """
      Each '--set KEY=V1,V2,...' names a configuration key by its dotted path (as in crease(1),
      CONFIGURATION) and the values to try; the traces are replayed, each on its own as 'batch'
      does, under every combination, over the '-c' configuration or the defaults, on all cores.
      For each setting and cue kind: the count and the p50, p90, p99 and largest latency, so the
      trade-off between latency and flicker (status commits, gaps, masks) can be read off. Each
      value is a JSON number; a sweep tries at most 10,000 settings. The same inputs give the
      same bytes.
      """,
    arguments: [
      .init(
        "trace",
        help:
          "Trace files, each replayed on its own under every setting (files: each is read once a setting).",
        isRepeating: true, completion: .traces)
    ],
    options: [
      TraceInputs.configOption, setOption, BatchCommand.jobsOption, TableFormat.option,
      TableFormat.outputOption, TableFormat.htmlOption,
    ])

  /// The configuration keys a sweep can set: every number (not the boundaries' list).
  static let sweptKeys = ConfigurationFile.keys.map(\.path).filter { $0 != "hinge.boundaries" }

  /// One `--set`: a key and the values to try, as written.
  struct Axis {
    var key: String
    var values: [String]
  }

  /// The most settings one sweep tries: each is a column of its table, and beyond some dozens
  /// it is read by a program anyway, which can run several sweeps.
  static let mostSettings = 10_000

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let base = try TraceInputs.configuration(arguments)
    let axes = try arguments.allValues(setOption).map(axis)
    guard !axes.isEmpty else { throw UsageError("Give at least one '--set KEY=V1,V2,...'.") }
    var keys: Set<String> = []
    if let repeated = axes.first(where: { !keys.insert($0.key).inserted }) {
      throw UsageError(
        "'--set \(repeated.key)' is given twice: give all its values in one '--set \(repeated.key)=V1,V2,...'."
      )
    }
    let traces = arguments.positionals
    guard !traces.contains("-") else {
      throw UsageError("'sweep' reads each trace once a setting: standard input ('-') can be read only once.")
    }
    let settings = try Combinations(axes)
    // Every setting is configured here, so a value the configuration refuses stops the sweep
    // before its first replay; none is kept, each is made again when its replays start.
    for setting in settings { _ = try configure(setting, over: base) }
    try OutputPaths.refuseOverlaps(TableFormat.outputs(arguments), inputs: traces, streams: streams)
    let jobs =
      try arguments.value(BatchCommand.jobsOption, as: "a whole number from 1") {
        Int($0).flatMap { $0 >= 1 ? $0 : nil }
      } ?? BatchCommand.processorCount
    // Every (setting, trace) pair is one piece of work, so all cores stay busy; each report is
    // folded into its setting's as it comes, and a setting is cut down to its figures once its
    // last trace is in, so a sweep holds a setting's figures, not its reports.
    let progress = Locked(
      SweepProgress(
        settings: settings.count, tracesEach: traces.count,
        keepingLatencies: arguments.value(TableFormat.htmlOption) != nil
      ) { index in
        do {
          return try configure(settings[index], over: base)
        } catch {
          preconditionFailure("every setting was configured before the first replay: \(error)")
        }
      })
    let outcomes = ParallelWork.map(count: settings.count * traces.count, jobs: jobs) { index in
      let (setting, trace) = index.quotientAndRemainder(dividingBy: traces.count)
      let (configuration, fold) = progress.withLock { $0.start(setting) }
      let outcome = BatchCommand.replay(
        traces[trace], configuration: configuration, format: .jsonl, foldingInto: fold)
      progress.withLock { $0.finish(setting, name: settings.name(at: setting)) }
      return outcome
    }
    // A bad line reads the same under every setting: each trace's diagnostics are written once,
    // and again only where a setting changed them (a swept reorder window makes lines late).
    for (index, outcome) in outcomes.enumerated()
    where index < traces.count || outcome.diagnostics != outcomes[index % traces.count].diagnostics {
      if index >= traces.count {
        try streams.error.write("crease: under \(settings.name(at: index / traces.count)):\n")
      }
      try streams.error.write(outcome.diagnostics)
    }
    let sweep = FleetSweep(settings: progress.withLock(\.finished), label: "setting")
    try TableFormat.write(
      arguments, streams: streams, text: sweep.table.text, table: sweep.table, json: sweep.json
    ) {
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
    guard sweptKeys.contains(key) else {
      throw UsageError(
        "'--set \(text)': '\(key)' is not a number a sweep can set.\(Suggestion.didYouMean(key, in: sweptKeys))"
      )
    }
    let values = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
      .map(String.init)
    // Spliced into a configuration document as written: each must be a JSON number, as a
    // configuration file holds it (not `0x10`, `+5` or `.5`), and finite.
    if let bad = values.first(where: { !isJSONNumber($0) || Double($0)?.isFinite != true }) {
      throw UsageError(
        "'--set \(text)': '\(bad)' is not a number as a configuration file writes it (such as 30, 0.5 or 1e3); "
          + "separate values with commas.")
    }
    return Axis(key: key, values: values)
  }

  /// Whether `text` is a number in JSON's grammar: `-`, digits without a leading zero, a
  /// fraction and an exponent, each optional but the digits.
  static func isJSONNumber(_ text: String) -> Bool {
    var bytes = text.utf8[...]
    func digits() -> Int {
      let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
      bytes = bytes.dropFirst(count)
      return count
    }
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    let leadingZero = bytes.first == UInt8(ascii: "0")
    let whole = digits()
    guard whole > 0, !(leadingZero && whole > 1) else { return false }
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      guard digits() > 0 else { return false }
    }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
      guard digits() > 0 else { return false }
    }
    return bytes.isEmpty
  }

  /// Every combination of the axes' values, the first axis varying slowest, each made when
  /// asked for: their count is checked before any is.
  struct Combinations: RandomAccessCollection {
    let axes: [Axis]
    let count: Int

    /// The combinations of `axes`.
    /// - Throws: ``UsageError`` when they are more than ``SweepCommand/mostSettings``.
    init(_ axes: [Axis]) throws(UsageError) {
      self.axes = axes
      var count = 1
      for axis in axes {
        let (product, overflow) = count.multipliedReportingOverflow(by: axis.values.count)
        guard !overflow, product <= SweepCommand.mostSettings else {
          let sizes = axes.map { String($0.values.count) }.joined(separator: " × ")
          throw UsageError(
            "The '--set' values make \(sizes) settings, more than the \(SweepCommand.mostSettings) a sweep tries: "
              + "sweep fewer values, or split the sweep.")
        }
        count = product
      }
      self.count = count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The combination at `index`: its value of each axis, read off `index` in mixed radix.
    subscript(index: Int) -> [(key: String, value: String)] {
      var rest = index
      var setting: [(key: String, value: String)] = []
      for axis in axes.reversed() {
        let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: axis.values.count)
        setting.append((axis.key, axis.values[remainder]))
        rest = quotient
      }
      return setting.reversed()
    }

    /// The name of the combination at `index`: `key=value` for each axis.
    func name(at index: Int) -> String { Self.name(self[index]) }

    /// The name of `setting`: `key=value` for each axis.
    static func name(_ setting: [(key: String, value: String)]) -> String {
      setting.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
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
    return try ConfigurationFile.parse(
      Array("{\(members.joined(separator: ","))}".utf8), path: "--set \(Combinations.name(setting))",
      over: base)
  }
}
