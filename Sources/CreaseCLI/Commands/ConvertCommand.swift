import Crease
import CreaseIO

/// `crease convert`: JSON Lines ⇄ binary, by extension.
enum ConvertCommand: Subcommand {
  static let description = CommandDescription(
    name: "convert",
    abstract: "Convert a trace between JSON Lines and the binary format, by extension.",
    discussion: """
      A path ending in .crtrace is binary and one ending in .jsonl JSON Lines; any other name
      needs '--to'. Standard input ('-') is recognised by the binary format's magic; standard
      output ('-o -') is JSON Lines unless '--to binary'. Every record is carried over losslessly, in order; bad records are
      reported as FILE:LINE:COL and skipped (exit 65).
      """,
    arguments: [
      .init(
        "input", help: "The trace to read ('-', or none, for standard input).", completion: .traces,
        readsStandardInputWhenOmitted: true)
    ],
    options: [outputOption, TraceOutputFormat.option, binaryVersionOption])

  static let outputOption = CommandDescription.Option(
    ["-o", "--output"], value: "file", isRequired: true, help: "The trace to write ('-' for standard output)."
  )
  static let binaryVersionOption = CommandDescription.Option(
    ["--binary-version"], value: "n",
    completion: .values(BinaryTraceFormat.readableVersions.map(String.init)),
    help: """
      The binary format version to write: 2 (the default) or 1, for readers that know only \
      version 1.
      """)

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let path = arguments.value(outputOption)!  // a required option: the parser checked it
    let format = try TraceOutputFormat.resolve(arguments, output: path)
    let versions = BinaryTraceFormat.readableVersions
    let version =
      try arguments.value(
        binaryVersionOption, as: "\(versions.lowerBound) or \(versions.upperBound)",
        { UInt16($0).flatMap { versions.contains($0) ? $0 : nil } }) ?? BinaryTraceFormat.version
    try OutputPaths.refuseOverlaps([("--output", path)], inputs: arguments.positionals, streams: streams)
    let source = try TraceInputs.open(arguments.positionals, streams: streams)[0]
    let target = try OutputTarget(path, streams: streams)
    let result = try TraceConverter.convert(
      source, to: target.sink, binary: format == .binary ? version : nil, diagnostics: streams.error)
    try target.commit()
    return result.rejected > 0 ? .dataError : .success
  }
}
