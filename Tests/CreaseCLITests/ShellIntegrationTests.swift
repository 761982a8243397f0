import Foundation
import Testing

@testable import CreaseCLI

/// Runs `script` in `shell` and returns its standard output, or nil when the shell is missing.
func runShell(_ shell: String, _ arguments: [String], script: String) throws -> (
  status: Int32, output: String
)? {
  let path = ["/usr/bin/", "/bin/"].map { $0 + shell }.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  guard let path else { return nil }
  let run = try runProcess(path, arguments + [script])
  return (run.status, run.output)
}

@Suite("Command line: completions and the manual page")
struct ShellIntegrationTests {
  /// What the bash completion offers for the words typed so far (the last one being completed).
  func bashOffers(_ words: [String], in folder: String = repositoryRoot) throws -> [String] {
    let script = CreaseRun("completions", "bash").output
    let path = temporaryDirectory() + "/crease.bash"
    try write(script, to: path)
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let run = try #require(
      try runShell(
        "bash", ["-c"],
        script: """
          cd '\(folder)' && source '\(path)' && COMP_WORDS=(\(quoted)) && COMP_CWORD=\(words.count - 1) \
          && _crease && printf '%s\\n' "${COMPREPLY[@]}"
          """))
    #expect(run.status == 0, "\(run.output)")
    return run.output.split(separator: "\n").map(String.init).sorted()
  }

  @Test("bash offers subcommands, options, enum values, scenario names and files")
  func bashCompletion() throws {
    #expect(try bashOffers(["crease", "s"]) == ["scenarios", "stats", "sweep", "synth"])
    #expect(try bashOffers(["crease", "replay", "-f", ""]) == ["chrome", "jsonl", "text"])
    #expect(try bashOffers(["crease", "replay", "--sum"]) == ["--summary", "--summary-json"])
    #expect(try bashOffers(["crease", "synth", "f"]) == ["flip-around", "fold-while-recording"])
    #expect(try bashOffers(["crease", "convert", "x", "--to", ""]) == ["binary", "jsonl"])
    #expect(try bashOffers(["crease", "completions", ""]) == ["bash", "fish", "zsh"])
    #expect(try bashOffers(["crease", "help", "re"]) == ["replay", "report"])
    #expect(try bashOffers(["crease", "replay", "Traces/open-c"]).contains("Traces/open-close.jsonl"))
    #expect(try bashOffers(["crease", "replay", "--speed", ""]) == [])
    #expect(
      try bashOffers(["crease", "sweep", "--set", "hinge.sta"]) == [
        "hinge.statusDebounceMs=", "hinge.statusMaxWaitMs=",
      ])
  }

  @Test("where a trace is expected, bash offers traces and folders, not pictures")
  func bashOffersTraces() throws {
    let folder = temporaryDirectory()
    defer { removeDirectory(folder) }
    for name in ["a.jsonl", "b.crtrace", "c.svg", "d.png"] { try write("", to: "\(folder)/\(name)") }
    try FileManager.default.createDirectory(atPath: "\(folder)/sub", withIntermediateDirectories: false)
    #expect(try bashOffers(["crease", "replay", ""], in: folder) == ["a.jsonl", "b.crtrace", "sub"])
    #expect(try bashOffers(["crease", "plot", ""], in: folder) == ["a.jsonl", "b.crtrace", "sub"])
    // An output may be any file.
    #expect(try bashOffers(["crease", "plot", "a.jsonl", "-o", ""], in: folder).contains("c.svg"))
  }

  @Test("the zsh and fish scripts are valid for their shells, and name every subcommand")
  func zshAndFish() throws {
    for (shell, check) in [("zsh", ["-n", "-c"]), ("fish", ["--no-execute", "-c"])] {
      let script = CreaseRun("completions", shell).output
      for name in ["replay", "synth", "convert", "plot", "completions", "help"] {
        #expect(script.contains(name))
      }
      if let run = try runShell(shell, check, script: script) {
        #expect(run.status == 0, "\(shell): \(run.output)")
      }
    }
    #expect(CreaseRun("completions", "zsh").output.contains("'(-f --format)'{-f,--format}'[Cue format"))
    #expect(CreaseRun("completions", "fish").output.contains("-s f -l format -r -a 'jsonl text chrome'"))
  }

  @Test(
    "replay's and synth's help and the manual page say -o takes a socket", arguments: ["replay", "synth"])
  func socketOutputsDocumented(command: String) {
    let sockets = "(tcp://HOST:PORT, udp://HOST:PORT, unix:PATH)"
    // The help wraps its lines: words are compared, not line breaks.
    let help = CreaseRun("help", command).output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(help.contains("a socket \(sockets)"), "crease help \(command)")
    let page = CreaseRun("help", "--man").output
    let section = page.components(separatedBy: ".SS crease \(command)\n").dropFirst().first ?? ""
    #expect(section.components(separatedBy: ".SS ").first?.contains("a socket \(sockets)") == true)
  }

  @Test("the manual page lists every configuration key of the sample file, and examples that run")
  func manPageConfigurationAndExamples() throws {
    let page = CreaseRun("help", "--man").output
    let sample = try #require(contents(of: "\(repositoryRoot)/Examples/configuration.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(sample.utf8)) as? [String: Any])
    var paths: [String] = []
    for (key, value) in object {
      if let group = value as? [String: Any] {
        paths += group.keys.map { "\(key).\($0)" }
      } else {
        paths.append(key)
      }
    }
    let configuration = try #require(page.range(of: ".SH CONFIGURATION\n")).upperBound
    let section = page[configuration...].prefix { _ in true }.split(separator: ".SH ", maxSplits: 1)[0]
    for path in paths { #expect(section.contains(".B \(path)\n"), "\(path) is not in the manual page") }
    #expect(page.contains(".SH EXAMPLES\n"))
    let subcommands = Set(CreaseCommand.description.subcommands.map(\.name))
    for example in ManPage.examples {
      let words = example.command.split(separator: " ")
      #expect(words[0] == "crease" && subcommands.contains(String(words[1])), "\(example.command)")
    }
  }

  @Test("an unknown shell is a usage error with a suggestion")
  func unknownShell() {
    let run = CreaseRun("completions", "bsh")
    #expect(run.status == .usage)
    #expect(
      run.error.hasPrefix("Error: Unknown shell 'bsh': expected one of bash, zsh, fish. Did you mean 'bash'?")
    )
  }

  @Test("the manual page renders without a warning under groff -man -ww, with every subcommand")
  func manPage() throws {
    let page = CreaseRun("help", "--man").output
    #expect(page.hasPrefix(".TH CREASE 1 "))
    for name in [
      "replay", "synth", "scenarios", "check", "stats", "convert", "plot", "batch", "report", "completions",
    ] {
      #expect(page.contains(".SS crease \(name)\n"), "missing \(name)")
    }
    let path = temporaryDirectory() + "/crease.1"
    try write(page, to: path)
    let run = try #require(
      try runShell("sh", ["-c"], script: "groff -man -Tutf8 -ww '\(path)' 2>&1 >/dev/null"))
    #expect(run.status == 0)
    #expect(run.output.isEmpty, "groff warned: \(run.output)")
  }
}
