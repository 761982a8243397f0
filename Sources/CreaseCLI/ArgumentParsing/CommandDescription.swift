/// A command's interface, declared once: the parser, the help text and the "did you mean"
/// suggestions all come from it (after swift-argument-parser's conventions).
public struct CommandDescription: Sendable {
  /// An option: a flag, or one that takes a value.
  public struct Option: Sendable {
    /// Spellings, short first: `["-c", "--config"]`.
    public var names: [String]
    /// The value's placeholder (`file`), or `nil` for a flag.
    public var valueName: String?
    public var help: String
    /// Must be given (an option that takes a value).
    public var isRequired: Bool

    public init(_ names: [String], value valueName: String? = nil, isRequired: Bool = false, help: String) {
      self.names = names
      self.valueName = valueName
      self.isRequired = isRequired
      self.help = help
    }

    /// The long spelling, which keys the parsed value.
    public var key: String { names.last! }

    /// `-h`/`--help`, which every command takes.
    public static let help = Option(["-h", "--help"], help: "Show help information.")
  }

  /// A positional argument.
  public struct Argument: Sendable {
    public var name: String
    public var help: String
    /// Takes one or more values (`<trace> ...`).
    public var isRepeating: Bool
    public var isOptional: Bool

    public init(_ name: String, help: String, isRepeating: Bool = false, isOptional: Bool = false) {
      self.name = name
      self.help = help
      self.isRepeating = isRepeating
      self.isOptional = isOptional
    }
  }

  public var name: String
  public var abstract: String
  public var discussion: String?
  public var arguments: [Argument]
  public var options: [Option]
  public var subcommands: [CommandDescription]

  public init(
    name: String, abstract: String, discussion: String? = nil, arguments: [Argument] = [],
    options: [Option] = [], subcommands: [CommandDescription] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options + [.help]
    self.subcommands = subcommands
  }

  /// The option spelled `spelling`, if any.
  func option(named spelling: String) -> Option? { options.first { $0.names.contains(spelling) } }
}
