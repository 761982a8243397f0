import CreaseCLI
import Foundation
import Testing

@Suite("crease report -f csv and -f markdown")
struct ReportTableTests {
  @Test("a row per cue kind, with the counts and latencies the JSON report holds")
  func table() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let traces = ["open-close.jsonl", "dropped-frames.jsonl"].map(tracePath)
    #expect(CreaseRun(["batch", "-d", directory] + traces).status == .success)
    let json = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: "\(directory)/report.json")))
        as? [String: Any])
    let kinds = try #require(json["cues"] as? [[String: Any]])
    let csv = CreaseRun("report", "-f", "csv", "\(directory)/report.json").output.split(separator: "\n")
    #expect(csv.first == "cue,stage,traces,count,p50 ms,p90 ms,p99 ms,max ms,over bound")
    #expect(csv.count == kinds.count + 1)
    for kind in kinds {
      let name = kind["cue"] as! String
      let row = try #require(csv.first { $0.hasPrefix("\(name),") }).split(separator: ",")
      #expect(Int(row[3]) == kind["count"] as? Int, "\(name)")
      #expect(row[7] == TextTableMilliseconds.text(kind["maxNs"] as! Int), "\(name)")
    }
    let markdown = CreaseRun("report", "-f", "markdown", "\(directory)/report.json").output.split(
      separator: "\n")
    #expect(markdown.count == kinds.count + 2 && markdown[0].hasPrefix("| cue | stage | traces |"))
  }
}

/// Nanoseconds as the tables write them: milliseconds with three decimals.
enum TextTableMilliseconds {
  static func text(_ nanoseconds: Int) -> String {
    let microseconds = (nanoseconds + 500) / 1000
    let fraction = String(microseconds % 1000)
    return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
