import CreaseIO

/// A command's interface, declared once: the parser, the help text and the "did you mean"
/// suggestions all come from it (after swift-argument-parser's conventions).
public struct CommandDescription: Sendable {
  /// What a shell offers to complete a value with.
  public enum Completion: Sendable, Equatable {
    /// File names.
    case file
    /// Names of files with one of these extensions (without the dot), and directories.
    case files(extensions: [String])

    /// Trace files: JSON Lines and binary.
    public static let traces = Completion.files(extensions: ["jsonl", "crtrace"])
    /// Directory names.
    case directory
    /// One of these words.
    case values([String])
    /// The name of a subcommand of the program.
    case subcommands
    /// Nothing to offer (a number).
    case none
  }

  /// An option: a flag, or one that takes a value.
  public struct Option: Sendable {
    /// Spellings, short first: `["-c", "--config"]`.
    public var names: [String]
    /// The value's placeholder (`file`), or `nil` for a flag.
    public var valueName: String?
    public var help: String
    /// Must be given (an option that takes a value).
    public var isRequired: Bool
    /// What completes the value; a value named `file` completes file names unless told.
    public var completion: Completion

    public init(
      _ names: [String], value valueName: String? = nil, isRequired: Bool = false,
      completion: Completion? = nil, help: String
    ) {
      self.names = names
      self.valueName = valueName
      self.isRequired = isRequired
      self.completion = completion ?? (valueName == "file" ? .file : .none)
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
    /// What completes the argument (file names unless told).
    public var completion: Completion
    /// Whether an omitted argument reads standard input (`-`) when that is not a terminal, as
    /// `jq` does: `crease replay < trace.jsonl`.
    public var readsStandardInputWhenOmitted: Bool

    public init(
      _ name: String, help: String, isRepeating: Bool = false, isOptional: Bool = false,
      completion: Completion = .file, readsStandardInputWhenOmitted: Bool = false
    ) {
      self.readsStandardInputWhenOmitted = readsStandardInputWhenOmitted
      self.name = name
      self.help = help
      self.isRepeating = isRepeating
      self.isOptional = isOptional
      self.completion = completion
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

  /// The error for an option this command does not take, with the likeliest meant one: for a
  /// one-letter `-V`, the only long option starting with that letter (`--version`); otherwise the
  /// closest spelling.
  func unknownOption(_ spelling: String) -> UsageError {
    let spellings = options.flatMap(\.names)
    var suggestion = Suggestion.didYouMean(spelling, in: spellings)
    if spelling.count == 2, spelling.hasPrefix("-"), spelling != "--" {
      let letter = spelling.dropFirst().lowercased()
      let long = options.filter { $0.names.count == 1 && $0.key.dropFirst(2).lowercased().hasPrefix(letter) }
      if long.count == 1 { suggestion = " Did you mean '\(long[0].key)'?" }
    }
    return UsageError("Unknown option '\(spelling)'.\(suggestion)")
  }
}
