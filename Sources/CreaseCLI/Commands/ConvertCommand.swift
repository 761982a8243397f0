import Crease
import CreaseIO

/// `crease convert`: JSON Lines ⇄ binary, by extension.
enum ConvertCommand: Subcommand {
  static let description = CommandDescription(
    name: "convert",
    abstract: "Convert a trace between JSON Lines and the binary format, by extension.",
    discussion: """
      A path ending in .crtrace is binary; anything else is JSON Lines. Every record is carried
      over losslessly, in order; bad records are reported as FILE:LINE:COL and skipped (exit 65).
      """,
    arguments: [.init("input", help: "The trace to read ('-' for standard input, JSON Lines).")],
    options: [outputOption])

  static let outputOption = CommandDescription.Option(
    ["-o", "--output"], value: "file", isRequired: true, help: "The trace to write.")

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let path = arguments.value(outputOption)!  // a required option: the parser checked it
    try OutputPaths.refuseOverlaps([("--output", path)], inputs: arguments.positionals)
    let source = try TraceInputs.open(arguments.positionals, streams: streams)[0]
    let file = try ReplacedFile(path: path)
    let result = try TraceConverter.convert(
      source, to: file.sink, binary: BinaryTraceFormat.isBinary(path: path), diagnostics: streams.error)
    try file.commit()
    return result.rejected > 0 ? .dataError : .success
  }
}
