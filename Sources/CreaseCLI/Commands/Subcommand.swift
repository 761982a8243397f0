import Crease
import CreaseIO
import CreaseReports

/// One `crease` subcommand: its declared interface and what it does.
protocol Subcommand: Sendable {
  static var description: CommandDescription { get }
  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode
}

/// The two renderings of a report: for people, or for scripts.
enum TextOrJSON: String, CaseIterable {
  case text
  case json

  /// A command's `-f/--format` option between the two.
  static func option(json: String) -> CommandDescription.Option {
    CommandDescription.Option(
      ["-f", "--format"], value: "format", completion: .values(allCases.map(\.rawValue)),
      help: "text (default) or json (\(json)).")
  }
}

/// The renderings of a table a command writes (`compare`, `sweep`): for people, for scripts,
/// for spreadsheets, for a pull request; and where it goes.
enum TableFormat: String, CaseIterable {
  case text, json, csv, markdown

  static let option = CommandDescription.Option(
    ["-f", "--format"], value: "format", completion: .values(allCases.map(\.rawValue)),
    help: "text (default), json, csv or markdown.")
  static let outputOption = CommandDescription.Option(
    ["-o", "--output"], value: "file", help: "Write to a file ('-' for standard output, the default).")
  static let htmlOption = CommandDescription.Option(
    ["--html"], value: "file", help: "Also write a self-contained HTML page with a chart per cue kind.")

  /// The files the command writes (`-o` and `--html`), each with its option, for
  /// ``OutputPaths/refuseOverlaps(_:inputs:streams:)``.
  static func outputs(_ arguments: ParsedArguments) -> [(String, String)] {
    [("--output", arguments.value(outputOption) ?? "-")]
      + (arguments.value(htmlOption).map { [("--html", $0)] } ?? [])
  }

  /// Writes the rendering `arguments` ask for: `text` for people (the table and whatever it
  /// says after it), `table` as CSV, `markdown` (the table's own unless given), or `json`;
  /// only the one asked for is made (a report's every rendering of 10,000 rows at once was
  /// most of its memory).
  static func write(
    _ arguments: ParsedArguments, streams: StandardStreams, text: @autoclosure () -> String,
    table: @autoclosure () -> TextTable, markdown: @autoclosure () -> String? = nil,
    json: @autoclosure () -> JSONDocument, html: () -> String
  ) throws {
    let format = try arguments.choice(option, of: TableFormat.self) ?? .text
    if let path = arguments.value(htmlOption) {
      let page = try OutputTarget(path, streams: streams)
      try page.sink.write(html())
      try page.commit()
    }
    let target = try OutputTarget(arguments.value(outputOption) ?? "-", streams: streams)
    switch format {
    case .text: try target.sink.write(text())
    case .json: try json().write(to: target.sink)
    case .csv: try target.sink.write(table().csv)
    case .markdown: try target.sink.write(markdown() ?? table().markdown)
    }
    try target.commit()
  }
}

/// Helpers the trace-reading subcommands share.
enum TraceInputs {
  static let configOption = CommandDescription.Option(
    ["-c", "--config"], value: "file", help: "A JSON configuration file (keys in crease(1), CONFIGURATION).")

  static let traceArgument = CommandDescription.Argument(
    "trace",
    help: "Trace files (JSON Lines or .crtrace), merged by t; '-', or none, reads standard input.",
    isRepeating: true, completion: .traces, readsStandardInputWhenOmitted: true)

  /// The configuration named by `--config`, or the defaults.
  static func configuration(_ arguments: ParsedArguments) throws -> Configuration {
    guard let path = arguments.value(configOption) else { return .default }
    return try ConfigurationFile.read(try FileSource(path: path))
  }

  static let speedOption = CommandDescription.Option(
    ["--speed"], value: "x", help: "Pace the output: 1 is real time, 10 ten times faster.")

  /// The slowest pace `--speed` takes: slower, a second of trace would take over 16 minutes, and
  /// near 0 the schedule would run past the end of time (a paced run that never ends).
  static let slowestSpeed = 0.001

  /// The `--speed` value, if given: a finite number from ``slowestSpeed``.
  static func speed(_ arguments: ParsedArguments) throws(UsageError) -> Double? {
    try arguments.value(speedOption, as: "a number from \(slowestSpeed)") { text in
      Double(text).flatMap { $0 >= slowestSpeed && $0.isFinite ? $0 : nil }
    }
  }

  /// Opens every trace before any is read, so a missing file fails before output starts; a
  /// movie is refused in one line that names `crease import`.
  static func open(_ paths: [String], streams: StandardStreams) throws -> [ByteSource] {
    try open(paths, streams: streams, digesting: false).sources
  }

  /// Opens `paths` one after another as ``open(_:streams:)`` does, each handed to `body` and
  /// let go before the next opens: a command that folds many files as it reads them holds one
  /// open at a time, whatever the limit on open files.
  static func forEach(_ paths: [String], streams: StandardStreams, _ body: (ByteSource) throws -> Void) throws
  {
    guard paths.filter({ $0 == "-" }).count <= 1 else {
      throw UsageError("Standard input ('-') can be read only once.")
    }
    for path in paths { try body(try open([path], streams: streams)[0]) }
  }

  /// Opens every trace as ``open(_:streams:)`` does, each digested as it is read, for a
  /// summary to name it by size and content.
  static func openDigesting(_ paths: [String], streams: StandardStreams) throws
    -> (sources: [ByteSource], digests: [DigestingSource])
  {
    try open(paths, streams: streams, digesting: true)
  }

  /// Opens one recording, or standard input, with what it holds told by its first bytes.
  static func openRecording(_ path: String, streams: StandardStreams) throws -> SniffedSource {
    try SniffedSource(path == "-" ? streams.input : try FileSource(path: path))
  }

  private static func open(_ paths: [String], streams: StandardStreams, digesting: Bool) throws
    -> (sources: [ByteSource], digests: [DigestingSource])
  {
    guard paths.filter({ $0 == "-" }).count <= 1 else {
      throw UsageError("Standard input ('-') can be read only once.")
    }
    var digests: [DigestingSource] = []
    let sources = try paths.map { path -> ByteSource in
      var source: ByteSource = path == "-" ? streams.input : try FileSource(path: path)
      // Digesting costs an instruction a byte: only where a summary names the trace.
      if digesting {
        let digest = DigestingSource(source)
        digests.append(digest)
        source = digest
      }
      // A read of standard input or a pipe cannot be taken back, and it has no extension to
      // tell its format: its first bytes are read ahead once. A regular file keeps its
      // extension's say and is probed by a second open.
      let content: InputContent
      if path == "-" || source.isLive {
        let sniffed = try SniffedSource(source)
        (content, source) = (sniffed.content, sniffed)
      } else {
        content = try SniffedSource(FileSource(path: path)).content
      }
      guard content != .movie else {
        throw InputError(
          path: source.name,
          message: "a QuickTime or MP4 movie, not a trace: 'crease import \(path)' makes it one")
      }
      return source
    }
    return (sources, digests)
  }
}
