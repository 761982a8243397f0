import CreaseIO

/// `crease completions`: a shell completion script, generated from the command descriptions.
enum CompletionsCommand: Subcommand {
  static let description = CommandDescription(
    name: "completions",
    abstract: "Print a completion script for bash, zsh or fish.",
    discussion: """
      bash: source it, or save it as /usr/share/bash-completion/completions/crease.
      zsh: save it as _crease in a folder on $fpath. fish: save it as
      ~/.config/fish/completions/crease.fish. 'make install' installs all three.
      """,
    arguments: [
      .init(
        "shell", help: "bash, zsh or fish.", completion: .values(CompletionShell.allCases.map(\.rawValue)))
    ])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let name = arguments.positionals[0]
    guard let shell = CompletionShell(rawValue: name) else {
      let names = CompletionShell.allCases.map(\.rawValue)
      throw UsageError(
        "Unknown shell '\(name)': expected one of \(names.joined(separator: ", ")).\(Suggestion.didYouMean(name, in: names))"
      )
    }
    try streams.output.write(shell.script(for: CreaseCommand.description))
    return .success
  }
}
