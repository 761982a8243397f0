import Crease
import CreaseIO

/// `crease check`: validate traces and list every problem.
enum CheckCommand: Subcommand {
  static let description = CommandDescription(
    name: "check",
    abstract: "Validate traces and list every problem.",
    discussion: """
      Prints every bad line as FILE:LINE:COL: error: MESSAGE, and warnings for unknown keys and
      late lines, on standard output; then one count line per trace. Exits 65 if a line is bad.
      """,
    arguments: [TraceInputs.traceArgument],
    options: [TraceInputs.configOption])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let configuration = try TraceInputs.configuration(arguments)
    let sources = try TraceInputs.open(arguments.positionals, streams: streams)
    var replay = TraceReplay(configuration: configuration) {
      Pipeline(configuration: configuration)
    }
    replay.reportLimit = nil
    replay.warnsAboutUnknownKeys = true
    replay.warnsAboutLateLines = true
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
}
