import CreaseCLI
import CreaseIO
import Testing

@Suite("Command line: help and usage errors")
struct CommandLineUsageTests {
  @Test("help has the OVERVIEW, USAGE, OPTIONS and SUBCOMMANDS sections, on stdout, exit 0")
  func rootHelp() {
    for arguments in [[], ["--help"], ["-h"], ["help"]] {
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

  @Test("'help help' explains help, and every line of every help fits in 80 columns")
  func helpOfHelp() {
    let run = CreaseRun("help", "help")
    #expect(run.status == .success)
    #expect(run.output.contains("USAGE: crease help [<options>] [<subcommand>]"))
    #expect(run.output.contains("  --man "))
    for name in [
      "help", "replay", "synth", "scenarios", "check", "stats", "convert", "plot", "batch", "report",
      "completions",
    ] {
      for line in CreaseRun("help", name).output.split(separator: "\n") {
        #expect(line.count <= 80, "crease help \(name): \(line)")
      }
    }
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
        "Error: The value 'jsn' is invalid for '--format': expected one of jsonl, text, chrome. Did you mean 'jsonl'?"
      ),
      (["replay", "--strict=yes", "x"], "Error: The flag '--strict' takes no value."),
      (["replay", "-", "-"], "Error: Standard input ('-') can be read only once."),
      (["-V"], "Error: Unknown option '-V'. Did you mean '--version'?"),
      (
        ["replay", "--speed", "abc", "nosuch.jsonl"],
        "Error: The value 'abc' is invalid for '--speed': expected a number from 0.001."
      ),
      (["--verison"], "Error: Unknown option '--verison'. Did you mean '--version'?"),
      (
        ["replay", "--threads", "0", "x"],
        "Error: The value '0' is invalid for '--threads': expected a whole number from 1."
      ),
      (["help", "chek"], "Error: Unknown subcommand 'chek'. Did you mean 'check'?"),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) {
    // At a terminal: an omitted trace is then missing, not read from standard input.
    let run = CreaseRun(arguments, input: TerminalInput(), output: MemorySink())
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

@Suite("Command line: latency bounds")
struct LatencyBudgetTests {
  @Test("--summary prints each stage's bound and each cue kind's latency percentiles against it")
  func summaryBounds() {
    let run = CreaseRun("replay", "--summary", tracePath("every-kind.jsonl"))
    #expect(run.error.contains("latency bounds (t - since; emission adds the 50.000 ms reorder window):"))
    #expect(run.error.contains("    status debounce: 150.000 ms\n"))
    #expect(run.error.contains("    settle: 300.000 ms\n"))
    #expect(run.error.contains("    progress: 300.000 ms\n"))
    #expect(run.error.contains("    mask: 500.000 ms\n"))
    #expect(run.error.contains("    stall: 3.0 × nominal frame duration (video: 100.000 ms)\n"))
    #expect(run.error.contains("    frame gaps: the gap's own length (camera.stall bounds the wait)\n"))
    #expect(run.error.contains("    cue                 count      p50      p90      p99      max  bound\n"))
    #expect(
      run.error.contains(
        "    hinge.status            1   50.000   50.000   50.000   50.000  150.000 ms (status debounce)\n"))
    #expect(
      run.error.contains(
        "    camera.stall            2  100.000  100.000  100.000  100.000  "
          + "3.0 × nominal frame duration (video: 100.000 ms) (stall)\n"))
    #expect(run.error.contains("  bounds: every cue within its bound\n"))
    #expect(run.error.contains("camera: 0 frame(s) delivered under a stale mirroring decision"))
  }

  @Test("a budget the configuration meets lets the replay run")
  func budgetMet() {
    #expect(CreaseRun("replay", "--latency-budget", "550", tracePath("every-kind.jsonl")).status == .success)
    let mask = CreaseRun("replay", "--latency-budget", "549", tracePath("every-kind.jsonl"))
    #expect(
      mask.error.contains("exceeded by stage 'mask': 500 ms (max(camera.maskMaxMs, hinge.statusMaxWaitMs))"))
  }

  @Test("a budget the configuration exceeds is refused with exit 64, naming the stage")
  func budgetExceeded() {
    let run = CreaseRun("replay", "--latency-budget", "200", tracePath("every-kind.jsonl"))
    #expect(run.status == .usage)
    #expect(
      run.error.hasPrefix(
        "Error: The latency budget of 200 ms is exceeded by stage 'settle': 300 ms "
          + "(max(hinge.settleMs, hinge.statusMaxWaitMs)) + 50 ms reorder window = 350 ms.\n"))
    #expect(run.output.isEmpty)
  }

  @Test("an unbounded status debounce cannot meet any budget")
  func unbounded() throws {
    let directory = temporaryDirectory()
    try write(#"{"hinge": {"statusMaxWaitMs": 0}}"#, to: "\(directory)/c.json")
    let run = CreaseRun(
      "replay", "-c", "\(directory)/c.json", "--latency-budget", "10000", tracePath("every-kind.jsonl"))
    #expect(run.status == .usage)
    #expect(run.error.contains("stage 'status debounce' is unbounded (hinge.statusMaxWaitMs is 0)"))
  }

  @Test("a budget that is not a number is a usage error")
  func badBudget() {
    let run = CreaseRun("replay", "--latency-budget", "soon", tracePath("every-kind.jsonl"))
    #expect(run.status == .usage)
    #expect(
      run.error.hasPrefix(
        "Error: The value 'soon' is invalid for '--latency-budget': expected a number of milliseconds."))
  }
}
