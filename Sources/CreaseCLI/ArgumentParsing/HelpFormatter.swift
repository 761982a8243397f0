/// Renders help and usage text in swift-argument-parser's layout.
enum HelpFormatter {
  static let labelWidth = 26

  /// `crease replay [<options>] <trace> ...`
  static func usage(_ command: CommandDescription, path: [String]) -> String {
    var parts = path
    for option in command.options where option.isRequired {
      parts.append("\(option.names[0]) <\(option.valueName ?? "value")>")
    }
    if command.options.contains(where: { !$0.isRequired && $0.key != "--help" }) {
      parts.append("[<options>]")
    }
    for argument in command.arguments {
      var text = "<\(argument.name)>" + (argument.isRepeating ? " ..." : "")
      if argument.isOptional { text = "[\(text)]" }
      parts.append(text)
    }
    if !command.subcommands.isEmpty { parts.append("<subcommand>") }
    return parts.joined(separator: " ")
  }

  /// The full help: overview, usage, arguments, options, subcommands.
  static func help(_ command: CommandDescription, path: [String]) -> String {
    var text = "OVERVIEW: \(command.abstract)\n\n"
    if let discussion = command.discussion { text += discussion + "\n\n" }
    text += "USAGE: \(usage(command, path: path))\n"
    if !command.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in command.arguments { text += row("<\(argument.name)>", argument.help) }
    }
    text += "\nOPTIONS:\n"
    for option in command.options {
      let label = option.names.joined(separator: ", ") + (option.valueName.map { " <\($0)>" } ?? "")
      text += row(label, option.help)
    }
    if !command.subcommands.isEmpty {
      text += "\nSUBCOMMANDS:\n"
      for subcommand in command.subcommands { text += row(subcommand.name, subcommand.abstract) }
      text += "\n  See '\(path.joined(separator: " ")) help <subcommand>' for detailed help.\n"
    }
    return text
  }

  /// `Error: …` and the usage, as a usage error prints them on standard error.
  static func usageError(_ error: UsageError, _ command: CommandDescription, path: [String]) -> String {
    let fullPath = path.joined(separator: " ")
    return
      "Error: \(error.message)\nUsage: \(usage(command, path: path))\n  See '\(fullPath) --help' for more information.\n"
  }

  private static func row(_ label: String, _ help: String) -> String {
    let indented = "  " + label
    if indented.count < labelWidth {
      return indented + String(repeating: " ", count: labelWidth - indented.count) + help + "\n"
    }
    return indented + "\n" + String(repeating: " ", count: labelWidth) + help + "\n"
  }
}
