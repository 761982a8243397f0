import Testing

@testable import Crease

/// The rules of SPEC 4.6 and 4.7 an independent implementation read differently (issue 39),
/// each drawn as a marble diagram, so that no change can move one silently. Notation: see
/// `FrameGapsMarble` and `FrameMarble`.
@Suite("SPEC 4.6 and 4.7, rule by rule")
struct SpecRuleMarbleTests {
  static func missing(_ findings: [FrameGapsStateMachine.Finding]) -> [Int] {
    findings.compactMap { finding in
      if case .gap(let missing, _, _) = finding.kind { return missing }
      return nil
    }
  }

  @Test("missing is at least 1: with gapFactor 1.2, a 1.4-frame delta is a one-frame gap, held")
  func missingAtLeastOne() {
    var configuration = CameraConfiguration()
    configuration.gapFactor = 1.2
    // Five slots a frame: the delta of 7 slots is 1.4 frames, past 1.2; round(1.4) − 1 is 0.
    let run = FrameGapsMarble.trace(
      ".    .    .    .      .    .    .", slotsPerFrame: 5, declared: 30, configuration: configuration)
    // Held, not reported at once; the next ordinary delta (not within a quarter of 1.4) proves it.
    #expect(run.output == ".    .    .    .      .    h    .")
    #expect(Self.missing(run.findings) == [1])
  }

  @Test(
    "the two-frame confirmation rule, delta by delta",
    arguments: [
      // One missing frame is held; the next ordinary delta reports it at its frame.
      ("......-.......", "......-.h....."),
      // Two alike deltas after it confirm a rate change: nothing is reported.
      ("......-.-.-.-.", "......-.-.-.-."),
      // One alike delta, then an ordinary one: the held gap is reported at the ordinary one.
      ("......-.-.....", "......-.-.h..."),
      // A camera change does not exempt the held gap: cameras of different rates switch too.
      ("......-cccccc", "......-.h...."),
      // A drop bridging the next delta is no evidence of a rate change: the held gap is reported,
      // then the bridged gap on its own.
      ("......-.d.....", "......-.d[hg]...."),
    ])
  func confirmation(input: String, expected: String) {
    #expect(FrameGapsMarble.run(input, declared: 30) == expected)
  }

  @Test(
    "with no declared rate, a hole among the first deltas is judged once an estimate exists",
    arguments: [
      // A hole in delta 1 or 2: known at the frame that makes the estimate (three deltas).
      (".-.......", ".-..e....", [1]),
      ("..-......", "..-.e....", [1]),
      // In delta 3, the one that makes the estimate: held, and proved by the next delta.
      ("...-.....", "...-.h...", [1]),
      // Three frames missing at the very start.
      (".---.......", ".---..e....", [3]),
      // No hole: nothing.
      ("........", "........", []),
      // A rate change at the start (60 to 30 fps): the estimate is the new rate, no gap.
      ("...-.-.-.-.-.-", "...-.-.-.-.-.-", []),
      // The input ends before an estimate exists: judged then, against the shorter delta.
      (".---..", ".---..|", [3]),
    ])
  func firstDeltas(input: String, expected: String, missing: [Int]) {
    let run = FrameGapsMarble.trace(input)
    #expect(run.output == expected)
    #expect(Self.missing(run.findings) == missing)
  }

  @Test("ties round away from zero: a delta of 2.5 frames misses 2, reported at once")
  func tiesAwayFromZero() {
    // Two slots a frame: 5 slots is 2.5 frames; round(2.5) is 3 away from zero (2 to even).
    let run = FrameGapsMarble.trace(". . . .     . . .", slotsPerFrame: 2, declared: 30)
    #expect(run.output == ". . . .     g . .")
    #expect(Self.missing(run.findings) == [2])
  }

  @Test("a drop is forgotten once a frame at its pts arrives: it explains no later gap")
  func dropsForgotten() {
    // Slot 6 was reported dropped, then delivered: the hole after it is not a reported drop's.
    let run = FrameGapsMarble.trace("......D--.....", declared: 30)
    #expect(run.output == ".......--g....")
    guard case .gap(_, let cause, _)? = run.findings.first?.kind else {
      Issue.record("no gap")
      return
    }
    #expect(cause == .unexplained)
  }

  @Test("a drop without a reason bridges its delta: a reported-drop gap, with no reason or the given one")
  func dropWithoutReason() {
    let bare = FrameGapsMarble.trace("......n.....", declared: 30)
    #expect(bare.output == "......ng....", "reported at once, never held as a rate change")
    #expect(bare.findings.first?.kind == .gap(missing: 1, cause: .reportedDrop, reason: nil))
    let mixed = FrameGapsMarble.trace("......nnd.....", declared: 30)
    #expect(mixed.findings.first?.kind == .gap(missing: 3, cause: .reportedDrop, reason: .frameWasLate))
  }

  @Test("a gap's since is capped at the post-gap frame's t when the frame before it arrived late")
  func sinceCapped() {
    var machine = FrameGapsStateMachine(
      stream: .video, framesPerSecond: 30, configuration: CameraConfiguration())
    let frame = 33_333_333 as Int64
    for slot in 0..<5 as Range<Int64> {
      _ = machine.frame(
        Frame(pts: PresentationTime(nanoseconds: slot * frame)), at: Nanoseconds(slot * frame + 1_000_000),
        triggers: .init())
    }
    // Slot 5 arrives 90 ms late; slot 8 on time, 11 ms after it: its gap was "due" 123 ms after
    // slot 5's pts, later than slot 8's own t.
    _ = machine.frame(
      Frame(pts: PresentationTime(nanoseconds: 5 * frame)), at: Nanoseconds(5 * frame + 90_000_000),
      triggers: .init())
    let arrival = Nanoseconds(8 * frame + 1_000_000)
    let action = machine.frame(
      Frame(pts: PresentationTime(nanoseconds: 8 * frame)), at: arrival, triggers: .init())
    #expect(action.revealed?.since == arrival, "never a negative latency")
  }

  @Test("after a session restart with no frame, a stall is due stallFactor nominal durations later")
  func stallAfterRestart() throws {
    // `s` the session stops, `r` it runs again; no frame follows the restart.
    let marble = FrameMarble("......s--r-------")
    let stall = try marble.cues.tagged(.cameraStall)
    let restart = Nanoseconds(9 * CaptureScript.duration(fps: 30) + 1_000_000)
    #expect(stall.map(\.since) == [restart])
    #expect(
      stall.map(\.t) == [restart + FrameDuration(Nanoseconds(CaptureScript.duration(fps: 30))).scaled(by: 3)])
  }

  @Test("a virtualFront input faces the person before any map: mirrored, by direction")
  func virtualFrontBeforeMap() throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .virtualFront))
    #expect(
      try script.cues().tagged(.cameraMirroring).map(\.kind) == [
        .cameraMirroring(stream: .video, camera: .virtualFront, mirrored: true, basis: .direction)
      ])
  }

  @Test("a rear frame under a virtualFront input takes its facing from the map, like a physical input")
  func rearFrameUnderVirtualFront() throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .virtualFront))
    script.at(1, .direction(DirectionUpdate(toward: CameraSet(.outerFront), away: CameraSet(.backWide))))
    script.frames(1...3, camera: .backWide)
    #expect(
      try script.cues().tagged(.cameraMirroring).last?.kind
        == .cameraMirroring(stream: .video, camera: .backWide, mirrored: false, basis: .direction))
    var unmapped = CaptureScript()
    unmapped.at(0, .input(stream: .video, camera: .virtualFront))
    unmapped.frames(1...3, camera: .backWide)
    #expect(
      try unmapped.cues().tagged(.cameraMirroring).last?.kind
        == .cameraMirroring(stream: .video, camera: .backWide, mirrored: false, basis: .deviceType),
      "no map: a rear camera is not mirrored, by device type")
  }
}
