import Foundation
import Testing

/// The README's shown outputs, run and compared, so they cannot drift from what `crease` prints.
///
/// A block whose first line starts with `$ ` is a command and its output: the command runs in
/// the repository's root with the built `crease` first on `PATH`, its standard output and error
/// together, and every shown line must appear, in order; a line `…` stands for any lines.
@Suite("README: the outputs it shows are what crease prints")
struct ReadmeTests {
  struct Example {
    var command: String
    var shown: [String]
  }

  static let examples: [Example] = {
    let readme = contents(of: "\(repositoryRoot)/README.md") ?? ""
    var examples: [Example] = []
    var block: [String]?
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") {
        if let lines = block, let first = lines.first, first.hasPrefix("$ ") {
          examples.append(Example(command: String(first.dropFirst(2)), shown: Array(lines.dropFirst())))
        }
        block = block == nil ? [] : nil
      } else {
        block?.append(line)
      }
    }
    return examples
  }()

  /// Whether every line of `shown` appears in `output` in order, `…` skipping any lines.
  static func matches(_ shown: [String], _ output: [String]) -> Bool {
    var position = output.startIndex
    var skipping = false
    for line in shown {
      let wanted = line.trimmingCharacters(in: .whitespaces)
      if wanted == "…" {
        skipping = true
        continue
      }
      guard
        let found = output[position...].firstIndex(where: {
          $0.trimmingCharacters(in: .whitespaces) == wanted
        }),
        skipping || found == position
      else { return false }
      position = found + 1
      skipping = false
    }
    return true
  }

  @Test("the README shows outputs at all")
  func found() { #expect(Self.examples.count >= 2) }

  @Test("each shown output is what the command prints", arguments: examples.map(\.command))
  func shownOutput(command: String) throws {
    let example = try #require(Self.examples.first { $0.command == command })
    let run = try shell(#"PATH="$(dirname "$CREASE"):$PATH"; \#(command)"#, in: repositoryRoot)
    let output = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      Self.matches(example.shown, output),
      "README shows:\n\(example.shown.joined(separator: "\n"))\nprinted:\n\(run.output)")
  }

  @Test("the matcher: lines in order, … for any lines, nothing else skipped")
  func matcher() {
    #expect(Self.matches(["a", "…", "d"], ["a", "b", "c", "d"]))
    #expect(!Self.matches(["a", "d"], ["a", "b", "c", "d"]))
    #expect(!Self.matches(["a", "…", "x"], ["a", "b"]))
    #expect(Self.matches(["…", "c"], ["a", "b", "c"]))
  }
}

/// Every `crease` command of the README's `sh` blocks is run, in a scratch folder that sees the
/// repository's traces and examples, block by block (a block's commands build on each other):
/// each must succeed, or fail as the README says it does (a `#` line under a command is what it
/// prints). A command that needs what a test cannot have is named in ``notRun`` with the
/// reason, so a new command cannot go untested unnoticed.
@Suite("README: every command it shows runs")
struct ReadmeCommandTests {
  struct Command: CustomStringConvertible {
    var line: String
    /// What the README says it prints, from the `#` lines under it.
    var prints: [String]
    var description: String { line }
  }

  /// The commands not run, each with why.
  static let notRun: [String: String] = [
    "make demo": "the README's own first commands; CI runs them (make test, make demo)",
    "make test": "the command that runs this test",
    "make install": "installs into the system; CI runs it into a scratch prefix",
    "source <(crease": "changes a shell; CompletionTests check the scripts",
    "crease help --man | man": "needs man; ManualTests render the page with groff",
    "some-device-bridge": "a stand-in for the user's own program",
    "other-tool": "a stand-in for the user's own program",
    "nc -l": "a listener the user runs; SocketOutputTests send to a real one",
    "tcp://127.0.0.1:9000": "needs the listener above; SocketOutputTests cover TCP",
    "--speed 1 --summary": "paced in real time for the trace's whole length; PacingTests cover it",
    "--speed 10 --loop 3": "paced; PacingTests cover loops and speeds",
    "synth wobble --speed 1": "paced without end for a reader; SynthTests cover pacing",
    "monday/": "names the user's own reports",
    "python3 -m venv": "the Dask driver's setup; make dask-test runs the driver",
    "pip install": "the Dask driver's setup; make dask-test runs the driver",
    "crease-fleet": "the Dask driver; make dask-test runs it on a local cluster",
    "dask ": "a real cluster's hosts",
  ]

  /// The README's `sh` blocks, their commands with what each is said to print.
  static let blocks: [[Command]] = {
    let readme = contents(of: "\(repositoryRoot)/README.md") ?? ""
    var blocks: [[Command]] = []
    var block: [Command]?
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") {
        if let finished = block, !finished.isEmpty { blocks.append(finished) }
        block = line == "```sh" && block == nil ? [] : nil
        continue
      }
      guard block != nil else { continue }
      if line.hasPrefix("# ") {
        block![block!.count - 1].prints.append(String(line.dropFirst(2)))
      } else if !line.isEmpty {
        block!.append(Command(line: line, prints: []))
      }
    }
    return blocks
  }()

  static func skipped(_ command: Command) -> Bool {
    notRun.keys.contains { command.line.contains($0) }
  }

  @Test("every command is run or named with why not; there are commands to run")
  func coverage() {
    let commands = Self.blocks.joined()
    #expect(commands.filter { $0.line.hasPrefix("crease ") && !Self.skipped($0) }.count >= 20)
    for command in commands where !Self.skipped(command) {
      #expect(
        command.line.hasPrefix("crease ") || command.line.hasPrefix("cat "),
        "\(command.line): run it below or say in notRun why not")
    }
  }

  @Test("each block's commands run in order and do what the README says", arguments: blocks.indices)
  func block(index: Int) throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    for folder in ["Traces", "Examples", "Schemas"] {
      try FileManager.default.createSymbolicLink(
        atPath: "\(directory)/\(folder)", withDestinationPath: "\(repositoryRoot)/\(folder)")
    }
    for command in Self.blocks[index] where !Self.skipped(command) {
      // The README's comments are for people: the shell drops them.
      let run = try shell(#"PATH="$(dirname "$CREASE"):$PATH"; \#(command.line)"#, in: directory)
      if command.prints.isEmpty && !command.line.contains("bad-lines.jsonl") {
        let gate = command.line.contains("exit 1 if")
        #expect(run.status == 0 || (gate && run.status == 1), "\(command.line)\n\(run.output)")
      } else {
        #expect(run.status != 0 || command.prints.isEmpty, "\(command.line) fails, as the README says")
        for printed in command.prints {
          let shown = printed.replacingOccurrences(of: "...", with: "…")
          let pieces = shown.split(separator: "…").map { $0.trimmingCharacters(in: .whitespaces) }
          #expect(
            pieces.allSatisfy { run.output.contains($0) }, "\(command.line) prints \(printed)\n\(run.output)")
        }
      }
    }
  }
}
