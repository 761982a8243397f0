import CreaseCLI
import CreaseIO
import Foundation
import Testing

@Suite("Formats by name, standard input by default, JSON for scripts")
struct FormatsByNameTests {
  @Test("synth writes the format its output's name says, and refuses a name that says none")
  func synthByName() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    #expect(CreaseRun("synth", "open-close", "-o", "\(directory)/s.crtrace").status == .success)
    #expect(bytes(of: "\(directory)/s.crtrace")?.starts(with: BinaryTraceFormat.magic) == true)
    let cues = CreaseRun("replay", "\(directory)/s.crtrace")
    #expect(cues.status == .success && cues.output.contains("hinge.initial"))
    #expect(CreaseRun("synth", "open-close", "-o", "\(directory)/s.jsonl").status == .success)
    #expect(contents(of: "\(directory)/s.jsonl")?.hasPrefix(#"{"kind":"header""#) == true)
    // The binary file is the JSON Lines file converted: same records, same bytes.
    #expect(CreaseRun("convert", "\(directory)/s.jsonl", "-o", "\(directory)/c.crtrace").status == .success)
    #expect(bytes(of: "\(directory)/c.crtrace") == bytes(of: "\(directory)/s.crtrace"))
    let unnamed = CreaseRun("synth", "open-close", "-o", "\(directory)/s.bin")
    #expect(unnamed.status == .usage)
    #expect(unnamed.error.contains("'\(directory)/s.bin' names no trace format"))
    #expect(!FileManager.default.fileExists(atPath: "\(directory)/s.bin"), "nothing written")
    #expect(CreaseRun("synth", "open-close", "--to", "binary", "-o", "\(directory)/s.bin").status == .success)
    #expect(bytes(of: "\(directory)/s.bin") == bytes(of: "\(directory)/s.crtrace"))
  }

  @Test("convert needs --to for a name that says no format; a device is a stream of JSON Lines")
  func convertByName() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let trace = tracePath("open-close.jsonl")
    #expect(CreaseRun("convert", trace, "-o", "\(directory)/day.bin").status == .usage)
    #expect(CreaseRun("convert", trace, "--to", "jsonl", "-o", "\(directory)/day.bin").status == .success)
    #expect(bytes(of: "\(directory)/day.bin") == bytes(of: trace))
    #expect(CreaseRun("convert", trace, "-o", "/dev/null").status == .success)
  }

  @Test("rejected and late lines are JSON Lines as read: a .crtrace name for them is refused")
  func rejectsNamedBinary() {
    let run = CreaseRun("replay", tracePath("bad-lines.jsonl"), "--rejects", "bad.crtrace")
    #expect(run.status == .usage)
    #expect(run.error.contains("name the file .jsonl"))
  }

  @Test("a command with no trace reads standard input when it is not a terminal")
  func standardInputByDefault() throws {
    let trace = try #require(contents(of: tracePath("open-close.jsonl")))
    let piped = CreaseRun(["replay"], input: Array(trace.utf8))
    #expect(piped.status == .success)
    #expect(piped.output == CreaseRun("replay", tracePath("open-close.jsonl")).output)
    #expect(CreaseRun(["stats"], input: Array(trace.utf8)).output.contains("hinge: 218 (60.7/s)"))
    let atTerminal = CreaseRun(["replay"], input: TerminalInput(), output: MemorySink())
    #expect(atTerminal.status == .usage)
  }

  @Test("stats -f json and check -f json are one JSON object each")
  func jsonForScripts() throws {
    let stats = CreaseRun("stats", "-f", "json", tracePath("dropped-frames.jsonl"))
    let statsObject = try #require(
      try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: Any])
    #expect((statsObject["events"] as? [String: Int])?["frame"] == 85)
    #expect((statsObject["lines"] as? [String: Int])?["read"] == 93)
    let check = CreaseRun("check", "-f", "json", tracePath("bad-lines.jsonl"))
    #expect(check.status == .dataError)
    let checkObject = try #require(
      try JSONSerialization.jsonObject(with: Data(check.output.utf8)) as? [String: Any])
    let problems = try #require(checkObject["problems"] as? [[String: Any]])
    let text = CreaseRun("check", tracePath("bad-lines.jsonl")).output.split(separator: "\n")
      .filter { $0.contains(": error: ") || $0.contains(": warning: ") }
    #expect(problems.count == text.count, "every problem the text lists, no more")
    let first = try #require(problems.first)
    #expect(
      text.first?.hasPrefix("\(first["file"]!):\(first["line"]!):\(first["column"]!): \(first["severity"]!)")
        == true)
    let traces = try #require(checkObject["traces"] as? [[String: Any]])
    #expect(traces.first?["ok"] as? Bool == false)
    let clean = CreaseRun("check", "-f", "json", tracePath("open-close.jsonl"))
    #expect(clean.status == .success && clean.output.contains(#""problems": []"#))
  }

  @Test("--loop 0 replays until stopped: here, until its reader has read enough and closed the pipe")
  func loopUntilStopped() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let once = CreaseRun("replay", tracePath("open-close.jsonl")).output.utf8.count
    let run = try shell(
      #"$CREASE replay --loop 0 "\#(tracePath("open-close.jsonl"))" | head -c \#(once * 20) | wc -c"#,
      in: directory)
    #expect(run.status == 0)
    #expect(Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) == once * 20)
  }
}
