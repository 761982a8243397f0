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
      // The input ends before an estimate exists: too few frames to judge, nothing reported.
      (".---..", ".---..", []),
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
        pts: PresentationTime(nanoseconds: slot * frame), camera: nil,
        at: Nanoseconds(slot * frame + 1_000_000),
        triggers: .init())
    }
    // Slot 5 arrives 90 ms late; slot 8 on time, 11 ms after it: its gap was "due" 123 ms after
    // slot 5's pts, later than slot 8's own t.
    _ = machine.frame(
      pts: PresentationTime(nanoseconds: 5 * frame), camera: nil, at: Nanoseconds(5 * frame + 90_000_000),
      triggers: .init())
    let arrival = Nanoseconds(8 * frame + 1_000_000)
    let action = machine.frame(
      pts: PresentationTime(nanoseconds: 8 * frame), camera: nil, at: arrival, triggers: .init())
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

/// The rules an independent reading of SPEC 4.6 to 4.8 settled differently the second time
/// (issue 52), each failing before its change.
@Suite("SPEC 4.6 to 4.8, fidelity round 2")
struct FidelityRoundTwoTests {
  @Test(
    "a stream that ends before an estimate exists has too few frames to judge: frames at 0, 1 ns, 41.7 ms")
  func tooFewFramesAtTheEnd() throws {
    var script = CaptureScript()
    for (index, pts) in [0, 1, 41_666_666].enumerated() {
      script.at(
        Int64(index) * 20_000_000 + 1_000_000, .frame(Frame(pts: PresentationTime(nanoseconds: Int64(pts)))))
    }
    #expect(try script.cues(end: 100_000_000).tagged(.cameraGap).isEmpty)
  }

  @Test("a stream that stops before an estimate exists has too few frames to judge")
  func tooFewFramesAtAStop() throws {
    // Two deltas, one of three frames, then the session stops: no estimate, no gap.
    #expect(try FrameMarble("..--.s").cues.tagged(.cameraGap).isEmpty)
  }

  @Test("every stop ends a run of frames: a frame delivered while stopped is not compared with the next")
  func repeatedStop() throws {
    // Stopped at slot 6, a frame at 7 all the same, stopped again at 8, running again at 11.
    #expect(try FrameMarble("......s.s--r....").cues.tagged(.cameraGap).isEmpty)
  }

  @Test("under a virtualFront input a frame labelled virtualFront keeps the constituent known")
  func virtualFrontLabel() throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .virtualFront))
    script.frames(1...3, camera: .innerFront)
    script.frames(4...4, camera: .virtualFront)
    script.frames(5...5, camera: .innerFront)
    script.frames(6...6, camera: .virtualFront)
    script.frames(7...8, camera: .innerFront)
    let cues = try script.cues()
    #expect(
      cues.tagged(.cameraMirroring).map(\.kind) == [
        .cameraMirroring(stream: .video, camera: .virtualFront, mirrored: true, basis: .direction),
        .cameraMirroring(stream: .video, camera: .innerFront, mirrored: true, basis: .direction),
      ])
    #expect(
      cues.tagged(.cameraDirection).map(\.kind) == [
        .cameraDirection(stream: .video, camera: .virtualFront, facing: .user),
        .cameraDirection(stream: .video, camera: .innerFront, facing: .user),
      ])
  }

  @Test(
    "a map listing both front cameras toward the person: the first listed is the virtual front's",
    arguments: [(false, Camera.outerFront), (true, .innerFront)])
  func bothFrontsToward(innerFrontFirst: Bool, expected: Camera) throws {
    var script = CaptureScript()
    script.at(
      0,
      .direction(
        DirectionUpdate(
          toward: CameraSet([.innerFront, .outerFront]), away: CameraSet(.backWide),
          innerFrontListedFirst: innerFrontFirst)))
    // On the inner display too: the map decides, not the display.
    script.at(0, .display(DisplayChange(display: .inner, fullScreen: true)))
    script.at(1, .input(stream: .video, camera: .virtualFront))
    #expect(
      try script.cues().tagged(.cameraMirroring).map(\.kind) == [
        .cameraMirroring(stream: .video, camera: expected, mirrored: true, basis: .direction)
      ])
  }

  @Test("drops at one pts with different reasons: the first to arrive gives the reason")
  func dropReasonTies() {
    for (first, second) in [
      (DropReason.outOfBuffers, DropReason.frameWasLate), (.frameWasLate, .outOfBuffers),
    ] {
      var machine = FrameGapsStateMachine(
        stream: .video, framesPerSecond: 30, configuration: CameraConfiguration())
      let frame: Int64 = 33_333_333
      func deliver(_ slot: Int64) -> FrameGapsStateMachine.FrameAction {
        machine.frame(
          pts: PresentationTime(nanoseconds: slot * frame), camera: nil,
          at: Nanoseconds(slot * frame + 1_000_000),
          triggers: .init())
      }
      for slot in 0..<6 as Range<Int64> { _ = deliver(slot) }
      machine.drop(Drop(pts: PresentationTime(nanoseconds: 6 * frame), reason: first))
      machine.drop(Drop(pts: PresentationTime(nanoseconds: 6 * frame), reason: second))
      machine.drop(Drop(pts: PresentationTime(nanoseconds: 7 * frame), reason: nil))
      #expect(
        deliver(8).revealed?.kind == .gap(missing: 2, cause: .reportedDrop, reason: first),
        "\(first) arrived first")
    }
    // Equal counts at different pts: the earliest pts, whatever arrived first.
    let run = FrameGapsMarble.trace("......nd......", declared: 30)
    #expect(run.findings.first?.kind == .gap(missing: 2, cause: .reportedDrop, reason: .frameWasLate))
  }

  @Test(
    "learning the status is not a fold: a first commit from unknown to closed neither masks nor explains a gap"
  )
  func commitFromUnknown() throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .virtualFront))
    script.at(0, .hinge(HingeDelivery(angle: .degrees(0), status: .unknown)))
    for step in 34...60 {
      script.at(Int64(step) * 10_000_000, .hinge(HingeDelivery(angle: .degrees(0), status: .closed)))
    }
    // Three frames missing around the commit (since 340 ms), long after the input.
    script.frames([10, 11, 12, 13, 17, 18, 19, 20], camera: .innerFront)
    let cues = try script.cues()
    #expect(cues.tagged(.hingeStatus).count == 1, "the status committed")
    #expect(cues.tagged(.cameraMask).isEmpty)
    #expect(cues.gaps.map(\.0) == [.unexplained])
  }

  @Test(
    "a faster rate is confirmed at once: two alike deltas below nominal ÷ gapFactor",
    arguments: [
      // 30 fps (two slots a frame) becomes 60: a hole of one 60 fps frame is a gap, held and
      // proved by the next delta.
      (". . . .....-.....", ". . . .....-.h..."),
      // One fast delta alone confirms nothing: a later two-slot delta is the declared rate's.
      (". . . .. . . . .", ". . . .. . . . ."),
      // A fast delta bridged by a drop is no evidence: the nominal stays 30 fps.
      (". . . .n.. . . .", ". . . .n.. . . ."),
    ])
  func fasterRate(input: String, expected: String) {
    #expect(FrameGapsMarble.run(input, slotsPerFrame: 2, declared: 30) == expected)
  }

  @Test("rates alternating 60 and 120 fps: a single 60 fps delta inside a 120 fps run is a missing frame")
  func alternatingRates() {
    // Four slots a 30 fps frame: 60 fps is two slots, 120 fps one.
    let run = FrameGapsMarble.trace(
      ". . . ......-..... . . . .....-.....", fps: 30, slotsPerFrame: 4, declared: 60)
    #expect(SpecRuleMarbleTests.missing(run.findings) == [1, 1])
  }
}
