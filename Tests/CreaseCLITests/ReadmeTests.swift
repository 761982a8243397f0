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
