import CreaseCLI
import Foundation
import Testing

@Suite("crease compare: two runs side by side, a gate for CI")
struct CompareTests {
  /// Summaries of `traces` under the defaults and under a debounce of 30 ms, in `directory`.
  static func summaries(_ directory: String, traces: [String] = ["open-close.jsonl"]) throws -> (
    defaults: String, fast: String
  ) {
    try write(#"{"hinge":{"statusDebounceMs":30,"statusMaxWaitMs":100}}"#, to: "\(directory)/fast.json")
    let paths = traces.map(tracePath)
    let defaults = "\(directory)/defaults.summary.json"
    let fast = "\(directory)/fast.summary.json"
    #expect(CreaseRun(["replay", "-o", "/dev/null", "--summary-json", defaults] + paths).status == .success)
    #expect(
      CreaseRun(
        ["replay", "-c", "\(directory)/fast.json", "-o", "/dev/null", "--summary-json", fast] + paths
      )
      .status == .success)
    return (defaults, fast)
  }

  @Test("identical runs: every row unchanged, exit 0")
  func identical() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let (defaults, _) = try Self.summaries(directory)
    let run = CreaseRun("compare", defaults, defaults, "-f", "json")
    #expect(run.status == .success)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    let rows = try #require(object["cues"] as? [[String: Any]])
    #expect(!rows.isEmpty && rows.allSatisfy { $0["verdict"] as? String == "unchanged" })
    #expect(object["regressed"] as? Bool == false)
  }

  @Test("a latency past the threshold regresses and exits 1; the other way it improves")
  func regression() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let (defaults, fast) = try Self.summaries(directory)
    // 30 ms to 50 ms: +66.7 % on every hinge.status latency.
    let worse = CreaseRun("compare", fast, defaults)
    #expect(worse.status == .failure)
    let status = try #require(worse.output.split(separator: "\n").first { $0.hasPrefix("hinge.status ") })
    #expect(status.contains("regressed") && status.contains("+66.7"))
    #expect(
      worse.output.hasSuffix("compare: REGRESSED past 5.0 %: hinge.settled, hinge.status, regions.changed\n"))
    // What changed, key by key, in text, Markdown, HTML and JSON.
    let changed = "hinge.statusDebounceMs 30.0 → 50.0, hinge.statusMaxWaitMs 100.0 → 150.0"
    #expect(worse.output.split(separator: "\n")[2] == "configuration changed: \(changed)", "\(worse.output)")
    #expect(
      CreaseRun("compare", fast, defaults, "-f", "markdown").output.hasPrefix(
        "Configuration changed: \(changed)\n\n| cue |"))
    let page = "\(directory)/compare.html"
    _ = CreaseRun("compare", fast, defaults, "--html", page)
    #expect(contents(of: page)?.contains("<p>Configuration changed: \(changed).</p>") == true)
    let json = try #require(
      try JSONSerialization.jsonObject(
        with: Data(CreaseRun("compare", fast, defaults, "-f", "json").output.utf8))
        as? [String: Any])
    let changes = try #require(json["configurationChanges"] as? [[String: Any]])
    #expect(changes.map { $0["key"] as? String } == ["hinge.statusDebounceMs", "hinge.statusMaxWaitMs"])
    #expect(changes.first?["base"] as? String == "30.0" && changes.first?["new"] as? String == "50.0")
    #expect(!CreaseRun("compare", fast, fast).output.contains("configuration changed"))
    let better = CreaseRun("compare", defaults, fast)
    #expect(better.status == .success)
    #expect(better.output.contains("improved"))
    // Past the threshold only: at 70 % the same change is unchanged.
    #expect(CreaseRun("compare", fast, defaults, "--threshold", "70").status == .success)
  }

  @Test(
    "cues that vanish or change in number fail the gate unless allowed; fewer is never an improvement",
    arguments: [
      // Every hinge.threshold cue gone (no boundary): removed.
      (#"{"hinge":{"boundaries":[]}}"#, "hinge.threshold  removed", "--allow-removed"),
      // A second boundary: twice the threshold cues, at the same latency; then the other way.
      (
        #"{"hinge":{"boundaries":[{"name":"flat","below":135,"above":145},{"name":"tent","below":80,"above":90}]}}"#,
        "hinge.threshold  countChanged", "--allow-count-change"
      ),
    ])
  func lostCues(configuration: String, row: String, allowance: String) throws {
    let directory = temporaryDirectory()
    try write(configuration, to: "\(directory)/changed.json")
    let (base, changed) = ("\(directory)/base.summary.json", "\(directory)/changed.summary.json")
    let trace = tracePath("open-close.jsonl")
    #expect(CreaseRun("replay", trace, "-o", "/dev/null", "--summary-json", base).status == .success)
    #expect(
      CreaseRun(
        "replay", "-c", "\(directory)/changed.json", trace, "-o", "/dev/null", "--summary-json", changed
      )
      .status == .success)
    for (old, new) in [(base, changed), (changed, base)] where !(row.hasSuffix("removed") && old == changed) {
      let gate = CreaseRun("compare", old, new)
      #expect(gate.status == .failure, "\(gate.output)")
      #expect(gate.output.hasSuffix("compare: REGRESSED past 5.0 %: hinge.threshold\n"), "\(gate.output)")
      #expect(!gate.output.contains("improved"))
      #expect(gate.output.split(separator: "\n").contains { $0.hasPrefix(row) }, "\(gate.output)")
      let json = try #require(
        try JSONSerialization.jsonObject(with: Data(CreaseRun("compare", old, new, "-f", "json").output.utf8))
          as? [String: Any])
      #expect(json["regressed"] as? Bool == true)
      let allowed = CreaseRun("compare", old, new, allowance)
      #expect(allowed.status == .success, "\(allowed.output)")
      #expect(allowed.output.hasSuffix("compare: no cue kind regressed past 5.0 %\n"))
    }
  }

  @Test("reports: the traces that got worse are named, worst first, with what grew")
  func worsenedTraces() throws {
    let directory = temporaryDirectory()
    try write(#"{"camera":{"stallFactor":1.2}}"#, to: "\(directory)/eager.json")
    let traces = ["dropped-frames.jsonl", "open-close.jsonl", "flip-around.jsonl"].map(tracePath)
    _ = CreaseRun(["batch", "-d", "\(directory)/base"] + traces)
    _ = CreaseRun(["batch", "-c", "\(directory)/eager.json", "-d", "\(directory)/new"] + traces)
    let (base, new) = ("\(directory)/base/report.json", "\(directory)/new/report.json")
    let run = CreaseRun("compare", base, new)
    #expect(run.status == .failure)
    let lines = run.output.split(separator: "\n").map(String.init)
    let start = try #require(lines.firstIndex(of: "traces that got worse, worst first:"), "\(run.output)")
    #expect(
      Array(lines[(start + 1)...].prefix(2)) == [
        "  \(traces[0]): stalls 1 → 4", "  \(traces[2]): stalls 0 → 1",
      ], "\(run.output)")
    #expect(!run.output.contains("open-close.jsonl:"), "an unchanged trace is not named")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(CreaseRun("compare", base, new, "-f", "json").output.utf8))
        as? [String: Any])
    #expect((json["worsenedTraces"] as? [String])?.first == "\(traces[0]): stalls 1 → 4")
    #expect(!CreaseRun("compare", base, base).output.contains("traces that got worse"))
  }

  @Test("runs of different traces are refused unless --any-traces; a new cue kind is a regression")
  func differentTraces() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let (defaults, _) = try Self.summaries(directory)
    let other = "\(directory)/other.summary.json"
    #expect(
      CreaseRun("replay", tracePath("dropped-frames.jsonl"), "-o", "/dev/null", "--summary-json", other)
        .status
        == .success)
    let refused = CreaseRun("compare", defaults, other)
    #expect(refused.status == .dataError)
    #expect(refused.error.contains("different traces") && refused.error.contains("--any-traces"))
    let anyway = CreaseRun("compare", defaults, other, "--any-traces")
    #expect(anyway.status == .failure, "camera.gap only in the new run: added, a regression")
    #expect(
      anyway.output.split(separator: "\n").contains { $0.hasPrefix("camera.gap ") && $0.contains("added") })
  }

  @Test("csv and markdown hold the same table: a header and a row per cue kind")
  func tables() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let (defaults, fast) = try Self.summaries(directory)
    let json = CreaseRun("compare", defaults, fast, "-f", "json").output
    let kinds = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["cues"] as? [[String: Any]]
    )
    let csv = CreaseRun("compare", defaults, fast, "-f", "csv").output.split(separator: "\n")
    #expect(csv.count == kinds.count + 1)
    #expect(csv.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 17 })
    #expect(csv[0].hasPrefix("cue,verdict,base count,new count"))
    // After the line naming the configuration changes.
    let markdown = Array(
      CreaseRun("compare", defaults, fast, "-f", "markdown").output.split(separator: "\n").drop {
        !$0.hasPrefix("|")
      })
    #expect(markdown.count == kinds.count + 2)
    #expect(markdown[1].hasPrefix("| --- | --- | ---: |"))
    // As the README says: hinge.status and regions.changed 40 % faster at every percentile,
    // hinge.settled from p90 on (its p50 is 0 in both), the same counts, and nothing else moved.
    let forty = "50.000,30.000,-40.0"
    #expect(csv.contains("hinge.status,improved,4,4,+0.0,\(forty),\(forty),\(forty),\(forty)"))
    #expect(csv.contains("regions.changed,improved,4,4,+0.0,\(forty),\(forty),\(forty),\(forty)"))
    #expect(csv.contains("hinge.settled,improved,2,2,+0.0,0.000,0.000,+0.0,\(forty),\(forty),\(forty)"))
    #expect(csv.dropFirst().filter { !$0.contains(",improved,") }.allSatisfy { $0.contains(",unchanged,") })
  }
}

@Suite("Counts past 2⁵³, exact in every format")
struct ExactCountTests {
  @Test("a count of 12345678901234567 reads back as itself in compare's text, CSV and Markdown")
  func exactCounts() throws {
    let directory = temporaryDirectory()
    let path = "\(directory)/plain.summary.json"
    #expect(
      CreaseRun("replay", tracePath("open-close.jsonl"), "-o", "/dev/null", "--summary-json", path).status
        == .success)
    // The count is set in the text, not through a double, which would round it.
    let text = try #require(contents(of: path))
    // The mark entry as the summary writes it, its count and its histogram's bucket together.
    let entry = [
      #""cue": "mark","#, #""stage": "instant","#, #""count": 1,"#, #""p50Ns": 0,"#, #""p90Ns": 0,"#,
      #""p99Ns": 0,"#, #""maxNs": 0,"#, #""overBound": 0,"#, #""histogram": ["#, "  [0, 1, 0]",
    ].joined(separator: "\n      ")
    let large = text.replacing(
      entry,
      with: entry.replacing(#""count": 1,"#, with: #""count": 12345678901234567,"#)
        .replacing("[0, 1, 0]", with: "[0, 12345678901234567, 0]"))
    #expect(large != text, "the summary's mark entry, as the summary writes it")
    try write(large, to: "\(directory)/large.summary.json")
    for format in ["text", "csv", "markdown"] {
      let run = CreaseRun(
        ["compare", "\(directory)/large.summary.json", "\(directory)/large.summary.json"]
          + (format == "text" ? [] : ["-f", format]))
      #expect(run.output.contains("12345678901234567"), "\(format): \(run.output)")
    }
  }
}

@Suite("Names from summaries, escaped for the format they are written into")
struct HostileNameTests {
  static let hostile = "=HYPERLINK(\"http://x\")|a\nb\u{1B}[31m"

  /// A summary of open-close whose trace and one cue kind carry `hostile`, and one as written.
  static func summaries(_ directory: String) throws -> (plain: String, hostile: String) {
    let plain = "\(directory)/plain.summary.json"
    #expect(
      CreaseRun("replay", tracePath("open-close.jsonl"), "-o", "/dev/null", "--summary-json", plain).status
        == .success)
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes(of: plain)!)) as? [String: Any])
    var sources = try #require(object["sources"] as? [[String: Any]])
    sources[0]["name"] = hostile
    object["sources"] = sources
    var cues = try #require(object["cues"] as? [[String: Any]])
    var added = cues[0]
    added["cue"] = hostile
    cues.append(added)
    object["cues"] = cues
    let path = "\(directory)/hostile.summary.json"
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    return (plain, path)
  }

  @Test(
    "no control character, row break or formula reaches text, CSV or Markdown",
    arguments: ["report", "compare"])
  func escaped(command: String) throws {
    let (plain, hostile) = try Self.summaries(temporaryDirectory())
    let inputs = command == "report" ? [hostile] : [plain, hostile]
    for format in ["text", "csv", "markdown"] {
      let run = CreaseRun([command] + inputs + (format == "text" ? [] : ["-f", format]))
      switch format {
      case "csv":
        // Kept exactly, a newline inside quotes as RFC 4180 has it, but quoted with a leading
        // ', so that a spreadsheet shows it as text instead of running it.
        #expect(run.output.contains("\"'=HYPERLINK(\"\"http://x\"\")|a\nb\u{1B}[31m\""), "\(run.output)")
        #expect(!run.output.split(separator: "\n").contains { $0.hasPrefix("=") || $0.contains(",=") })
        continue
      default:
        break
      }
      #expect(!run.output.contains("\u{1B}"), "\(command) \(format): a raw ESC")
      #expect(
        run.output.contains(#"\n"#) && run.output.contains(#"\u001B"#), "\(command) \(format): \(run.output)")
      switch format {
      case "markdown":
        #expect(run.output.contains(#"\|a\nb"#), "\(run.output)")
        let rows = run.output.split(separator: "\n")
        #expect(rows.allSatisfy { $0.hasPrefix("|") && $0.hasSuffix("|") }, "every line a whole row")
      default:
        break
      }
    }
  }
}
