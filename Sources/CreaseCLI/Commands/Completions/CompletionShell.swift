/// The shells `crease completions` writes scripts for.
enum CompletionShell: String, CaseIterable {
  case bash
  case zsh
  case fish

  /// The completion script for `program` and its subcommands.
  func script(for program: CommandDescription) -> String {
    switch self {
    case .bash: BashCompletion.script(for: program)
    case .zsh: ZshCompletion.script(for: program)
    case .fish: FishCompletion.script(for: program)
    }
  }
}

extension CommandDescription.Completion {
  /// The words to offer, with subcommands resolved against `program`; `nil` for files,
  /// directories and nothing.
  func words(in program: CommandDescription) -> [String]? {
    switch self {
    case .values(let words): words
    case .subcommands: program.subcommands.map(\.name)
    case .file, .files, .directory, .none: nil
    }
  }
}

/// Quoting for the scripts: single quotes, with any single quote closed, escaped and reopened.
func shellQuoted(_ text: String) -> String {
  "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
}
