import CreaseCLI
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite("crease plot")
struct PlotTests {
  func plot(_ trace: String, _ options: String...) throws -> String {
    let path = "\(temporaryDirectory())/plot.svg"
    let run = CreaseRun(["plot", trace, "-o", path] + options)
    #expect(run.status == .success, "\(run.error)")
    return try #require(contents(of: path))
  }

  /// The `points` of each element of `svg` whose line starts with `prefix`, one list each.
  func pointLists(_ svg: String, _ prefix: String) -> [[(x: Double, y: Double)]] {
    svg.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { element in
      let points = element[element.range(of: #"points=""#)!.upperBound...].prefix { $0 != "\"" }
      var list: [(x: Double, y: Double)] = []
      for word in points.split(separator: " ") {
        let pair = word.split(separator: ",").compactMap { Double($0) }
        // A one-point segment repeats its point, to draw a dot.
        if pair.count == 2, list.last.map({ $0.x != pair[0] || $0.y != pair[1] }) ?? true {
          list.append((pair[0], pair[1]))
        }
      }
      return list
    }
  }

  /// The points of the angle's line, every segment's in order.
  func anglePoints(_ svg: String) -> [(x: Double, y: Double)] {
    pointLists(svg, #"<polyline class="angle""#).flatMap { $0 }
  }

  @Test("the picture is well-formed SVG with the angle line, status bands, boundaries and cues")
  func content() throws {
    let svg = try plot(tracePath("fold-while-recording.jsonl"))
    #expect(XMLParser(data: Data(svg.utf8)).parse(), "well-formed XML")
    let hingeSamples = contents(of: tracePath("fold-while-recording.jsonl"))!.split(separator: "\n")
      .filter { $0.contains(#""kind":"hinge""#) }.count
    // Fewer samples than pixel columns: every one is drawn.
    #expect(anglePoints(svg).count == hingeSamples)
    for fragment in [
      "<title>camera.gap video: 8 missing from 1.003 s to 1.270 s, cameraSwitch</title>",
      "<title>camera.mask video from 0.872 s to 1.270 s</title>",
      "<title>hinge.motion opening at 0.838 s, 11.8°",
      "<title>hinge.settled fullyOpen at 1.357 s, 167.8°", "<title>camera.stall video at 1.069 s</title>",
      "<title>camera.mirroring video at 1.270 s: innerFront mirrored (direction)</title>",
      ">flat (135–145°)</text>", ">hinge angle (°)</text>",
      ">trace time (s since the trace's first event)</text>", ">0.0 s</text>", ">0.5 s</text>",
      ##"fill="#dcfce7""##, ##"fill="#e6e6e6""##,
    ] {
      #expect(svg.contains(fragment), "missing \(fragment)")
    }
  }

  @Test(
    "an hour of synth day: under 1 MB, a line point and a band per pixel column, every extreme and every cue kept"
  )
  func longTrace() throws {
    let directory = temporaryDirectory()
    let trace = "\(directory)/day.jsonl"
    #expect(CreaseRun("synth", "day", "--duration", "3600", "-o", trace).status == .success)
    let svg = try plot(trace)
    #expect(svg.utf8.count < 1_000_000)
    #expect(XMLParser(data: Data(svg.utf8)).parse(), "well-formed XML")
    #expect(anglePoints(svg).count <= 1090)
    // The extremes are in the band: its upper edge and lower edge, one point a column each.
    let points = pointLists(svg, #"<polygon class="angle-band""#).flatMap { $0 }
    #expect(points.count <= 2 * 1090)
    // The lowest and highest angle of the trace are both drawn.
    let angles = try #require(contents(of: trace)).split(separator: "\n").compactMap { line -> Double? in
      guard line.contains(#""kind":"hinge""#), let range = line.range(of: #""angle":"#) else { return nil }
      return Double(line[range.upperBound...].prefix { $0 == "." || $0 == "-" || $0.isNumber })
    }
    let topY = 370 - min(angles.max()!, 180) / 180 * 320
    #expect(points.contains { abs($0.y - topY) < 0.01 })
    // Merged markers account for every cue: the markers plus their "+N more" add up.
    let cues = CreaseRun("replay", trace).output
    let openings = cues.components(separatedBy: #""phase":"opening""#).count - 1
    let markers = svg.split(separator: "\n").filter { $0.contains("<title>hinge.motion opening") }
    let merged = markers.reduce(0) { total, line in
      guard let range = line.range(of: "(+") else { return total + 1 }
      return total + 1 + Int(line[range.upperBound...].prefix { $0.isNumber })!
    }
    #expect(openings > 100)
    #expect(merged == openings)
  }

  @Test("the line breaks where hinge samples stop, instead of sloping across the silence")
  func breaksWhereSamplesStop() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    var lines = [#"{"kind":"header","format":"crease-trace","version":1}"#]
    for (start, degrees) in [(0, 90.0), (15_000, 0.0)] {
      for step in 0..<120 {
        let t = (start + step * 16) * 1_000_000
        lines.append(#"{"t":\#(t),"kind":"hinge","angle":\#(degrees),"status":"partiallyOpen"}"#)
      }
    }
    try write(lines.joined(separator: "\n") + "\n", to: "\(directory)/silent.jsonl")
    let svg = try plot("\(directory)/silent.jsonl")
    let segments = pointLists(svg, #"<polyline class="angle""#)
    #expect(segments.count == 2, "two runs of samples, two lines")
    // Nothing is drawn in the 13 s of silence: from about 2 s to 15 s of 17 s, over 1,090 px.
    let silence = (80 + 1090 * 2.2 / 16.9)...(80 + 1090 * 14.9 / 16.9)
    #expect(!anglePoints(svg).contains { silence.contains($0.x) })
  }

  @Test("mark labels never overlap: each on the first free row of two, or left to its tooltip")
  func labelsDoNotOverlap() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    #expect(
      CreaseRun("synth", "day", "--duration", "3600", "-o", "\(directory)/day.jsonl").status == .success)
    let svg = try plot("\(directory)/day.jsonl")
    var rows: [String: [(Double, Double)]] = [:]
    for line in svg.split(separator: "\n") where line.contains(##"fill="#374151">"##) {
      for label in line.components(separatedBy: "<text ").dropFirst() {
        func attribute(_ name: String) -> String {
          String(label[label.range(of: name + "=\"")!.upperBound...].prefix { $0 != "\"" })
        }
        let text = label[label.range(of: ">")!.upperBound...].prefix { $0 != "<" }
        let width = 7.0 * Double(text.count)
        let x = Double(attribute("x"))!
        let start = attribute("text-anchor") == "end" ? x - width : x
        rows[attribute("y"), default: []].append((start, start + width))
      }
    }
    #expect(rows.count == 2, "the day's many marks use both rows")
    for (_, labels) in rows {
      for (left, right) in zip(labels, labels.dropFirst()) {
        #expect(right.0 > left.1, "\(left) and \(right)")
      }
    }
  }

  @Test("the latency lane: each column's largest latency against its bound, named in its tooltip")
  func latencyLane() throws {
    let svg = try plot(tracePath("open-close.jsonl"))
    let bars = svg.split(separator: "\n").filter { $0.contains(" ms of ") }
    #expect(!bars.isEmpty && bars.count <= 1090)
    #expect(
      bars.contains { $0.contains("<title>hinge.status at 0.626 s: latency 50.000 ms of 150.000 ms</title>") }
    )
    #expect(!svg.contains("OVER THE BOUND"), "Crease keeps its bounds")
  }

  @Test("--from and --to draw a window: its title, ticks and cues only")
  func window() throws {
    let svg = try plot(tracePath("fold-while-recording.jsonl"), "--from", "0.9", "--to", "1.3")
    #expect(svg.contains("Traces/fold-while-recording.jsonl (0.900 s to 1.300 s)"))
    #expect(svg.contains(">0.90 s</text>") || svg.contains(">0.9 s</text>"))
    #expect(!svg.contains("<title>hinge.settled"), "settled at 1.357 s is outside the window")
    #expect(svg.contains("camera.gap video"))
    #expect(XMLParser(data: Data(svg.utf8)).parse())
    let reversed = CreaseRun("plot", tracePath("every-kind.jsonl"), "-o", "-", "--from", "2", "--to", "1")
    #expect(reversed.status == .usage)
    #expect(CreaseRun("plot", tracePath("every-kind.jsonl"), "-o", "-", "--from", "nan").status == .usage)
  }

  @Test("markers are drawn above slices, and the legend shows each marker's own shape")
  func layering() throws {
    let svg = try plot(tracePath("every-kind.jsonl"))
    let lines = svg.split(separator: "\n").map(String.init)
    let lastGap = try #require(lines.lastIndex { $0.contains("<title>camera.gap") })
    let firstStall = try #require(lines.firstIndex { $0.contains("<title>camera.stall") })
    #expect(firstStall > lastGap)
    let legendStall = try #require(lines.first { $0.hasSuffix(">stall</text>") })
    #expect(legendStall.hasPrefix("<path d=\"M"), "a stall swatch is a dot like the marker")
  }

  @Test("the same trace gives the same bytes, to a file or to standard output")
  func deterministic() throws {
    let file = try plot(tracePath("synth-day.jsonl"))
    #expect(file == (try plot(tracePath("synth-day.jsonl"))))
    #expect(CreaseRun("plot", tracePath("synth-day.jsonl"), "-o", "-").output == file)
  }

  @Test("plot needs -o")
  func missingOutput() {
    #expect(CreaseRun("plot", tracePath("every-kind.jsonl")).status == .usage)
  }
}
