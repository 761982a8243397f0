import Crease
import CreaseIO
import Foundation
import Testing

/// `crease replay --cues` and `--except`: which cue kinds are written, in every format and on
/// every path (a binary trace's cues are written on another thread); the summary counts all.
@Suite("crease replay --cues and --except")
struct CueFilterTests {
  /// The `cue` of each JSON line.
  func kinds(_ output: String) -> [String] {
    output.split(separator: "\n").compactMap { line in
      guard let range = line.range(of: #""cue":""#) else { return nil }
      return String(line[range.upperBound...].prefix { $0 != "\"" })
    }
  }

  @Test("--except hinge.progress leaves every other cue, in order, and the summary counts all")
  func except() throws {
    let trace = tracePath("open-close.jsonl")
    let all = CreaseRun("replay", trace).output
    let summary = "\(temporaryDirectory())/summary.json"
    let run = CreaseRun("replay", trace, "--except", "hinge.progress", "--summary-json", summary, "-o", "-")
    #expect(run.status == .success, "\(run.error)")
    let kept = all.split(separator: "\n").filter { !$0.contains(#""cue":"hinge.progress""#) }
    #expect(run.output.split(separator: "\n") == kept)
    #expect(kinds(all).contains("hinge.progress"))
    let json = try #require(contents(of: summary))
    #expect(json.contains(#""cue": "hinge.progress""#), "the summary still counts them")
  }

  @Test("--cues with wildcards, in every format and from a binary trace alike")
  func formats() throws {
    let directory = temporaryDirectory()
    let binary = "\(directory)/wobble.crtrace"
    #expect(CreaseRun("convert", tracePath("fold-while-recording.jsonl"), "-o", binary).status == .success)
    let options = ["--cues", "hinge.s*,camera.gap", "--except", "hinge.settled"]
    for trace in [tracePath("fold-while-recording.jsonl"), binary] {
      let lines = CreaseRun(["replay", trace] + options).output
      #expect(Set(kinds(lines)) == ["hinge.status", "camera.gap"], "\(trace)")
      let text = CreaseRun(["replay", trace, "-f", "text"] + options).output
      #expect(text.split(separator: "\n").count == kinds(lines).count)
      #expect(!text.contains("hinge.settled") && !text.contains("camera.mask"))
      let chrome = CreaseRun(["replay", trace, "-f", "chrome"] + options).output
      let object = try #require(try JSONSerialization.jsonObject(with: Data(chrome.utf8)) as? [String: Any])
      let events = try #require(object["traceEvents"] as? [[String: Any]])
      // A gap is a slice, the other kinds instants; no mask, settle or latency of another kind.
      let instants = events.filter { $0["ph"] as? String == "i" }.compactMap { $0["name"] as? String }
      #expect(Set(instants).subtracting(["frame"]) == ["hinge.status"])
      #expect(
        events.contains { $0["ph"] as? String == "X" && ($0["name"] as? String)?.hasPrefix("gap") == true })
      #expect(!events.contains { ($0["name"] as? String)?.hasPrefix("mask") == true })
    }
  }

  @Test("a pattern that names no kind is a usage error with the nearest name; an empty one too")
  func mistakes() {
    let typo = CreaseRun("replay", tracePath("open-close.jsonl"), "--cues", "hinge.stauts")
    #expect(typo.status == .usage)
    #expect(typo.error.contains("'--cues hinge.stauts' names no cue kind. Did you mean 'hinge.status'?"))
    #expect(typo.output.isEmpty)
    let empty = CreaseRun("replay", tracePath("open-close.jsonl"), "--except", "hinge.progress,")
    #expect(empty.status == .usage)
    #expect(empty.error.contains("'--except' has an empty pattern"))
  }

  @Test("a wildcard stands for any run of characters, anywhere in the pattern")
  func wildcards() throws {
    #expect(try CueFilter(including: ["*"]).writtenKinds.count == CueKind.Tag.allCases.count)
    #expect(try CueFilter(including: ["*.status"]).writtenKinds == [.hingeStatus])
    #expect(
      try CueFilter(including: ["camera.*a*"]).writtenKinds.map(\.name) == [
        "camera.gap", "camera.stall", "camera.mask",
      ])
    #expect(
      try CueFilter(excluding: ["hinge.*", "camera.*", "regions.*"]).writtenKinds == [
        .accessoryEligible, .mark,
      ])
    #expect { try CueFilter(including: ["hinge"]) } throws: {
      ($0 as? CueFilter.UnmatchedPattern)?.pattern == "hinge"
    }
  }
}
