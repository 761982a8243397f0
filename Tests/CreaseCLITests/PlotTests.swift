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
      ">trace time (s, as crease replay -f text prints it)</text>", ">0.0 s</text>", ">0.5 s</text>",
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

/// The plot tells the replay's time: the trace's own seconds over the whole trace, a row of
/// frames per stream, and a window outside the trace refused.
@Suite("crease plot: the replay's clock and the frame rows")
struct PlotClockTests {
  let plots = PlotTests()

  /// The `d` of the frame row of `stream`: one `M` per tick or per column's bar.
  func framePath(_ svg: String, stream: String = "video") throws -> String {
    let line = try #require(
      svg.split(separator: "\n").first { $0.hasPrefix(#"<path class="frames" data-stream="\#(stream)""#) })
    return String(line[line.range(of: #" d=""#)!.upperBound...].prefix { $0 != "\"" })
  }

  /// The x of each tick or bar of a frame row.
  func frameXs(_ path: String) -> [Double] {
    path.split(separator: "M").compactMap { Double($0.prefix { $0 != "," }) }
  }

  /// The x of the time tick labelled `label` (`"1.0 s"`).
  func tickX(_ svg: String, _ label: String) throws -> Double {
    let line = try #require(svg.split(separator: "\n").first { $0.hasSuffix(">\(label)</text>") })
    return try #require(Double(line[line.range(of: #"x=""#)!.upperBound...].prefix { $0 != "\"" }))
  }

  @Test(
    "an imported recording: the axis covers it whole, a tick per frame, the hole empty, times as the text says"
  )
  func cameraOnlyTrace() throws {
    let directory = temporaryDirectory()
    let trace = "\(directory)/android.jsonl"
    #expect(
      CreaseRun("import", "\(repositoryRoot)/Traces/real/sample_android_slow_motion.mp4", "-o", trace).status
        == .success)
    let svg = try plots.plot(trace)
    let frames = try #require(contents(of: trace)).components(separatedBy: #""kind":"frame""#).count - 1
    let xs = frameXs(try framePath(svg))
    #expect(xs.count == frames)
    // The first frame at the frame's left inset, the last (0.492 s, the trace's end) at its right.
    #expect(xs.first == 86 && xs.last == 1164)
    // The 325 ms hole after the first frame: no tick between.
    #expect(!xs.contains { $0 > 87 && $0 < 86 + 1078 * 0.325 / 0.492 - 1 })
    #expect(svg.contains(">0.45 s</text>"), "the axis reaches the end of the trace")
    #expect(svg.contains("<title>camera.gap video: 9 missing from 0.033 s to 0.392 s, unexplained</title>"))
    #expect(CreaseRun("replay", trace, "-f", "text").output.contains("0.392011111  camera.gap"))
    #expect(svg.contains("<title>video: 1 frame from 0.000 s to 0.000 s</title>"))
  }

  @Test("a trace 1000 s into its clock is drawn at 1000 s, as the text output prints it")
  func shiftedTrace() throws {
    let directory = temporaryDirectory()
    let shifted = try #require(contents(of: tracePath("fold-while-recording.jsonl"))).split(separator: "\n")
      .map { line -> String in
        guard let range = line.range(of: #"{"t":"#) else { return String(line) }
        let digits = line[range.upperBound...].prefix { $0.isNumber }
        return #"{"t":\#(Int64(digits)! + 1_000_000_000_000)"# + line[digits.endIndex...]
      }
    try write(shifted.joined(separator: "\n") + "\n", to: "\(directory)/shifted.jsonl")
    let text = CreaseRun("replay", "\(directory)/shifted.jsonl", "-f", "text").output
    #expect(text.contains("1001.069428841  camera.stall"), "\(text)")
    let svg = try plots.plot("\(directory)/shifted.jsonl")
    #expect(svg.contains("<title>camera.stall video at 1001.069 s</title>"))
    #expect(svg.contains(">1001.0 s</text>") && svg.contains(">1002.5 s</text>"))
    let window = try plots.plot("\(directory)/shifted.jsonl", "--from", "1000.9", "--to", "1001.3")
    #expect(window.contains("(1000.900 s to 1001.300 s)"))
  }

  @Test("a hinge that starts at 1.0 s after frames from 0: its status band starts at the 1.0 s tick")
  func lateHinge() throws {
    let directory = temporaryDirectory()
    var lines = [#"{"kind":"header","format":"crease-trace","version":1}"#]
    for frame in 0...60 {
      let t = Int64(frame) * 33_333_333
      lines.append(#"{"t":\#(t),"kind":"frame","stream":"video","pts":\#(t)}"#)
      if t >= 1_000_000_000 { lines.append(#"{"t":\#(t),"kind":"hinge","angle":10,"status":"closed"}"#) }
    }
    try write(lines.joined(separator: "\n") + "\n", to: "\(directory)/late.jsonl")
    let svg = try plots.plot("\(directory)/late.jsonl")
    let band = try #require(
      svg.split(separator: "\n").first { $0.contains(##"fill="#e6e6e6""##) && $0.hasPrefix("<rect") })
    let x = try #require(Double(band[band.range(of: #"x=""#)!.upperBound...].prefix { $0 != "\"" }))
    // The hinge's first sample is the frame at 1.0333 s, 1.0 s's tick is 33 ms before it.
    let perSecond = (1164.0 - 86) / 2.0
    #expect(abs(x - (try tickX(svg, "1.0 s") + perSecond * 0.033333)) < 0.02)
  }

  @Test("a window wholly outside the trace is a usage error naming the trace's span")
  func windowOutside() throws {
    for window in [["--from", "3"], ["--from", "5", "--to", "6"]] {
      let run = CreaseRun(["plot", tracePath("fold-while-recording.jsonl"), "-o", "-"] + window)
      #expect(run.status == .usage)
      #expect(run.error.contains("outside the trace, which spans 0.000 s to 2.600 s"), "\(run.error)")
      #expect(run.output.isEmpty)
    }
    let shifted = try plots.plot(tracePath("fold-while-recording.jsonl"), "--from", "2.5", "--to", "9")
    #expect(shifted.contains("(2.500 s to 9.000 s)"), "a window partly inside is drawn as asked")
  }

  @Test("markers at the trace's ends are drawn whole inside the frame, and the latency lane has its scale")
  func edgesAndScale() throws {
    let svg = try plots.plot(tracePath("fold-while-recording.jsonl"))
    for line in svg.split(separator: "\n") where line.hasPrefix(#"<path d="M"#) && line.contains("<title>") {
      let x = try #require(Double(line.dropFirst(10).prefix { $0 != "," }))
      #expect(x >= 80 + 5.5 - 0.01 && x <= 1170 - 5.5, "\(line)")
    }
    #expect(svg.contains(#">100 %</text>"#) && svg.contains(#">0 %</text>"#))
    #expect(svg.contains(">latency, % of its bound</text>"), "the legend says what the scale measures")
  }

  @Test("an hour of frames: a bar per pixel column, the canvas bounded")
  func longFrameRow() throws {
    let directory = temporaryDirectory()
    #expect(
      CreaseRun("synth", "dropped-frames", "--duration", "3600", "-o", "\(directory)/hour.jsonl").status
        == .success)
    let svg = try plots.plot("\(directory)/hour.jsonl")
    let bars = frameXs(try framePath(svg))
    #expect(bars.count > 1000 && bars.count <= 1078)
    #expect(svg.utf8.count < 1_000_000)
  }
}
