/// Renders help and usage text in swift-argument-parser's layout.
enum HelpFormatter {
  static let labelWidth = 26
  /// Help is wrapped to a terminal's classic width.
  static let width = 80

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
    var text = wrap("OVERVIEW: \(command.abstract)", width: width, indent: 0) + "\n"
    if let discussion = command.discussion {
      for paragraph in paragraphs(discussion) { text += wrap(paragraph, width: width, indent: 0) + "\n" }
    }
    text += wrap("USAGE: \(usage(command, path: path))", width: width, indent: 2)
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
      "Error: \(error.message.escapingControlCharacters)\nUsage: \(usage(command, path: path))\n  See '\(fullPath) --help' for more information.\n"
  }

  private static func row(_ label: String, _ help: String) -> String {
    let indented = "  " + label
    let help = wrap(String(repeating: " ", count: labelWidth) + help, width: width, indent: labelWidth)
    guard indented.count < labelWidth else { return indented + "\n" + help }
    return indented + help.dropFirst(indented.count)
  }

  /// A discussion's paragraphs (separated by blank lines), each joined into one line.
  static func paragraphs(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .split(whereSeparator: { $0.allSatisfy(\.isWhitespace) })
      .map { lines in lines.joined(separator: " ") }
  }

  /// `text` broken at spaces into lines of at most `width` columns (a longer word stands alone),
  /// continuation lines indented by `indent`, each line ending in a newline.
  static func wrap(_ text: String, width: Int, indent: Int) -> String {
    var result = ""
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if line.isEmpty || line.allSatisfy({ $0 == " " }) {
        line += word.isEmpty ? " " : word
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        result += line + "\n"
        line = String(repeating: " ", count: indent) + word
      }
    }
    return result + line + "\n"
  }
}
