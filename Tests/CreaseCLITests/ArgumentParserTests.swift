import Testing

@testable import CreaseCLI

@Suite("Argument parser")
struct ArgumentParserTests {
  static let output = CommandDescription.Option(["-o", "--output"], value: "file", help: "Output.")
  static let loud = CommandDescription.Option(["--loud"], help: "A flag.")
  let command = CommandDescription(
    name: "demo", abstract: "A command for tests.",
    arguments: [.init("file", help: "Files.", isRepeating: true)], options: [output, loud])

  @Test("values attach with '=' or follow the option; the last repetition wins")
  func values() throws {
    let parsed = try command.parse(["--output=a", "x", "-o", "b", "--loud", "y"])
    #expect(parsed.value(Self.output) == "b")
    #expect(parsed.flag(Self.loud))
    #expect(parsed.positionals == ["x", "y"])
  }

  @Test("'--' ends the options and '-' is a positional")
  func terminator() throws {
    let parsed = try command.parse(["-", "--", "--loud"])
    #expect(parsed.positionals == ["-", "--loud"])
    #expect(!parsed.flag(Self.loud))
  }

  @Test("--help skips the checks on positionals")
  func helpWithoutArguments() throws {
    #expect(try command.parse(["--help"]).flag(.help))
    #expect(throws: UsageError("Missing expected argument '<file> ...'.")) { try command.parse([]) }
  }

  @Test("typed values name the option when they do not convert")
  func typedValue() throws {
    let parsed = try command.parse(["-o", "fast", "x"])
    #expect(throws: UsageError("The value 'fast' is invalid for '--output': expected a number.")) {
      try parsed.value(Self.output, as: "a number") { Double($0) }
    }
  }

  @Test("help rows align and wrap long labels")
  func helpLayout() {
    let help = HelpFormatter.help(command, path: ["crease", "demo"])
    #expect(help.contains("USAGE: crease demo [<options>] <file> ...\n"))
    #expect(help.contains("  -o, --output <file>     Output.\n"))
    #expect(help.contains("  --loud                  A flag.\n"))
  }
}

@Suite("Argument parser: required options")
struct RequiredOptionTests {
  static let output = CommandDescription.Option(
    ["-o", "--output"], value: "file", isRequired: true, help: "Output.")
  let command = CommandDescription(
    name: "demo", abstract: "A command for tests.", arguments: [.init("file", help: "A file.")],
    options: [output])

  @Test("a required option must be given, and the usage shows it outside the optional ones")
  func required() throws {
    #expect(throws: UsageError("Missing expected option '-o <file>'.")) { try command.parse(["x"]) }
    #expect(try command.parse(["x", "-o", "y"]).value(Self.output) == "y")
    #expect(HelpFormatter.usage(command, path: ["crease", "demo"]) == "crease demo -o <file> <file>")
  }
}
