import Testing

@testable import Crease

@Suite("Cue kinds ended a payload at a time")
struct CueKindEndingTests {
  /// Every kind that holds a string, holding `text`.
  static func kindsHolding(_ text: String) -> [CueKind] {
    let stream = StreamName(rawValue: text)
    return [
      .mark(label: text),
      .hingeThreshold(
        boundary: BoundaryName(rawValue: text), side: .above, angle: .degrees(90), initial: false),
      .cameraGap(stream: stream, from: 0, to: 1, missing: 1, cause: .unexplained, reason: nil),
      .cameraStall(stream: stream),
      .cameraPTSRegression(stream: stream, from: 1, to: 0),
      .cameraDirection(stream: stream, camera: .innerFront, facing: .user),
      .cameraMirroring(stream: stream, camera: .innerFront, mirrored: true, basis: .direction),
      .cameraMask(stream: stream, on: true, reason: nil),
    ]
  }

  @Test("ending a kind releases the long string it holds: the copy left is unique again")
  func endingReleases() {
    for index in Self.kindsHolding("").indices {
      var kept = ImmortalStringTests.built(length: 40)
      kept.reserveCapacity(200)
      let storage = ImmortalStringTests.storageBits(kept)
      let kind = Self.kindsHolding(kept)[index]
      (consume kind).end()
      // Unique, the string grows in its own storage; still shared (a release skipped), it would
      // be copied to new storage first.
      kept.append("x")
      #expect(ImmortalStringTests.storageBits(kept) == storage, "\(Self.kindsHolding("")[index].name)")
      #expect(kept == ImmortalStringTests.built(length: 40) + "x")
    }
  }

  @Test("ending a kind that holds an immortal string leaves its copies as they were")
  func endingImmortal() {
    let kept = ImmortalStringTests.built(length: 15)
    for kind in Self.kindsHolding(kept) { (consume kind).end() }
    #expect(kept == ImmortalStringTests.built(length: 15))
  }
}
