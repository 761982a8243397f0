import CreaseCLI
import Foundation
import Testing

@Suite("Provenance: what made a summary or report, and reports that refuse to mix")
struct ProvenanceTests {
  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// A summary of `trace` under `configuration` (JSON, or the defaults), written to `path`.
  static func summary(_ trace: String, configuration: String? = nil, to path: String) throws {
    var arguments = ["replay", trace, "-o", "/dev/null", "--summary-json", path]
    if let configuration {
      try write(configuration, to: path + ".config.json")
      arguments += ["-c", path + ".config.json"]
    }
    let run = CreaseRun(arguments)
    #expect(run.status == .success, "\(run.error)")
  }

  @Test("a summary names the version, the whole configuration, and each trace's size and digest")
  func summaryRecords() throws {
    let directory = temporaryDirectory()
    let trace = tracePath("open-close.jsonl")
    try Self.summary(trace, configuration: #"{"hinge":{"statusDebounceMs":30}}"#, to: "\(directory)/a.json")
    let summary = try Self.json(try String(contentsOfFile: "\(directory)/a.json", encoding: .utf8))
    #expect((summary["crease"] as? [String: Any])?["version"] as? String == CreaseCommand.version)
    let configuration = try #require(summary["configuration"] as? [String: Any])
    let file = try #require(configuration["file"] as? [String: Any])
    #expect((file["hinge"] as? [String: Any])?["statusDebounceMs"] as? Double == 30)
    #expect((file["camera"] as? [String: Any])?["maskMaxMs"] as? Double == 500, "every key, defaults too")
    let source = try #require((summary["sources"] as? [[String: Any]])?.first)
    let size = try FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int
    #expect(source["bytes"] as? Int == size)
    #expect((source["digest"] as? String)?.hasPrefix("xxh64:") == true)

    // The recorded configuration, read back with -c, is the same configuration.
    let recorded = try JSONSerialization.data(withJSONObject: file)
    try recorded.write(to: URL(fileURLWithPath: "\(directory)/recorded.json"))
    try Self.summary(
      trace, configuration: String(decoding: recorded, as: UTF8.self), to: "\(directory)/b.json")
    let again = try Self.json(try String(contentsOfFile: "\(directory)/b.json", encoding: .utf8))
    #expect(
      (again["configuration"] as? [String: Any])?["digest"] as? String == configuration["digest"] as? String)

    // Standard input is digested as a file is: the same bytes, the same digest.
    let piped = CreaseRun(
      ["replay", "-o", "/dev/null", "--summary-json", "-", "-c", "\(directory)/recorded.json"],
      input: Array(try String(contentsOfFile: trace, encoding: .utf8).utf8))
    let pipedSource = try #require((try Self.json(piped.output)["sources"] as? [[String: Any]])?.first)
    #expect(pipedSource["digest"] as? String == source["digest"] as? String)
    #expect(pipedSource["bytes"] as? Int == size)
  }

  @Test("a changed byte changes the trace's digest; --summary prints both")
  func digestFollowsContent() throws {
    let directory = temporaryDirectory()
    let original = try String(contentsOfFile: tracePath("open-close.jsonl"), encoding: .utf8)
    try write(original, to: "\(directory)/a.jsonl")
    try write(original.replacingOccurrences(of: "{\"t\":0,", with: "{\"t\": 0,"), to: "\(directory)/b.jsonl")
    let a = CreaseRun("replay", "\(directory)/a.jsonl", "-o", "/dev/null", "--summary").error
    let b = CreaseRun("replay", "\(directory)/b.jsonl", "-o", "/dev/null", "--summary").error
    func digest(_ text: String) -> Substring? {
      text.firstRange(of: "xxh64:").map { text[$0.lowerBound...].prefix(22) }
    }
    let line = { (text: String) in
      text.split(separator: "\n").first { $0.contains("a.jsonl") || $0.contains("b.jsonl") }
    }
    #expect(a.contains("made by crease \(CreaseCommand.version), configuration xxh64:"))
    let (aLine, bLine) = (try #require(line(a)), try #require(line(b)))
    #expect(aLine.contains("(\(original.utf8.count) bytes, xxh64:"))
    #expect(bLine.contains("(\(original.utf8.count + 1) bytes, xxh64:"))
    #expect(digest(String(aLine)) != digest(String(bLine)))
    #expect(digest(a) == digest(b), "the same configuration")
  }

  @Test("report refuses summaries of different configurations, naming both; --mixed keeps them apart")
  func mixing() throws {
    let directory = temporaryDirectory()
    let trace = tracePath("open-close.jsonl")
    try Self.summary(trace, to: "\(directory)/defaults.json")
    try Self.summary(
      trace, configuration: #"{"hinge":{"statusDebounceMs":30,"statusMaxWaitMs":100}}"#,
      to: "\(directory)/fast.json")
    let refused = CreaseRun("report", "\(directory)/defaults.json", "\(directory)/fast.json")
    #expect(refused.status == .dataError)
    #expect(refused.error.contains("\(directory)/fast.json: error: made by crease"))
    #expect(
      refused.error.contains("but '\(directory)/defaults.json' by crease")
        && refused.error.contains("--mixed"))
    #expect(refused.output.isEmpty)

    let mixed = CreaseRun(
      "report", "--mixed", "-f", "json", "\(directory)/defaults.json", "\(directory)/fast.json",
      "\(directory)/defaults.json")
    #expect(mixed.status == .success, "\(mixed.error)")
    let reports = try #require(try Self.json(mixed.output)["reports"] as? [[String: Any]])
    #expect(reports.count == 2)
    func status(_ report: [String: Any]) -> (count: Int?, p50: Int?) {
      let row = (report["cues"] as? [[String: Any]])?.first { $0["cue"] as? String == "hinge.status" }
      return (row?["count"] as? Int, row?["p50Ns"] as? Int)
    }
    // The defaults' two summaries merged; the fast one alone, at its own latency.
    #expect(reports[0]["traceCount"] as? Int == 2 && reports[1]["traceCount"] as? Int == 1)
    #expect(status(reports[0]).p50 == 50_000_000 && status(reports[1]).p50 == 30_000_000)
    #expect(status(reports[0]).count == 2 * (status(reports[1]).count ?? 0))

    let text = CreaseRun("report", "--mixed", "\(directory)/defaults.json", "\(directory)/fast.json").output
    #expect(text.components(separatedBy: "Fleet report:").count == 3)
    let csv = CreaseRun(
      "report", "--mixed", "-f", "csv", "\(directory)/defaults.json", "\(directory)/fast.json")
    #expect(csv.output.hasPrefix("configuration,cue,count,"))
    // A mixed report is not read as one report.
    try write(mixed.output, to: "\(directory)/mixed.json")
    let reread = CreaseRun("report", "\(directory)/mixed.json")
    #expect(reread.status == .dataError && reread.error.contains("--mixed"))
  }

  @Test("an edited configuration is caught by its digest; a reformatted one is not an edit")
  func editedConfiguration() throws {
    let directory = temporaryDirectory()
    try Self.summary(tracePath("open-close.jsonl"), to: "\(directory)/a.json")
    let text = try String(contentsOfFile: "\(directory)/a.json", encoding: .utf8)
    try write(
      text.replacingOccurrences(of: "\"statusDebounceMs\": 50.0", with: "\"statusDebounceMs\": 50"),
      to: "\(directory)/same.json")
    #expect(CreaseRun("report", "\(directory)/same.json").status == .success)
    try write(
      text.replacingOccurrences(of: "\"statusDebounceMs\": 50.0", with: "\"statusDebounceMs\": 20"),
      to: "\(directory)/edited.json")
    let edited = CreaseRun("report", "\(directory)/edited.json")
    #expect(edited.status == .dataError)
    #expect(edited.error.contains("'configuration.digest' does not match 'configuration.file'"))
  }

  @Test("--timing adds wall and CPU time, events per second and peak memory; it needs a summary")
  func timing() throws {
    let run = CreaseRun(
      "replay", tracePath("open-close.jsonl"), "-o", "/dev/null", "--timing", "--summary-json", "-")
    let timing = try #require(try Self.json(run.output)["timing"] as? [String: Any])
    #expect(timing["events"] as? Int == 221)
    #expect((timing["peakMemoryBytes"] as? Int ?? 0) > 1 << 20)
    #expect(timing["wallNs"] is Int && timing["cpuNs"] is Int && timing["eventsPerSecond"] is Double)
    let plain = CreaseRun("replay", tracePath("open-close.jsonl"), "-o", "/dev/null", "--summary-json", "-")
    #expect(try Self.json(plain.output)["timing"] is NSNull)
    let alone = CreaseRun("replay", tracePath("open-close.jsonl"), "-o", "/dev/null", "--timing")
    #expect(alone.status == .usage && alone.error.contains("'--timing' adds to a summary"))
  }

  @Test("compare matches traces by content: a renamed copy is the same trace, an edited one is not")
  func compareByContent() throws {
    let directory = temporaryDirectory()
    let original = try String(contentsOfFile: tracePath("open-close.jsonl"), encoding: .utf8)
    try write(original, to: "\(directory)/copy.jsonl")
    try write(
      original.replacingOccurrences(of: "{\"t\":0,", with: "{\"t\": 0,"), to: "\(directory)/open-close.jsonl")
    try Self.summary(tracePath("open-close.jsonl"), to: "\(directory)/base.json")
    try Self.summary("\(directory)/copy.jsonl", to: "\(directory)/renamed.json")
    try Self.summary("\(directory)/open-close.jsonl", to: "\(directory)/edited.json")
    let renamed = CreaseRun("compare", "\(directory)/base.json", "\(directory)/renamed.json", "-f", "json")
    #expect(renamed.status == .success, "\(renamed.error)")
    let provenance = try #require(try Self.json(renamed.output)["provenance"] as? [String: Any])
    #expect(
      ((provenance["base"] as? [String: Any])?["crease"] as? [String: Any])?["version"] as? String
        == CreaseCommand.version)
    let edited = CreaseRun("compare", "\(directory)/base.json", "\(directory)/edited.json")
    #expect(edited.status == .dataError && edited.error.contains("different traces"))
    #expect(
      CreaseRun("compare", "\(directory)/base.json", "\(directory)/edited.json", "--any-traces").status
        == .success)
  }

  @Test("a --strict replay stopped at its first bad line still names the whole file")
  func strictStopNamesWholeFile() throws {
    // A bad first line, then far more than a read's worth of good ones.
    let trace = temporaryDirectory() + "/late-bad.jsonl"
    try write("{not json\n" + CreaseRun("synth", "day", "--duration", "60").output, to: trace)
    // One thread: no reading ahead, so the replay stops with most of the file unread.
    let run = CreaseRun(
      "replay", trace, "--strict", "--threads", "1", "-o", "/dev/null", "--summary-json", "-")
    #expect(run.status == .dataError)
    let source = try #require((try Self.json(run.output)["sources"] as? [[String: Any]])?.first)
    #expect((source["lines"] as? Int ?? .max) < 1000, "the replay stopped early")
    let size = try FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int
    #expect(source["bytes"] as? Int == size, "the rest of the file was digested too")
    let whole = CreaseRun("replay", trace, "-o", "/dev/null", "--summary-json", "-")
    let wholeSource = try #require((try Self.json(whole.output)["sources"] as? [[String: Any]])?.first)
    #expect(source["digest"] as? String == wholeSource["digest"] as? String)
  }
}
