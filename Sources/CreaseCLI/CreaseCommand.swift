import Crease
import CreaseIO

/// The `crease` command line, as a function of its arguments and streams.
public enum CreaseCommand {
  /// The version `--version` prints, the one every summary records.
  public static let version = Provenance.creaseVersion

  static let subcommands: [any Subcommand.Type] = [
    ReplayCommand.self, SynthCommand.self, ScenariosCommand.self, CheckCommand.self, StatsCommand.self,
    ConvertCommand.self, PlotCommand.self, BatchCommand.self, ReportCommand.self, CompareCommand.self,
    SweepCommand.self, ImportCommand.self,
    CompletionsCommand.self,
    HelpCommand.self,
  ]

  static let description = CommandDescription(
    name: "crease",
    abstract: "Turn folding-iPhone hinge and camera traces into effect cues and mirroring decisions.",
    options: [.init(["--version"], help: "Show the version.")],
    subcommands: subcommands.map { $0.description })

  /// Runs `crease` with `arguments` (without the program name) and returns the exit status.
  public static func run(_ arguments: [String], streams: StandardStreams) -> ExitCode {
    let status = dispatch(arguments, streams: streams)
    // Output is buffered: a full disk or a closed pipe may only show here, and must not pass
    // for success.
    do {
      try streams.output.flush()
    } catch {
      return report("crease: \(error)", .ioError, streams)
    }
    try? streams.error.flush()
    return status
  }

  private static func dispatch(_ arguments: [String], streams: StandardStreams) -> ExitCode {
    // `crease` alone explains itself, like `crease --help`.
    guard let first = arguments.first else {
      return write(HelpFormatter.help(description, path: ["crease"]), to: streams)
    }
    switch first {
    case "-h", "--help":
      return write(HelpFormatter.help(description, path: ["crease"]), to: streams)
    case "--version":
      return write("\(version)\n", to: streams)
    default:
      guard let command = subcommand(named: first) else {
        let error = first.hasPrefix("-") ? description.unknownOption(first) : unknownSubcommand(first)
        return usageError(error, description, path: ["crease"], streams)
      }
      return run(command, Array(arguments.dropFirst()), streams)
    }
  }

  static func subcommand(named name: String) -> (any Subcommand.Type)? {
    subcommands.first { $0.description.name == name }
  }

  static func unknownSubcommand(_ name: String) -> UsageError {
    let names = subcommands.map { $0.description.name }
    return UsageError("Unknown subcommand '\(name)'.\(Suggestion.didYouMean(name, in: names))")
  }

  private static func run(_ command: any Subcommand.Type, _ arguments: [String], _ streams: StandardStreams)
    -> ExitCode
  {
    let path = ["crease", command.description.name]
    do {
      let parsed = try command.description.parse(arguments, standardInputIsTerminal: streams.input.isTerminal)
      if parsed.flag(.help) {
        return write(HelpFormatter.help(command.description, path: path), to: streams)
      }
      return try command.run(parsed, streams: streams)
    } catch let error as UsageError {
      return usageError(error, command.description, path: path, streams)
    } catch let error as ConfigurationFile.Error {
      return report("\(error)", .configuration, streams)
    } catch let error as InputError {
      return report("\(error)", .dataError, streams)
    } catch let error as IOError where error.kind == .readerClosed {
      // The tool a socket fed has had enough: the run ends there, as `head` ends a pipe.
      return .success
    } catch let error as IOError {
      return report("crease: \(error)", error.kind == .missingInput ? .noInput : .ioError, streams)
    } catch {
      return report("crease: \(error)", .failure, streams)
    }
  }

  private static func usageError(
    _ error: UsageError, _ command: CommandDescription, path: [String], _ streams: StandardStreams
  ) -> ExitCode {
    report(HelpFormatter.usageError(error, command, path: path), .usage, streams, newline: false)
  }

  private static func report(
    _ text: String, _ status: ExitCode, _ streams: StandardStreams, newline: Bool = true
  ) -> ExitCode {
    try? streams.error.write(newline ? text + "\n" : text)
    return status
  }

  private static func write(_ text: String, to streams: StandardStreams) -> ExitCode {
    do {
      try streams.output.write(text)
      return .success
    } catch {
      return report("crease: \(error)", .ioError, streams)
    }
  }
}
