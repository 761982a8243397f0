import CreaseCLI
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite("crease plot")
struct PlotTests {
  func plot(_ trace: String) throws -> String {
    let path = "\(temporaryDirectory())/plot.svg"
    let run = CreaseRun("plot", tracePath(trace), "-o", path)
    #expect(run.status == .success)
    return try #require(contents(of: path))
  }

  @Test("the picture is well-formed SVG with the angle line, status bands, boundaries and cues")
  func content() throws {
    let svg = try plot("fold-while-recording.jsonl")
    #expect(XMLParser(data: Data(svg.utf8)).parse(), "well-formed XML")
    let hingeSamples = contents(of: tracePath("fold-while-recording.jsonl"))!.split(separator: "\n")
      .filter { $0.contains(#""kind":"hinge""#) }.count
    let polyline = try #require(svg.split(separator: "\n").first { $0.hasPrefix("<polyline") })
    #expect(polyline.split(separator: " ").filter { $0.contains(",") }.count == hingeSamples)
    for fragment in [
      "<title>camera.gap video 8 missing, cameraSwitch</title>", "<title>camera.mask video</title>",
      "<title>hinge.motion opening</title>", "<title>hinge.settled fullyOpen</title>", ">flat</text>",
      ##"fill="#dcfce7""##, ##"fill="#e6e6e6""##,
    ] {
      #expect(svg.contains(fragment), "missing \(fragment)")
    }
  }

  @Test("the same trace gives the same bytes")
  func deterministic() throws {
    #expect(try plot("synth-day.jsonl") == (try plot("synth-day.jsonl")))
  }

  @Test("plot needs -o")
  func missingOutput() {
    #expect(CreaseRun("plot", tracePath("every-kind.jsonl")).status == .usage)
  }
}
