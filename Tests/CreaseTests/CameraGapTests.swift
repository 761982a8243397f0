import Crease
import Testing

@Suite("Camera gaps (SPEC 4.6)")
struct CameraGapTests {
  @Test("a constituent change across the gap is a camera switch")
  func constituentChange() throws {
    var script = CaptureScript()
    script.frames(1...10, camera: .outerFront)
    script.frames(15...20, camera: .innerFront)
    let cues = try script.cues()
    #expect(cues.gaps.map(\.0) == [.cameraSwitch])
    #expect(cues.gaps.map(\.1) == [4])
    let gap = cues.tagged(.cameraGap)[0]
    #expect(gap.t == Nanoseconds(15 * 33_333_333 + 1_000_000))
    #expect(
      gap.since == Nanoseconds(10 * 33_333_333 + 1_000_000 + 33_333_333),
      "when the first missing frame was due")
  }

  @Test(
    "an input, display or closed-hinge commit inside the switch window explains a gap",
    arguments: ["input", "display", "hinge"])
  func switchTriggers(trigger: String) throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .virtualFront))
    script.at(0, .display(DisplayChange(display: .outer, fullScreen: true)))
    script.at(0, .hinge(HingeDelivery(angle: .degrees(0), status: .closed)))
    script.frames(1...10, camera: nil)
    let triggerTime: Int64 = 300_000_000
    switch trigger {
    case "input": script.at(triggerTime, .input(stream: .video, camera: .virtualFront))
    case "display": script.at(triggerTime, .display(DisplayChange(display: .inner, fullScreen: true)))
    default:
      script.at(triggerTime - 60_000_000, .hinge(HingeDelivery(angle: .degrees(30), status: .partiallyOpen)))
    }
    script.frames(20...25, camera: nil)
    #expect(try script.cues().gaps.map(\.0) == [.cameraSwitch])
  }

  @Test("a trigger before the switch window does not explain a gap")
  func triggerOutsideWindow() throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .backWide))
    script.frames(1...20, camera: .backWide)
    script.frames(25...30, camera: .backWide)
    #expect(try script.cues().gaps.map(\.0) == [.unexplained])
  }

  @Test(
    "reported drops between the two frames explain a gap with their most common reason; ties go to the earliest"
  )
  func reportedDrops() throws {
    func gapReason(_ drops: [(Int, DropReason)]) throws -> (GapCause, Int, DropReason?)? {
      var script = CaptureScript()
      script.frames(1...10, camera: .backWide)
      for (index, reason) in drops {
        script.at(
          Int64(index) * 33_333_333 + 2_000_000,
          .drop(Drop(pts: PresentationTime(nanoseconds: Int64(index) * 33_333_333), reason: reason)))
      }
      script.frames(15...20, camera: .backWide)
      return try script.cues().gaps.first
    }
    #expect(
      try gapReason([(11, .frameWasLate), (12, .outOfBuffers), (13, .outOfBuffers)])! == (
        .reportedDrop, 4, .outOfBuffers
      ))
    #expect(
      try gapReason([(11, .discontinuity), (12, .frameWasLate)])! == (.reportedDrop, 4, .discontinuity))
    #expect(
      try gapReason([(9, .frameWasLate)])! == (.unexplained, 4, nil), "a drop before the gap does not count")
  }

  @Test("no gap when frames keep their cadence, with or without a declared rate")
  func noFalseGaps() throws {
    var declared = CaptureScript()
    declared.header.nominalFrameRates[.video] = 30
    declared.frames(1...300)
    #expect(try declared.cues().gaps.isEmpty)
    var inner = CaptureScript()
    inner.frames(1...600, fps: 60, camera: .innerFront)
    #expect(try inner.cues().gaps.isEmpty)
  }

  @Test("a gap at a 60 fps inner camera counts 60 fps frames")
  func innerCameraGap() throws {
    var script = CaptureScript()
    script.frames(1...60, fps: 60, camera: .innerFront)
    script.frames(64...90, fps: 60, camera: .innerFront)
    #expect(try script.cues().gaps.map(\.1) == [3])
  }

  @Test("a rate change from 60 to 30 fps is adopted without gaps, and so is 30 to 60")
  func rateChanges() throws {
    var halving = CaptureScript()
    halving.frames(1...60, fps: 60)
    halving.frames(31...90, fps: 30)
    #expect(try halving.cues().gaps.isEmpty)
    var doubling = CaptureScript()
    doubling.frames(1...30, fps: 30)
    doubling.frames(61...180, fps: 60)
    #expect(try doubling.cues().gaps.isEmpty)
  }

  @Test("a two-frame gap at a steady rate is reported once the next delta confirms it")
  func twoFrameGapConfirmed() throws {
    var script = CaptureScript()
    script.frames(1...30)
    script.frames(32...40)
    let gap = try script.cues().tagged(.cameraGap)
    #expect(gap.count == 1)
    #expect(
      gap.first?.t == Nanoseconds(33 * 33_333_333 + 1_000_000), "known at the frame after the post-gap frame")
    #expect(try script.cues().gaps.map(\.1) == [1])
  }

  @Test("a two-frame gap awaiting confirmation at end of input is reported then, at the end's t")
  func twoFrameGapAtEnd() throws {
    var script = CaptureScript()
    script.frames(1...30)
    script.frames(32...32)
    #expect(try script.cues().gaps.map(\.1) == [1])
    let lastFrame = Nanoseconds(32 * 33_333_333 + 1_000_000)
    #expect(try script.cues().tagged(.cameraGap).map(\.t) == [lastFrame], "end of stream: the last event's t")
    let end = try script.cues(end: 2_000_000_000)
    #expect(end.tagged(.cameraGap).map(\.t) == [Nanoseconds(2_000_000_000)], "the end event's t")
    #expect(end.map(\.t) == end.map(\.t).sorted(), "the stall before the end still comes first")
  }

  @Test(
    "deltas bridged by reported drops are gaps, never a rate change, and stay out of the estimate",
    arguments: [30, 60])
  func dropsAreNotRateChanges(fps: Int) throws {
    // Every other frame dropped with a reason, with no declared rate: a gap per drop, and the
    // nominal stays one frame, so the stall after the run comes after 3 frames, not 6.
    let duration = Nanoseconds(CaptureScript.duration(fps: Int64(fps)))
    let bridged = FrameMarble("...........d.d.d.d.d.d.d.d.d.d.d.d.", fps: Int64(fps))
    #expect(try bridged.cues.gaps.count == 12)
    #expect(try bridged.cues.gaps.allSatisfy { $0.0 == .reportedDrop && $0.1 == 1 })
    let stall = try bridged.cues.tagged(.cameraStall).first
    #expect(stall?.latency == FrameDuration(duration).scaled(by: 3))
    // The same slots missing with no drop reported: the camera halved its rate.
    let halved = FrameMarble("...........-.-.-.-.-.-.-.-.-.-.-.-.", fps: Int64(fps))
    #expect(try halved.cues.gaps.isEmpty)
    #expect(
      try halved.cues.tagged(.cameraStall).first?.latency == FrameDuration(duration + duration).scaled(by: 3))
  }

  @Test("thresholds come from the exact frame duration: at 30 fps a delta of exactly 1.5 frames is no gap")
  func exactGapThreshold() throws {
    for (delta, gaps) in [(Int64(50_000_000), 0), (50_000_001, 1)] {
      var script = CaptureScript()
      script.header.nominalFrameRates[.video] = 30
      script.at(0, .frame(Frame(pts: PresentationTime(nanoseconds: 0))))
      script.at(delta, .frame(Frame(pts: PresentationTime(nanoseconds: delta))))
      script.at(2 * delta, .frame(Frame(pts: PresentationTime(nanoseconds: delta + 33_333_333))))
      #expect(try script.cues().tagged(.cameraGap).count == gaps, "delta \(delta)")
    }
  }

  @Test("at 60 fps a stall is due 50 ms after the last frame, not a nanosecond later")
  func exactStallAt60() throws {
    var script = CaptureScript()
    script.header.nominalFrameRates[.video] = 60
    script.frames(1...10, fps: 60)
    #expect(try script.cues(end: 1_000_000_000).tagged(.cameraStall).map(\.latency) == [.milliseconds(50)])
  }

  @Test("a frame exactly at the stall's due time comes first, so no stall fires")
  func frameAtStallDueTime() throws {
    var script = CaptureScript()
    script.header.nominalFrameRates[.video] = 30
    script.at(0, .frame(Frame(pts: PresentationTime(nanoseconds: 0))))
    script.at(100_000_000, .frame(Frame(pts: PresentationTime(nanoseconds: 100_000_000))))
    let cues = try script.cues(end: 150_000_000)
    #expect(cues.tagged(.cameraStall).isEmpty)
    #expect(cues.gaps.map(\.1) == [2])
  }

  @Test("a gap does not move the nominal duration")
  func gapKeepsNominal() throws {
    var script = CaptureScript()
    script.frames(1...10)
    script.frames(20...21)
    script.frames(30...40)
    #expect(try script.cues().gaps.map(\.1) == [9, 8])
  }

  @Test(
    "CMTime pts at timescales 600, 90000 and 1e9 give the same cues",
    arguments: [Int32(600), 90_000, 1_000_000_000])
  func timescales(timescale: Int32) throws {
    var script = CaptureScript()
    let ticksPerFrame = Int64(timescale) / 30
    for index in Array(1...10) + Array(14...20) {
      let pts = PresentationTime(value: Int64(index) * ticksPerFrame, timescale: timescale)!
      script.at(pts.nanoseconds.rawValue + 1_000_000, .frame(Frame(pts: pts, camera: .backWide)))
    }
    #expect(try script.cues().gaps.map(\.1) == [3])
    let from = PresentationTime(value: 10 * ticksPerFrame, timescale: timescale)!.nanoseconds
    let to = PresentationTime(value: 14 * ticksPerFrame, timescale: timescale)!.nanoseconds
    #expect(from == Nanoseconds(333_333_333) || from == Nanoseconds(333_333_330))
    #expect(
      try script.cues().tagged(.cameraGap).first?.kind
        == .cameraGap(stream: .video, from: from, to: to, missing: 3, cause: .unexplained, reason: nil))
  }

  @Test("a pts at or before the previous one is a regression, and the regressing frame becomes the reference")
  func regressions() throws {
    var script = CaptureScript()
    script.frames(1...10, camera: .backWide)
    script.at(
      400_000_000, .frame(Frame(pts: PresentationTime(nanoseconds: 5 * 33_333_333), camera: .backWide)))
    script.at(
      410_000_000, .frame(Frame(pts: PresentationTime(nanoseconds: 5 * 33_333_333), camera: .backWide)))
    script.at(
      420_000_000, .frame(Frame(pts: PresentationTime(nanoseconds: 6 * 33_333_333), camera: .backWide)))
    let cues = try script.cues()
    #expect(
      cues.tagged(.cameraPTSRegression).map(\.kind) == [
        .cameraPTSRegression(stream: .video, from: Nanoseconds(333_333_330), to: Nanoseconds(166_666_665)),
        .cameraPTSRegression(stream: .video, from: Nanoseconds(166_666_665), to: Nanoseconds(166_666_665)),
      ])
    #expect(cues.gaps.isEmpty, "the next frame is measured from the regressing one")
  }
}

@Suite("Camera stalls (SPEC 4.6)")
struct CameraStallTests {
  @Test("a stall fires once per silence, stallFactor nominal durations after the last frame")
  func stall() throws {
    var script = CaptureScript()
    script.header.nominalFrameRates[.video] = 30
    script.frames(1...10)
    script.frames(40...41)
    let stalls = try script.cues(end: 2_000_000_000).tagged(.cameraStall)
    let last = Int64(10 * 33_333_333 + 1_000_000)
    // 3 × (10⁹ / 30) is exactly 100 ms: computed from the exact duration, then rounded.
    #expect(
      stalls.first
        == Cue(t: Nanoseconds(last + 100_000_000), since: Nanoseconds(last), .cameraStall(stream: .video)))
    #expect(stalls.count == 2, "one per silence: after frame 10 and after frame 41")
  }

  @Test("stall timers are cancelled at end of stream, and while the session is stopped")
  func cancellation() throws {
    var script = CaptureScript()
    script.header.nominalFrameRates[.video] = 30
    script.frames(1...10)
    #expect(try script.cues().tagged(.cameraStall).isEmpty, "end of stream without an end event")
    script.at(340_000_000, .session(SessionState(running: false, previewVisible: true)))
    #expect(try script.cues(end: 2_000_000_000).tagged(.cameraStall).isEmpty, "the session stopped")
    script.at(1_000_000_000, .session(SessionState(running: true, previewVisible: true)))
    #expect(
      try script.cues(end: 2_000_000_000).tagged(.cameraStall).map(\.since) == [Nanoseconds(1_000_000_000)],
      "a silence that starts when the session resumes")
  }
}

/// A stream whose recording stopped while others go on (a movie's shorter track): `streamEnd`
/// ends its run of frames as a session stop does, for that stream alone (issue 53, item 6).
@Suite("A stream's own end (streamEnd)")
struct StreamEndTests {
  @Test("a stream that ended does not stall while the trace goes on to its end")
  func noStall() throws {
    #expect(try FrameMarble("......").cues.tagged(.cameraStall).count == 1, "without it, a stall")
    #expect(try FrameMarble("......e").cues.tagged(.cameraStall).isEmpty)
  }

  @Test("a gap held for confirmation is reported at the stream's end, not lost")
  func heldGapReported() throws {
    let gaps = try FrameMarble("...-.e").cues.tagged(.cameraGap)
    #expect(gaps.map(\.t) == [Nanoseconds(5 * CaptureScript.duration(fps: 30) + 1_000_000)])
  }

  @Test("a frame after the stream's end starts a new run: it is not compared with the frames before")
  func newRun() throws {
    #expect(try FrameMarble(".......---......").cues.tagged(.cameraGap).count == 1, "without it, a gap")
    #expect(try FrameMarble("......e---......").cues.tagged(.cameraGap).isEmpty)
    #expect(
      try FrameMarble("......e---......").cues.tagged(.cameraStall).count == 1,
      "the new run stalls when it falls silent")
  }

  @Test("a session that runs again starts no silence for a stream that ended")
  func resumeLeavesItEnded() throws {
    #expect(try FrameMarble("......s--r").cues.tagged(.cameraStall).count == 1, "without it, a stall")
    #expect(try FrameMarble("......es--r").cues.tagged(.cameraStall).isEmpty)
  }

  @Test("one stream's end leaves another stream's stall and gaps as they were")
  func otherStreams() throws {
    let second = StreamName(rawValue: "video2")
    var script = CaptureScript()
    script.header.nominalFrameRates[.video] = 30
    script.header.nominalFrameRates[second] = 30
    let duration = CaptureScript.duration(fps: 30)
    for slot in Int64(0)..<30 {
      let pts = PresentationTime(nanoseconds: slot * duration)
      script.at(slot * duration, .frame(Frame(pts: pts)))
      if slot < 10 { script.at(slot * duration, .frame(Frame(stream: second, pts: pts))) }
    }
    script.at(9 * duration, .streamEnd(stream: second))
    script.at(40 * duration, .streamEnd(stream: .video))
    let cues = try script.cues(end: 60 * duration)
    #expect(cues.tagged(.cameraStall).map(\.kind) == [.cameraStall(stream: .video)])
  }
}
