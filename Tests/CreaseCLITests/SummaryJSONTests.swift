import Crease
import CreaseIO
import Foundation
import Testing

@Suite("Command line: --summary-json")
struct SummaryJSONTests {
  /// Replays `trace` and returns its summary file, parsed.
  func summary(_ arguments: String...) throws -> (run: CreaseRun, json: [String: Any]) {
    let path = temporaryDirectory() + "/summary.json"
    let run = CreaseRun(["replay", "-o", "/dev/null", "--summary-json", path] + arguments)
    let data = try #require(FileManager.default.contents(atPath: path))
    return (run, try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
  }

  @Test("it holds what --summary prints: line accounting, end rule, and each kind's count and percentiles")
  func matchesTextSummary() throws {
    let (_, json) = try summary(tracePath("every-kind.jsonl"))
    let total = try #require(json["total"] as? [String: Any])
    #expect(total["lines"] as? Int == total["processed"] as? Int)
    let end = try #require(json["end"] as? [String: Any])
    #expect(end["rule"] as? String == "endEvent")
    let cues = try #require(json["cues"] as? [[String: Any]])
    let status = try #require(cues.first { $0["cue"] as? String == "hinge.status" })
    #expect(status["count"] as? Int == 1)
    #expect(status["p50Ns"] as? Int == 50_000_000)
    #expect(status["stage"] as? String == "status debounce")
    #expect(status["overBound"] as? Int == 0)
    let stall = try #require(cues.first { $0["cue"] as? String == "camera.stall" })
    #expect(stall["count"] as? Int == 2)
    #expect(stall["maxNs"] as? Int == 100_000_000)
    #expect(cues.map { $0["cue"] as! String } == cues.map { $0["cue"] as! String }.sorted())
  }

  @Test("the histograms rebuild every percentile exactly")
  func histogramsRebuildPercentiles() throws {
    let (_, json) = try summary(tracePath("synth-day.jsonl"))
    for entry in try #require(json["cues"] as? [[String: Any]]) {
      var histogram = LatencyHistogram()
      for triple in try #require(entry["histogram"] as? [[Int]]) {
        histogram.add(
          LatencyHistogram.Bucket(count: triple[1], maximum: Nanoseconds(Int64(triple[2]))),
          toBucket: triple[0])
      }
      #expect(histogram.count == entry["count"] as? Int)
      #expect(histogram.percentile(99).rawValue == Int64(entry["p99Ns"] as! Int))
      #expect(histogram.maximum.rawValue == Int64(entry["maxNs"] as! Int))
    }
  }

  @Test("rejected and late lines are counted per source, and gaps by cause")
  func accounting() throws {
    let (run, json) = try summary(tracePath("bad-lines.jsonl"), tracePath("dropped-frames.jsonl"))
    #expect(run.status == .dataError)
    let sources = try #require(json["sources"] as? [[String: Any]])
    #expect(sources.count == 2)
    #expect((sources[0]["rejected"] as? Int ?? 0) > 0)
    let gaps = try #require(json["gaps"] as? [String: Int])
    #expect(gaps["reportedDrop"]! > 0)
  }

  @Test("'--summary-json -' writes standard output when the cues go to a file, and is refused otherwise")
  func standardOutput() throws {
    let directory = temporaryDirectory()
    let run = CreaseRun(
      "replay", "-o", "\(directory)/cues.jsonl", "--summary-json", "-", tracePath("open-close.jsonl"))
    #expect(run.status == .success)
    #expect(run.output.hasPrefix("{\n  \"version\": 2,\n"))
    let clash = CreaseRun("replay", "--summary-json", "-", tracePath("open-close.jsonl"))
    #expect(clash.status == .usage)
    #expect(clash.error.contains("'--summary-json -' needs the cues elsewhere"))
  }

  @Test("the same input gives the same summary bytes")
  func deterministic() throws {
    let directory = temporaryDirectory()
    for name in ["a", "b"] {
      _ = CreaseRun(
        "replay", "-o", "/dev/null", "--summary-json", "\(directory)/\(name).json",
        tracePath("synth-day.jsonl"))
    }
    #expect(contents(of: "\(directory)/a.json") == contents(of: "\(directory)/b.json"))
  }
}

/// A stall's bound is `stallFactor` frames of its own stream's rate (SPEC 5): stated per stream
/// wherever a bound is shown (issue 54, item 3).
@Suite("Stall bounds per stream rate")
struct StallBoundTests {
  /// `synth dropped-frames` at `fps`, written to `directory`, with its summary file.
  func replayed(fps: Int, in directory: String) throws -> (text: String, summary: String) {
    let trace = "\(directory)/d\(fps).jsonl"
    #expect(CreaseRun("synth", "dropped-frames", "--fps", "\(fps)", "-o", trace).status == .success)
    let summary = "\(directory)/d\(fps).summary.json"
    let run = CreaseRun("replay", trace, "-o", "/dev/null", "--summary", "--summary-json", summary)
    #expect(run.status == .success, "\(run.error)")
    return (run.error, summary)
  }

  @Test("at 60 fps the summary states a 50 ms stall bound for the stream, in text and JSON")
  func summary() throws {
    let directory = temporaryDirectory()
    let (text, summary) = try replayed(fps: 60, in: directory)
    #expect(text.contains("    stall: 3.0 × nominal frame duration (video: 50.000 ms)\n"), "\(text)")
    #expect(!text.contains("at 30 fps"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary)))
        as? [String: Any])
    let bounds = try #require(json["stallBounds"] as? [[String: Any]])
    #expect(bounds.count == 1)
    #expect(bounds.first?["stream"] as? String == "video")
    #expect(bounds.first?["minNs"] as? Int == 50_000_000 && bounds.first?["maxNs"] as? Int == 50_000_000)
  }

  @Test("past four stalled streams the text gives their range, one line whatever their number")
  func manyStreams() throws {
    var frames: [(t: Int, line: String)] = []
    for stream in 0..<6 {
      // Frames at 30 or 60 fps (estimated, no rate declared), then silence: each stream stalls.
      let duration = stream % 2 == 0 ? 33_333_333 : 16_666_667
      for frame in 0..<20 {
        let t = frame * duration
        frames.append((t, #"{"t":\#(t),"kind":"frame","stream":"s\#(stream)","pts":\#(t)}"#))
      }
    }
    let lines =
      [#"{"kind":"header","format":"crease-trace","version":1}"#]
      + frames.sorted { $0.t < $1.t }.map(\.line) + [#"{"t":3000000000,"kind":"end"}"#]
    let trace = "\(temporaryDirectory())/six.jsonl"
    try write(lines.joined(separator: "\n") + "\n", to: trace)
    let run = CreaseRun("replay", trace, "-o", "/dev/null", "--summary")
    #expect(run.status == .success, "\(run.error)")
    #expect(
      run.error.contains("    stall: 3.0 × nominal frame duration (6 streams: 50.000 to 99.999 ms)\n"),
      "\(run.error)")
  }

  @Test("a report of 30 and 60 fps traces draws the stall bound by stream rate, and keeps it per row")
  func report() throws {
    let directory = temporaryDirectory()
    let sixty = try replayed(fps: 60, in: directory).summary
    let thirty = try replayed(fps: 30, in: directory).summary
    let html = "\(directory)/report.html"
    #expect(CreaseRun("report", sixty, thirty, "--html", html).status == .success)
    #expect(try #require(contents(of: html)).contains(">bound 50–100 ms by stream rate<"))
    let report = CreaseRun("report", sixty, thirty, "-f", "json").output
    #expect(report.contains(#""minNs": 50000000"#) && report.contains(#""minNs": 100000000"#))
    let reportFile = "\(directory)/report.json"
    try write(report, to: reportFile)
    #expect(CreaseRun("report", reportFile, "-f", "json").output == report, "a report read back is the same")
    let alone = "\(directory)/alone.html"
    #expect(CreaseRun("report", sixty, "--html", alone).status == .success)
    #expect(try #require(contents(of: alone)).contains(">bound 50 ms by stream rate<"))
  }
}
