import Foundation
import Testing

/// The HTML pages' structure and safety without a browser (Tests/Browser opens them in one).
@Suite("--html: a self-contained page, names escaped")
struct HTMLReportTests {
  @Test("a trace named like markup is shown as text, and the page has a chart per cue kind")
  func escaped() throws {
    let directory = temporaryDirectory()
    let trace = "\(directory)/<img src=x onerror=alert(1)>&\"'.jsonl"
    try write(try #require(contents(of: tracePath("open-close.jsonl"))), to: trace)
    #expect(
      CreaseRun("replay", trace, "-o", "/dev/null", "--summary-json", "\(directory)/a.json").status
        == .success)
    let run = CreaseRun("report", "\(directory)/a.json", "--html", "\(directory)/report.html", "-f", "json")
    #expect(run.status == .success, "\(run.error)")
    let page = try #require(contents(of: "\(directory)/report.html"))
    #expect(!page.contains("<img"))
    #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;.jsonl"))
    let kinds = try #require(
      (try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])?["cues"]
        as? [[String: Any]])
    // A chart per kind with a latency; those always at 0 ms named on one line instead.
    let timed = kinds.filter { ($0["maxNs"] as? Int ?? 0) > 0 }
    #expect(page.components(separatedBy: "<figure class=\"chart latency\"").count - 1 == timed.count)
    #expect(!timed.isEmpty && timed.count < kinds.count)
    for kind in kinds where !timed.contains(where: { $0["cue"] as? String == kind["cue"] as? String }) {
      #expect(page.contains(kind["cue"] as! String), "an instant kind is named")
    }
    // Nothing to fetch: the only address is the SVG namespace, which names, not loads.
    let addresses = page.replacing("xmlns=\"http://www.w3.org/2000/svg\"", with: "")
    #expect(!addresses.contains("http:") && !addresses.contains("https:") && !addresses.contains(" src=\""))
  }

  @Test("a sweep of ten bounds draws the least and the greatest, not ten lines a chart")
  func manyBounds() throws {
    let html = "\(temporaryDirectory())/sweep.html"
    let values = stride(from: 60, through: 150, by: 10).map(String.init).joined(separator: ",")
    let run = CreaseRun(
      "sweep", tracePath("open-close.jsonl"), "--set", "hinge.statusMaxWaitMs=\(values)", "--html", html)
    #expect(run.status == .success, "\(run.error)")
    let page = try #require(contents(of: html))
    #expect(page.contains(">bound 60 ms (least of 10 bounds)<"))
    #expect(page.contains(">bound 150 ms (greatest of 10 bounds)<"))
    #expect(!page.contains(">bound 100 ms"), "no line between")
  }

  @Test("--html onto an input is refused before anything is written")
  func refusesInput() throws {
    let directory = temporaryDirectory()
    #expect(
      CreaseRun(
        "replay", tracePath("open-close.jsonl"), "-o", "/dev/null", "--summary-json", "\(directory)/a.json"
      ).status == .success)
    let before = contents(of: "\(directory)/a.json")
    let run = CreaseRun("report", "\(directory)/a.json", "--html", "\(directory)/a.json")
    #expect(run.status == .usage && run.error.contains("--html"))
    #expect(contents(of: "\(directory)/a.json") == before)
  }
}
