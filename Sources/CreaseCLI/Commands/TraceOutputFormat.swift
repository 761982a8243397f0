import CreaseIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The format of a trace a command writes, told by the output's name (SPEC 6): `.crtrace` is
/// binary, `.jsonl` and `-` JSON Lines; any other name needs `--to`, so a trace is never written
/// in a format its name does not say (`-o day.bin` wrote JSON Lines, which `replay` then
/// refused). A device or a pipe (`/dev/null`, a FIFO) is a stream, like `-`: JSON Lines.
enum TraceOutputFormat: String, CaseIterable {
  case jsonl
  case binary

  /// The `--to` option of a command that writes a trace.
  static let option = CommandDescription.Option(
    ["--to"], value: "format", completion: .values(allCases.map(\.rawValue)),
    help: "The trace format to write, jsonl or binary (default: by the output's extension).")

  /// The format `--to` names, or else the one `path`'s name says.
  /// - Throws: ``UsageError`` for a name that says neither, without `--to`.
  static func resolve(_ arguments: ParsedArguments, output path: String) throws -> TraceOutputFormat {
    try OutputPaths.checkAddress(path, option: "--output")
    if let chosen = try arguments.choice(option, of: TraceOutputFormat.self) { return chosen }
    if BinaryTraceFormat.isBinary(path: path) { return .binary }
    if path == "-" || path.hasSuffix(".jsonl") || isStream(path) || SocketAddress(path) != nil {
      return .jsonl
    }
    throw UsageError(
      "'\(path)' names no trace format: end it in .crtrace (binary) or .jsonl (JSON Lines), or add "
        + "'--to binary' or '--to jsonl'.")
  }

  /// Whether `path` is an existing device or pipe.
  private static func isStream(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    let type = status.st_mode & S_IFMT
    return type == S_IFCHR || type == S_IFIFO
  }
}
