import CreaseIO
import Foundation
import Testing

@Suite("crease batch and crease report")
struct FleetTests {
  /// The bundled traces (inputs only, not their expected cues).
  static let traces = [
    "bad-lines", "disorder", "dropped-frames", "every-kind", "flip-around", "fold-while-recording",
    "open-close",
    "synth-accessory", "synth-day", "synth-dropped-frames", "synth-fold-while-recording", "wobble",
  ].map { tracePath("\($0).jsonl") }

  func batch(_ traces: [String], jobs: Int = 2) -> (run: CreaseRun, directory: String) {
    let directory = temporaryDirectory() + "/out"
    return (CreaseRun(["batch", "-d", directory, "-j", "\(jobs)"] + traces), directory)
  }

  @Test("each trace's cues and summary equal its own replay's, byte for byte, at any -j")
  func batchEqualsSingleReplays() throws {
    let (run, directory) = batch(Self.traces)
    #expect(run.status == .dataError, "bad-lines has bad lines: \(run.error)")
    let (serial, serialDirectory) = batch(Self.traces, jobs: 1)
    #expect(serial.status == run.status)
    for (index, trace) in Self.traces.enumerated() {
      let stem = String(trace.split(separator: "/").last!.dropLast(".jsonl".count))
      let name = "\(directory)/\(String(format: "%02d", index + 1))-\(stem)"
      let single = temporaryDirectory() + "/summary.json"
      let replay = CreaseRun("replay", "--summary-json", single, trace)
      #expect(contents(of: "\(name).cues.jsonl") == replay.output, "\(stem) cues")
      #expect(contents(of: "\(name).summary.json") == contents(of: single), "\(stem) summary")
      let serialName = name.replacingOccurrences(of: directory, with: serialDirectory)
      #expect(contents(of: "\(serialName).cues.jsonl") == contents(of: "\(name).cues.jsonl"))
    }
    #expect(contents(of: "\(serialDirectory)/report.json") == contents(of: "\(directory)/report.json"))
  }

  @Test("the batch's report equals 'crease report' of its summaries, as JSON and as text")
  func reportOfSummaries() throws {
    let (_, directory) = batch(Self.traces)
    let summaries = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasSuffix(".summary.json") }.sorted().map { "\(directory)/\($0)" }
    #expect(summaries.count == Self.traces.count)
    let json = CreaseRun(["report", "-f", "json"] + summaries)
    #expect(json.status == .success, "\(json.error)")
    #expect(json.output == contents(of: "\(directory)/report.json"))
    #expect(CreaseRun(["report"] + summaries.reversed()).output == contents(of: "\(directory)/report.txt"))
  }

  @Test("merging is associative: the report of the reports of two halves is the report of all")
  func associative() throws {
    let (_, directory) = batch(Self.traces)
    let summaries = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasSuffix(".summary.json") }.sorted().map { "\(directory)/\($0)" }
    let scratch = temporaryDirectory()
    for (name, part) in [("a", Array(summaries.prefix(5))), ("b", Array(summaries.dropFirst(5)))] {
      #expect(CreaseRun(["report", "-f", "json", "-o", "\(scratch)/\(name).json"] + part).status == .success)
    }
    let ofHalves = CreaseRun("report", "-f", "json", "\(scratch)/b.json", "\(scratch)/a.json").output
    #expect(ofHalves == contents(of: "\(directory)/report.json"))
    let mixed = CreaseRun(["report", "-f", "json", "\(scratch)/a.json"] + summaries.dropFirst(5)).output
    #expect(mixed == ofHalves)
  }

  @Test("rows of the same name are put in order by their content, so any order of summaries gives one report")
  func equalNamesInAnyOrder() throws {
    // Three different traces replayed under one name: three summaries whose rows differ only
    // past the name.
    let directory = temporaryDirectory()
    let summaries = try ["wobble", "open-close", "dropped-frames"].enumerated().map { index, name in
      try? FileManager.default.removeItem(atPath: "\(directory)/trace.jsonl")
      try FileManager.default.copyItem(atPath: tracePath("\(name).jsonl"), toPath: "\(directory)/trace.jsonl")
      let summary = "\(directory)/\(index).json"
      #expect(
        CreaseRun("replay", "-o", "/dev/null", "--summary-json", summary, "\(directory)/trace.jsonl").status
          == .success)
      return summary
    }
    let reports = [[0, 1, 2], [2, 1, 0], [1, 2, 0]].map { order in
      CreaseRun(["report", "-f", "json"] + order.map { summaries[$0] }).output
    }
    #expect(reports[0].components(separatedBy: "trace.jsonl\"").count - 1 >= 3)
    #expect(reports[1] == reports[0])
    #expect(reports[2] == reports[0])
  }

  @Test("the report merges exactly: counts add up, percentiles come from the merged histograms")
  func exactMerge() throws {
    let (_, directory) = batch(Self.traces)
    let report = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: "\(directory)/report.json")))
        as? [String: Any])
    #expect(report["traceCount"] as? Int == Self.traces.count)
    let total = try #require(report["total"] as? [String: Int])
    #expect(total["rejected"]! > 0 && total["late"] == 2)
    let cues = try #require(report["cues"] as? [[String: Any]])
    let stall = try #require(cues.first { $0["cue"] as? String == "camera.stall" })
    var stalls = 0
    for trace in Self.traces {
      stalls += CreaseRun("replay", trace).output.components(separatedBy: #""cue":"camera.stall""#).count - 1
    }
    #expect(stall["count"] as? Int == stalls)
    #expect(report["stalls"] as? Int == stalls)
    let text = try #require(contents(of: "\(directory)/report.txt"))
    #expect(text.hasPrefix("Fleet report: 12 trace(s), 0 failed\n"))
    #expect(text.contains("  bounds: every cue within its bound\n"))
    #expect(text.contains("closest to their bound"))
  }

  @Test("traces are ranked by how close their cues came to the bound, not by timers that wait out theirs")
  func closestToBound() throws {
    let directory = temporaryDirectory()
    // The status flickers between two new values every 30 ms: the debounce never holds, and
    // statusMaxWaitMs commits it 150 ms after the first change, at its bound.
    var lines = [#"{"t":0,"kind":"hinge","angle":0.5,"status":"closed"}"#]
    for index in 0..<8 {
      let status = index % 2 == 0 ? "partiallyOpen" : "fullyOpen"
      lines.append(
        #"{"t":\#((100 + 30 * index) * 1_000_000),"kind":"hinge","angle":0.5,"status":"\#(status)"}"#)
    }
    lines.append(#"{"t":1000000000,"kind":"end"}"#)
    try write(lines.joined(separator: "\n") + "\n", to: "\(directory)/flicker.jsonl")
    let (run, output) = batch([tracePath("every-kind.jsonl"), "\(directory)/flicker.jsonl"])
    #expect(run.status == .success, "\(run.error)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(output)/report.json")))
        as? [String: Any])
    let ranking = try #require(report["closestToBound"] as? [[String: Any]])
    #expect(
      ranking.map { $0["trace"] as? String } == ["\(directory)/flicker.jsonl", tracePath("every-kind.jsonl")])
    #expect(ranking[0]["cue"] as? String == "hinge.status")
    #expect(ranking[0]["maxNs"] as? Int == 150_000_000 && ranking[0]["boundNs"] as? Int == 150_000_000)
    // every-kind's masks and settles wait out their full bound by design: they are not ranked.
    #expect(ranking[1]["cue"] as? String == "hinge.status")
    let text = try #require(contents(of: "\(output)/report.txt"))
    #expect(text.contains("hinge.status  150.000   150.000   100.0 %"))
  }

  @Test("a missing trace is reported and counted, never stops the others, and sets the exit status")
  func failures() throws {
    let (run, directory) = batch([
      tracePath("open-close.jsonl"), "/nonexistent/x.jsonl", tracePath("wobble.jsonl"),
    ])
    #expect(run.status == .noInput)
    #expect(run.error.contains("crease: /nonexistent/x.jsonl"))
    #expect(contents(of: "\(directory)/3-wobble.cues.jsonl") == contents(of: tracePath("wobble.cues.jsonl")))
    let text = try #require(contents(of: "\(directory)/report.txt"))
    #expect(text.hasPrefix("Fleet report: 3 trace(s), 1 failed\n"))
    #expect(text.contains("/nonexistent/x.jsonl  failed: "))
  }

  @Test("equal file names in different folders get different outputs")
  func noCollisions() throws {
    let scratch = temporaryDirectory()
    for folder in ["a", "b"] {
      try FileManager.default.createDirectory(
        atPath: "\(scratch)/\(folder)", withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: tracePath(folder == "a" ? "open-close.jsonl" : "wobble.jsonl"),
        toPath: "\(scratch)/\(folder)/t.jsonl")
    }
    let (run, directory) = batch(["\(scratch)/a/t.jsonl", "\(scratch)/b/t.jsonl"])
    #expect(run.status == .success)
    #expect(contents(of: "\(directory)/1-t.cues.jsonl") == contents(of: tracePath("open-close.cues.jsonl")))
    #expect(contents(of: "\(directory)/2-t.cues.jsonl") == contents(of: tracePath("wobble.cues.jsonl")))
  }

  @Test("an output that would overwrite a trace is refused before anything is written")
  func refusesOverwritingATrace() throws {
    let directory = temporaryDirectory()
    try FileManager.default.copyItem(atPath: tracePath("wobble.jsonl"), toPath: "\(directory)/1-x.cues.jsonl")
    try FileManager.default.copyItem(atPath: tracePath("wobble.jsonl"), toPath: "\(directory)/x.jsonl")
    let run = CreaseRun("batch", "-d", directory, "\(directory)/x.jsonl", "\(directory)/1-x.cues.jsonl")
    #expect(run.status == .usage)
    #expect(run.error.contains("is the same file as input"), "\(run.error)")
    #expect(contents(of: "\(directory)/1-x.cues.jsonl") == contents(of: tracePath("wobble.jsonl")))
  }

  @Test("bad report input: a clear error naming the file and the member, exit 65")
  func badInput() throws {
    let scratch = temporaryDirectory()
    let cases = [
      ("{\"version\": 1, \"sources\": []", "invalid JSON"),
      ("[1]", "not a crease summary or report"),
      ("{\"version\": 7, \"sources\": []}", "unsupported summary version 7"),
      (
        #"{"version":1,"traceCount":1,"failed":0,"total":{},"cues":[{"cue":"x","stage":"s","traces":1,"count":1,"#
          + #""overBound":0,"histogram":[[5000,1,1]]}],"violations":[],"traces":[]}"#,
        "'cues[0].histogram[0][0]' must be a bucket below 1888"
      ),
    ]
    for (index, (text, message)) in cases.enumerated() {
      try write(text, to: "\(scratch)/\(index).json")
      let run = CreaseRun("report", "\(scratch)/\(index).json")
      #expect(run.status == .dataError)
      #expect(run.error.contains(message), "\(run.error)")
    }
  }
}
