import Crease
import Testing

@Suite("cue kinds and stages as table indexes")
struct CueKindTagTests {
  @Test("tags and stages number their cases 0, 1, 2… in order, and names are unique")
  func ordinals() {
    #expect(CueKind.Tag.allCases.map(\.rawValue) == Array(CueKind.Tag.allCases.indices))
    #expect(LatencyStage.allCases.map(\.rawValue) == Array(LatencyStage.allCases.indices))
    #expect(Set(CueKind.Tag.allCases.map(\.name)).count == CueKind.Tag.allCases.count)
  }

  @Test("a replay summary's set of kinds seen, a 64-bit word, holds every kind")
  func fitsTheSummary() {
    #expect(CueKind.Tag.allCases.count <= UInt64.bitWidth)
  }

  @Test("a cue's tag names it as the cue does")
  func tagNames() {
    let cues: [CueKind] = [
      .hingeUnavailable, .mark(label: "x"), .cameraStall(stream: "video"), .hingeProgress(value: 0.5),
    ]
    #expect(cues.map(\.tag) == [.hingeUnavailable, .mark, .cameraStall, .hingeProgress])
    #expect(cues.map(\.name) == ["hinge.unavailable", "mark", "camera.stall", "hinge.progress"])
  }
}
