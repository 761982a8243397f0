import CreaseIO

/// `crease help`: help for the program or a subcommand, or the whole manual page.
enum HelpCommand: Subcommand {
  static let manOption = CommandDescription.Option(
    ["--man"], help: "Print the manual page, crease(1), as roff (man -l - reads it).")

  static let description = CommandDescription(
    name: "help",
    abstract: "Show help for crease or one of its subcommands.",
    arguments: [
      .init("subcommand", help: "The subcommand to explain.", isOptional: true, completion: .subcommands)
    ],
    options: [manOption])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    if arguments.flag(manOption) {
      try streams.output.write(ManPage.render(CreaseCommand.description, version: CreaseCommand.version))
      return .success
    }
    guard let name = arguments.positionals.first else {
      try streams.output.write(HelpFormatter.help(CreaseCommand.description, path: ["crease"]))
      return .success
    }
    guard let command = CreaseCommand.subcommand(named: name) else {
      throw CreaseCommand.unknownSubcommand(name)
    }
    try streams.output.write(HelpFormatter.help(command.description, path: ["crease", name]))
    return .success
  }
}
