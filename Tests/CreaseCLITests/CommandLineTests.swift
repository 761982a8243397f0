import CreaseCLI
import Testing

@Suite("Command line: help and usage errors")
struct CommandLineUsageTests {
  @Test("help has the OVERVIEW, USAGE, OPTIONS and SUBCOMMANDS sections, on stdout, exit 0")
  func rootHelp() {
    for arguments in [["--help"], ["-h"], ["help"]] {
      let run = CreaseRun(arguments)
      #expect(run.status == .success)
      #expect(run.output.hasPrefix("OVERVIEW: "))
      for section in [
        "USAGE: crease [<options>] <subcommand>", "OPTIONS:", "SUBCOMMANDS:", "  replay", "  check",
        "  stats",
      ] {
        #expect(run.output.contains(section), "missing \(section)")
      }
      #expect(run.error.isEmpty)
    }
  }

  @Test("'help replay' and 'replay --help' print the same help")
  func subcommandHelp() {
    let viaHelp = CreaseRun("help", "replay")
    let viaFlag = CreaseRun("replay", "--help")
    #expect(viaHelp.status == .success)
    #expect(viaHelp.output == viaFlag.output)
    #expect(viaHelp.output.contains("USAGE: crease replay [<options>] <trace> ..."))
    #expect(viaHelp.output.contains("  -f, --format <format>   Cue format"))
  }

  @Test("--version prints the version")
  func version() {
    let run = CreaseRun("--version")
    #expect(run.status == .success)
    #expect(run.output == CreaseCommand.version + "\n")
  }

  @Test(
    "usage errors print Error and the usage on stderr and exit 64",
    arguments: [
      (["replya"], "Error: Unknown subcommand 'replya'. Did you mean 'replay'?"),
      (["replay", "--sumary", "x"], "Error: Unknown option '--sumary'. Did you mean '--summary'?"),
      (["replay", "-c"], "Error: Missing value for '-c <file>'."),
      (["replay"], "Error: Missing expected argument '<trace> ...'."),
      (
        ["replay", "-f", "jsn", "x"],
        "Error: The value 'jsn' is invalid for '--format': expected one of jsonl, text. Did you mean 'jsonl'?"
      ),
      (["replay", "--strict=yes", "x"], "Error: The flag '--strict' takes no value."),
      (["replay", "-", "-"], "Error: Standard input ('-') can be read only once."),
      ([], "Error: Missing a subcommand."),
      (["--verison"], "Error: Unknown option '--verison'. Did you mean '--version'?"),
      (["help", "chek"], "Error: Unknown subcommand 'chek'. Did you mean 'check'?"),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) {
    let run = CreaseRun(arguments)
    #expect(run.status == .usage)
    #expect(run.error.hasPrefix(message + "\n"), "\(run.error)")
    #expect(run.error.contains("Usage: crease"))
    #expect(run.output.isEmpty)
  }

  @Test("a missing trace exits 66 and names it")
  func missingInput() {
    let run = CreaseRun("replay", "/nonexistent/trace.jsonl")
    #expect(run.status == .noInput)
    #expect(run.error.contains("/nonexistent/trace.jsonl: No such file or directory"))
  }

  @Test("a bad configuration exits 78 and names the key")
  func badConfiguration() throws {
    let directory = temporaryDirectory()
    try write(#"{"hinge": {"statusMaxWaitMs": "soon"}}"#, to: "\(directory)/bad.json")
    let run = CreaseRun("replay", "-c", "\(directory)/bad.json", tracePath("every-kind.jsonl"))
    #expect(run.status == .configuration)
    #expect(
      run.error.contains("bad.json:1:31: error: 'hinge.statusMaxWaitMs' must be a number, not a string"))
    #expect(run.output.isEmpty)
  }
}
