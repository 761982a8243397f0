import Crease
import CreaseIO

/// `crease check`: validate traces and list every problem.
enum CheckCommand: Subcommand {
  static let description = CommandDescription(
    name: "check",
    abstract: "Validate traces and list every problem.",
    discussion: """
      Prints every bad line as FILE:LINE:COL: error: MESSAGE, and warnings for unknown keys and
      late lines, on standard output; then one count line per trace. With '-f json', one JSON
      object: "problems" (file, line, column, severity, message) and "traces" (the counts).
      Exits 65 if a line is bad.
      """,
    arguments: [TraceInputs.traceArgument],
    options: [TraceInputs.configOption, formatOption])

  static let formatOption = TextOrJSON.option(json: "one object: problems and traces")

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let configuration = try TraceInputs.configuration(arguments)
    let sources = try TraceInputs.open(arguments.positionals, streams: streams)
    var replay = TraceReplay(configuration: configuration) {
      Pipeline(configuration: configuration)
    }
    replay.reportLimit = nil
    replay.warnsAboutUnknownKeys = true
    replay.warnsAboutLateLines = true
    let format = try arguments.choice(formatOption, of: TextOrJSON.self) ?? .text
    if format == .json {
      replay.diagnosticStyle = .jsonLines
      let problems = MemorySink()
      let (summary, _) = try replay.run(sources, to: .init(cues: DiscardingSink(), diagnostics: problems))
      try streams.output.write(json(problems: problems.bytes, summary: summary))
      return summary.total.rejected > 0 ? .dataError : .success
    }
    let (summary, _) = try replay.run(
      sources, to: .init(cues: DiscardingSink(), diagnostics: streams.output))
    for source in summary.sources {
      let verdict = source.rejected == 0 ? "ok" : "\(source.rejected) bad line(s)"
      try streams.output.write(
        "\(source.name.escapingControlCharacters): \(verdict): \(source.lines) line(s), \(source.processed) processed, "
          + "\(source.rejected) rejected, \(source.late) late, \(source.blank) blank\n")
    }
    return summary.total.rejected > 0 ? .dataError : .success
  }

  /// The check as one JSON object: the problems, each already a JSON object on a line of its
  /// own, as an array, then each trace's counts.
  static func json(problems: [UInt8], summary: ReplaySummary) -> [UInt8] {
    let objects = problems.split(separator: UInt8(ascii: "\n")).map {
      "    " + String(decoding: $0, as: UTF8.self)
    }
    let traces = JSONDocument.array(
      summary.sources.map { source in
        .object([
          .init("name", .string(source.name)), .init("ok", .bool(source.rejected == 0)),
          .init("lines", .count(source.lines)), .init("processed", .count(source.processed)),
          .init("rejected", .count(source.rejected)), .init("late", .count(source.late)),
          .init("blank", .count(source.blank)),
        ])
      })
    // Written at the top level, indented here one level deeper.
    let tracesText = String(decoding: traces.bytes, as: UTF8.self).split(separator: "\n").joined(
      separator: "\n  ")
    let problemsText = objects.isEmpty ? "[]" : "[\n" + objects.joined(separator: ",\n") + "\n  ]"
    return Array("{\n  \"problems\": \(problemsText),\n  \"traces\": \(tracesText)\n}\n".utf8)
  }
}
