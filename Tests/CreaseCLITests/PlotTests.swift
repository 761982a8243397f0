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

  /// The `points` of the angle polyline.
  func anglePoints(_ svg: String) throws -> [(x: Double, y: Double)] {
    let polyline = try #require(svg.split(separator: "\n").first { $0.hasPrefix("<polyline") })
    return polyline.split(separator: " ").compactMap { word in
      let pair = word.split(separator: ",")
      guard pair.count == 2, let x = Double(pair[0].filter { $0 != "\"" && $0 != "=" && !$0.isLetter }),
        let y = Double(pair[1].filter { $0 != "\"" })
      else { return nil }
      return (x, y)
    }
  }

  @Test("the picture is well-formed SVG with the angle line, status bands, boundaries and cues")
  func content() throws {
    let svg = try plot(tracePath("fold-while-recording.jsonl"))
    #expect(XMLParser(data: Data(svg.utf8)).parse(), "well-formed XML")
    let hingeSamples = contents(of: tracePath("fold-while-recording.jsonl"))!.split(separator: "\n")
      .filter { $0.contains(#""kind":"hinge""#) }.count
    // Fewer samples than pixel columns: every one is drawn.
    #expect(try anglePoints(svg).count == hingeSamples)
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
    "an hour of synth day: linear, under 1 MB, at most 4 points a pixel column, every extreme and every cue kept"
  )
  func longTrace() throws {
    let directory = temporaryDirectory()
    let trace = "\(directory)/day.jsonl"
    #expect(CreaseRun("synth", "day", "--duration", "3600", "-o", trace).status == .success)
    let svg = try plot(trace)
    #expect(svg.utf8.count < 1_000_000)
    #expect(XMLParser(data: Data(svg.utf8)).parse(), "well-formed XML")
    let points = try anglePoints(svg)
    #expect(points.count <= 4 * 1090)
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
