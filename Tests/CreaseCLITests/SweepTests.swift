import Foundation
import Testing

@testable import CreaseCLI

@Suite("crease sweep: every combination of configuration values")
struct SweepTests {
  static let traces = ["open-close.jsonl", "wobble.jsonl", "dropped-frames.jsonl"].map(tracePath)

  /// Per cue kind, its count and latencies as a JSON object holds them.
  static func cues(_ object: [String: Any]) -> [String: [String: Int]] {
    var cues: [String: [String: Int]] = [:]
    for cue in object["cues"] as? [[String: Any]] ?? [] {
      let name = cue["cue"] as! String
      cues[name] = cue.filter { $0.key != "cue" && $0.key != "stage" }.compactMapValues { $0 as? Int }
    }
    return cues
  }

  @Test("a 2 × 3 grid equals the six replays run apart, setting by setting")
  func gridEqualsSeparateRuns() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let sweep = CreaseRun(
      ["sweep", "-f", "json", "--set", "hinge.statusDebounceMs=30,50", "--set", "hinge.settleMs=200,300,400"]
        + Self.traces)
    #expect(sweep.status == .success, "\(sweep.error)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(sweep.output.utf8)) as? [String: Any])
    let settings = try #require(object["settings"] as? [[String: Any]])
    #expect(
      settings.map { $0["setting"] as! String } == [
        "hinge.statusDebounceMs=30 hinge.settleMs=200", "hinge.statusDebounceMs=30 hinge.settleMs=300",
        "hinge.statusDebounceMs=30 hinge.settleMs=400", "hinge.statusDebounceMs=50 hinge.settleMs=200",
        "hinge.statusDebounceMs=50 hinge.settleMs=300", "hinge.statusDebounceMs=50 hinge.settleMs=400",
      ])
    for (index, setting) in settings.enumerated() {
      let (debounce, settle) = ([30, 50][index / 3], [200, 300, 400][index % 3])
      let configuration = "\(directory)/\(index).json"
      try write(#"{"hinge":{"statusDebounceMs":\#(debounce),"settleMs":\#(settle)}}"#, to: configuration)
      let out = "\(directory)/run\(index)"
      #expect(CreaseRun(["batch", "-c", configuration, "-d", out] + Self.traces).status == .success)
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/report.json")))
          as? [String: Any])
      let separate = Self.cues(report)
      let swept = Self.cues(setting)
      #expect(Set(separate.keys) == Set(swept.keys))
      for (name, figures) in swept {
        let expected = try #require(separate[name])
        #expect(figures["count"] == expected["count"], "\(name) at \(setting["setting"]!)")
        for key in ["p50Ns", "p90Ns", "p99Ns", "maxNs"] {
          #expect(figures[key] == expected[key], "\(name) \(key) at \(setting["setting"]!)")
        }
      }
    }
  }

  @Test("diagnostics are written once per trace, and again, named, where a setting changes them")
  func diagnosticsOnce() {
    let run = CreaseRun("sweep", "--set", "reorderWindowMs=0,50,60", tracePath("disorder.jsonl"))
    #expect(run.status == .success)
    // Each window makes a different number of lines late: each says so, the later ones named.
    let late = run.error.split(separator: "\n").filter { $0.contains("late line(s)") }
    #expect(late.count == 3, "\(run.error)")
    #expect(run.error.contains("crease: under reorderWindowMs=50:\n"))
    #expect(run.error.contains("crease: under reorderWindowMs=60:\n"))
    // A setting that changes nothing about the input repeats nothing.
    let same = CreaseRun("sweep", "--set", "hinge.settleMs=200,300", tracePath("bad-lines.jsonl"))
    #expect(!same.error.contains("crease: under"))
    #expect(same.error.components(separatedBy: "unknown status 'clsed'").count == 2, "once: \(same.error)")
  }

  @Test("the same inputs give the same bytes, whatever the threads")
  func deterministic() {
    let arguments = ["sweep", "--set", "camera.gapFactor=1.5,2"] + Self.traces
    let one = CreaseRun(arguments + ["-j", "1"]).output
    #expect(!one.isEmpty && CreaseRun(arguments + ["-j", "4"]).output == one)
    // A page keeps every setting's latencies, which the table alone lets go: the table is the same.
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    #expect(CreaseRun(arguments + ["--html", "\(directory)/sweep.html"]).output == one)
    #expect(CreaseRun(arguments + ["-f", "csv"]).output.hasPrefix("setting,cue,count,p50 ms"))
  }

  @Test(
    "a key a sweep cannot set, or a value that is no number, is a usage error; a bad value a configuration error"
  )
  func refusals() {
    let unknown = CreaseRun("sweep", "--set", "hinge.statusDebounce=30", Self.traces[0])
    #expect(unknown.status == .usage && unknown.error.contains("Did you mean 'hinge.statusDebounceMs'?"))
    #expect(CreaseRun("sweep", "--set", "hinge.settleMs=fast", Self.traces[0]).status == .usage)
    #expect(CreaseRun("sweep", Self.traces[0]).status == .usage, "nothing to sweep")
    let negative = CreaseRun("sweep", "--set", "hinge.settleMs=-5", Self.traces[0])
    #expect(negative.status == .configuration && negative.error.contains("settle"))
  }

  @Test("a key named by its last part is suggested whole; a key set twice and standard input are refused")
  func usageMistakes() {
    let bare = CreaseRun("sweep", "--set", "statusDebounceMs=30", Self.traces[0])
    #expect(
      bare.status == .usage && bare.error.contains("Did you mean 'hinge.statusDebounceMs'?"), "\(bare.error)")
    let twice = CreaseRun(
      "sweep", "--set", "hinge.statusDebounceMs=30", "--set", "hinge.statusDebounceMs=80", Self.traces[0])
    #expect(twice.status == .usage && twice.error.contains("'--set hinge.statusDebounceMs' is given twice"))
    #expect(twice.output.isEmpty)
    let piped = CreaseRun(
      ["sweep", "--set", "hinge.statusDebounceMs=30", "-"], input: Array(contents(of: Self.traces[0])!.utf8))
    #expect(piped.status == .usage && piped.error.contains("standard input ('-') can be read only once"))
    #expect(piped.output.isEmpty, "no header before the refusal")
  }

  @Test(
    "a value that is not a JSON number is refused at once with exit 64, naming it",
    arguments: ["0x10", "+5", ".5", "5.", "01", "1e", "-", "1e400", "30,,50", "inf"])
  func valuesAreJSONNumbers(value: String) {
    let run = CreaseRun("sweep", "--set", "hinge.statusDebounceMs=\(value)", Self.traces[0])
    #expect(run.status == .usage, "\(run.error)")
    #expect(run.error.contains("is not a number as a configuration file writes it"), "\(run.error)")
    #expect(run.output.isEmpty)
  }

  @Test("JSON's own forms of a number are taken", arguments: ["30", "-0", "0.5", "1e1", "2E+1", "25.0e0"])
  func jsonNumbersTaken(value: String) {
    #expect(SweepCommand.isJSONNumber(value))
  }

  @Test("more settings than a sweep tries is refused before any is made, with the sizes")
  func tooManySettings() throws {
    let values = (1...100).map(String.init).joined(separator: ",")
    let keys = ["hinge.statusDebounceMs", "hinge.settleMs", "camera.gapFactor", "camera.stallFactor"]
    let arguments = ["sweep"] + keys.flatMap { ["--set", "\($0)=\(values)"] } + [Self.traces[0]]
    let run = CreaseRun(arguments)
    #expect(run.status == .usage)
    #expect(
      run.error.contains("100 × 100 × 100 × 100 settings, more than the 10000 a sweep tries"), "\(run.error)")
    if !ByteBoundTests.sanitized {
      // Every combination built up front took 2 GB before the refusal could come.
      let peak = try peakOfCrease(arguments, in: temporaryDirectory())
      #expect(peak.status == 64)
      #expect(peak.peakKB < 64 * 1024, "peak RSS \(peak.peakKB) KB")
    }
  }
}
