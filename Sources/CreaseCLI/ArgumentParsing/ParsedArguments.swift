import CreaseIO

/// A command line that a usage error stops: the message, shown as `Error: …` before the usage.
public struct UsageError: Error, Hashable, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
}

/// The values of one command line, after parsing against a ``CommandDescription``.
///
/// Values are read through the ``CommandDescription/Option`` a command declared, never by a
/// spelled-out key, so an option is named once and a misspelling does not compile.
public struct ParsedArguments: Sendable {
  /// Values per option, keyed by long name, in command-line order.
  var values: [String: [String]] = [:]
  /// Positional arguments, in order.
  public var positionals: [String] = []

  /// Whether the flag was given.
  public func flag(_ option: CommandDescription.Option) -> Bool { values[option.key] != nil }

  /// The option's last value (a later repetition overrides an earlier one).
  public func value(_ option: CommandDescription.Option) -> String? { values[option.key]?.last }

  /// Every value given for `option`, in order (an option that may be given more than once).
  public func allValues(_ option: CommandDescription.Option) -> [String] { values[option.key] ?? [] }

  /// The option's value converted by `convert`, or a usage error naming the option.
  public func value<T>(
    _ option: CommandDescription.Option, as what: String, _ convert: (String) -> T?
  ) throws(UsageError) -> T? {
    guard let text = value(option) else { return nil }
    guard let converted = convert(text) else {
      throw UsageError("The value '\(text)' is invalid for '\(option.key)': expected \(what).")
    }
    return converted
  }

  /// A value that must name one of `choices`.
  public func choice<T: RawRepresentable & CaseIterable>(
    _ option: CommandDescription.Option, of type: T.Type
  ) throws(UsageError) -> T? where T.RawValue == String {
    guard let text = value(option) else { return nil }
    guard let choice = T(rawValue: text) else {
      let names = T.allCases.map(\.rawValue)
      throw UsageError(
        "The value '\(text)' is invalid for '\(option.key)': expected one of \(names.joined(separator: ", "))."
          + Suggestion.didYouMean(text, in: names))
    }
    return choice
  }
}

extension CommandDescription {
  /// Parses `arguments` (after the command's name) against this description.
  /// - Parameter standardInputIsTerminal: whether standard input is a terminal: when not, an
  ///   omitted argument that ``Argument/readsStandardInputWhenOmitted`` is `-`.
  func parse(_ arguments: [String], standardInputIsTerminal: Bool = true) throws(UsageError)
    -> ParsedArguments
  {
    var parsed = ParsedArguments()
    var remaining = arguments[...]
    var optionsEnded = false
    while let argument = remaining.popFirst() {
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      let (spelling, attached) = Self.split(argument)
      guard let option = option(named: spelling) else { throw unknownOption(spelling) }
      if let valueName = option.valueName {
        guard let value = attached ?? remaining.popFirst() else {
          throw UsageError("Missing value for '\(spelling) <\(valueName)>'.")
        }
        parsed.values[option.key, default: []].append(value)
      } else {
        guard attached == nil else { throw UsageError("The flag '\(spelling)' takes no value.") }
        parsed.values[option.key, default: []].append("")
      }
    }
    if parsed.flag(.help) { return parsed }
    if let missing = options.first(where: { $0.isRequired && parsed.values[$0.key] == nil }) {
      throw UsageError("Missing expected option '\(missing.names[0]) <\(missing.valueName ?? "value")>'.")
    }
    if parsed.positionals.isEmpty, !standardInputIsTerminal,
      self.arguments.first?.readsStandardInputWhenOmitted == true
    {
      parsed.positionals = ["-"]
    }
    try checkPositionals(parsed.positionals)
    return parsed
  }

  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private func checkPositionals(_ positionals: [String]) throws(UsageError) {
    let required = arguments.filter { !$0.isOptional }
    if positionals.count < required.count {
      let missing = required[positionals.count]
      throw UsageError("Missing expected argument '<\(missing.name)>\(missing.isRepeating ? " ..." : "")'.")
    }
    if arguments.last?.isRepeating != true, positionals.count > arguments.count {
      throw UsageError("Unexpected argument '\(positionals[arguments.count])'.")
    }
  }
}
