import CreaseIO

/// The manual page, crease(1), rendered as roff from the same command descriptions as the help.
enum ManPage {
  /// The exit statuses of SPEC 6, for the EXIT STATUS section.
  static let exitStatuses: [(code: ExitCode, meaning: String)] = [
    (.success, "Success."),
    (.usage, "Usage error: the message, then the usage, on standard error."),
    (.dataError, "Bad input data: at least one line was rejected."),
    (.noInput, "An input file is missing."),
    (.ioError, "An I/O error, such as a full disk."),
    (.configuration, "A bad configuration file; the key and the reason are named."),
    (.failure, "Anything else."),
  ]

  /// Commands a reader can paste, each with what it does, for the EXAMPLES section.
  static let examples: [(command: String, meaning: String)] = [
    (
      "crease replay --format text --summary trace.jsonl",
      "Cues as text, then the summary with each stage's latency."
    ),
    (
      "crease replay device.jsonl camera.jsonl -o cues.jsonl",
      "Two recordings merged by t, the cues to a file."
    ),
    (
      "crease synth day --seed 7 --duration 600 -o day.crtrace",
      "Ten minutes of a synthetic day, as a binary trace."
    ),
    ("crease synth open-close | crease replay", "A trace on standard input: no file needed."),
    (
      "crease replay -f chrome trace.jsonl -o timeline.json",
      "A timeline for the Perfetto UI (ui.perfetto.dev)."
    ),
    ("crease check -f json trace.jsonl", "Every problem of a trace, as JSON for a script."),
    ("crease batch traces/*.jsonl -d out -j 4", "Replay many traces apart, then a fleet report in out/."),
    ("crease plot trace.jsonl -o trace.svg", "A picture of the angle, the status and the cues."),
  ]

  /// The page for `program` and each of its subcommands.
  static func render(_ program: CommandDescription, version: String) -> String {
    let name = program.name
    var page = """
      .TH \(name.uppercased()) 1 "" "\(name) \(version)" "User Commands"
      .SH NAME
      \(name) \\- \(escape(program.abstract))
      .SH SYNOPSIS
      .B \(name)
      .I subcommand
      .RI [ options ]
      .RI [ arguments ]
      .SH DESCRIPTION
      \(escape(program.abstract))
      Run
      .B \(name) help
      .I subcommand
      for a subcommand's help.

      """
    page += ".SH OPTIONS\n" + program.options.map(optionItem).joined()
    page += ".SH COMMANDS\n"
    for command in program.subcommands {
      page += ".SS \(name) \(command.name)\n"
      page += ".B \(name) \(command.name)\n"
      page += escape(String(HelpFormatter.usage(command, path: []).drop(while: { $0 == " " }))) + "\n"
      page += ".PP\n" + escape(command.abstract) + "\n"
      for paragraph in command.discussion.map(HelpFormatter.paragraphs) ?? [] {
        page += ".PP\n" + escape(paragraph) + "\n"
      }
      for argument in command.arguments {
        page += ".TP\n.I \(argument.name)\n" + escape(argument.help) + "\n"
      }
      page += command.options.map(optionItem).joined()
    }
    page += ".SH CONFIGURATION\n"
    page +=
      escape(
        "A configuration file (-c FILE) is JSON; every key is optional, an unknown key is an error naming it. "
          + "Durations are in milliseconds, angles in degrees; defaults in parentheses.") + "\n"
    for key in ConfigurationFile.keys {
      page += ".TP\n.B \(escape(key.path))\n\(escape(key.meaning))\n"
    }
    page += ".SH EXAMPLES\n"
    for example in examples {
      page += ".TP\n.B \(escape(example.command))\n\(escape(example.meaning))\n"
    }
    page += ".SH EXIT STATUS\n"
    for status in exitStatuses {
      page += ".TP\n.B \(status.code.rawValue)\n\(escape(status.meaning))\n"
    }
    page += """
      .SH FILES
      Trace lines, cue lines, the configuration file and the
      .B \\-\\-summary\\-json
      file are described by the JSON Schemas in the repository's
      .I Schemas
      folder.
      .SH SEE ALSO
      The README and Docs/ in the Crease repository.

      """
    return page
  }

  /// A tagged paragraph for one option: its spellings in bold, its value in italics.
  private static func optionItem(_ option: CommandDescription.Option) -> String {
    let spellings = option.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
    let value = option.valueName.map { " \\fI\($0)\\fR" } ?? ""
    return ".TP\n\(spellings)\(value)\n\(escape(option.help))\n"
  }

  /// Text made safe for roff: backslashes escaped, hyphens as minus signs where they start an
  /// option, and a line that would start with a control character guarded.
  static func escape(_ text: String) -> String {
    var escaped = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
    if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
    return escaped
  }
}
