import CreaseCLI
import CreaseIO
import Foundation
import Testing

/// The rules of issue 52 through `crease replay`, JSON Lines and binary alike.
@Suite("SPEC 4.6 to 4.8 through crease replay")
struct FidelityReplayTests {
  /// A virtualFront input under a map listing both front cameras toward the person, inner first;
  /// then a frame labelled virtualFront among the inner camera's; a repeated stop with a frame
  /// delivered between; the first known status after `unknown`, which is no fold.
  static let trace = """
    {"kind":"header","format":"crease-trace","version":1,"streams":{"video":{"fps":30}}}
    {"t":0,"kind":"hinge","angle":0,"status":"unknown"}
    {"t":0,"kind":"direction","toward":["innerFront","outerFront"],"away":["backWide"]}
    {"t":0,"kind":"display","display":"inner","fullScreen":true}
    {"t":1000000,"kind":"input","stream":"video","camera":"virtualFront"}
    {"t":34333333,"kind":"frame","stream":"video","pts":33333333,"camera":"innerFront"}
    {"t":67666666,"kind":"frame","stream":"video","pts":66666666,"camera":"virtualFront"}
    {"t":80000000,"kind":"hinge","angle":0,"status":"closed"}
    {"t":101000000,"kind":"frame","stream":"video","pts":100000000,"camera":"innerFront"}
    {"t":134333333,"kind":"frame","stream":"video","pts":133333333,"camera":"innerFront"}
    {"t":140000000,"kind":"session","running":false}
    {"t":167666666,"kind":"frame","stream":"video","pts":166666666,"camera":"innerFront"}
    {"t":170000000,"kind":"session","running":false}
    {"t":300000000,"kind":"session","running":true}
    {"t":301000000,"kind":"frame","stream":"video","pts":300000000,"camera":"innerFront"}
    {"t":334333333,"kind":"frame","stream":"video","pts":333333333,"camera":"innerFront"}
    {"t":400000000,"kind":"end"}

    """

  @Test(
    "the rules hold in JSON Lines and in both binary versions, byte for byte",
    arguments: [nil, 1, 2] as [Int?])
  func replay(binaryVersion: Int?) throws {
    let directory = temporaryDirectory()
    try Self.trace.write(toFile: "\(directory)/t.jsonl", atomically: true, encoding: .utf8)
    var input = "\(directory)/t.jsonl"
    if let binaryVersion {
      input = "\(directory)/t.crtrace"
      #expect(
        CreaseRun("convert", "\(directory)/t.jsonl", "-o", input, "--binary-version", "\(binaryVersion)")
          .status
          == .success)
    }
    let run = CreaseRun("replay", input, "-f", "text")
    #expect(run.status == .success)
    let cues = run.output.split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: true)
    }
    func lines(_ cue: String) -> [String] {
      cues.filter { $0.count > 1 && $0[1] == cue }.map { $0.joined(separator: " ") }
    }
    // The first listed front camera, mirrored, before any frame; the label keeps innerFront.
    #expect(lines("camera.mirroring").count == 1, "\(run.output)")
    #expect(lines("camera.mirroring").first?.contains("camera=innerFront") == true, "\(run.output)")
    // Learning the status masks nothing; the frames around the stops make no gap.
    #expect(lines("camera.mask").isEmpty, "\(run.output)")
    #expect(lines("camera.gap").isEmpty, "\(run.output)")
    #expect(lines("hinge.status").count == 1)
  }

  @Test("a synthetic fold recorded from launch with an unknown status masks only at the real fold")
  func synthUnknownLaunch() {
    let synth = CreaseRun("synth", "fold-while-recording", "--seed", "16")
    let replay = CreaseRun(["replay", "-", "-f", "text"], input: Array(synth.output.utf8))
    let masks = replay.output.split(separator: "\n").filter {
      $0.contains("camera.mask") && $0.contains("on=true")
    }
    #expect(masks.count == 1)
    #expect(masks.first?.hasPrefix("     3.320759503") == true, "\(replay.output)")
  }
}
