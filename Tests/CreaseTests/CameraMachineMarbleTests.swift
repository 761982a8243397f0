import Testing

@testable import Crease

/// Marble diagrams for the camera stage's machines, one character per frame slot (30 fps) or
/// tick, in the notation of `Marble` (`-` nothing in a slot, a group in brackets).
///
/// Frames in: `.` a frame, `c` a frame from another camera, `-` a missing slot, `d` a slot
/// dropped with a reason, `n` one dropped without, `D` a slot dropped and then delivered after
/// all. Out, at each slot: the input's `-`, `d` or `n` where no frame came, else `.` nothing, `g`
/// a gap reported at this frame, `h` a held two-frame gap this frame proved a gap, `e` gaps among
/// the first deltas, judged at this frame (the stream's first estimate), several marks in
/// brackets; `|` at the end when the input's end reported anything.
///
/// A slot is `1 / slotsPerFrame` of the frame duration at `fps`, so that deltas of a fraction
/// of a frame can be drawn (with `slotsPerFrame` 5, `.    .` is one frame, `.      .` 1.4).
enum FrameGapsMarble {
  static func run(
    _ diagram: String, fps: Int64 = 30, slotsPerFrame: Int64 = 1, declared: Double? = nil,
    configuration: CameraConfiguration = CameraConfiguration()
  ) -> String {
    trace(diagram, fps: fps, slotsPerFrame: slotsPerFrame, declared: declared, configuration: configuration)
      .output
  }

  /// The output diagram and every finding, in order, for their counts and times.
  static func trace(
    _ diagram: String, fps: Int64 = 30, slotsPerFrame: Int64 = 1, declared: Double? = nil,
    configuration: CameraConfiguration = CameraConfiguration()
  ) -> (output: String, findings: [FrameGapsStateMachine.Finding]) {
    var machine = FrameGapsStateMachine(
      stream: .video, framesPerSecond: declared, configuration: configuration)
    var output = ""
    var findings: [FrameGapsStateMachine.Finding] = []
    for (slot, symbol) in diagram.enumerated() {
      let pts = PresentationTime(nanoseconds: Int64(slot) * (1_000_000_000 / fps) / slotsPerFrame)
      let t = pts.nanoseconds + .milliseconds(1)
      switch symbol {
      case ".", "c", "D":
        if symbol == "D" { machine.drop(Drop(pts: pts, reason: .outOfBuffers)) }
        let camera: Camera = symbol == "c" ? .innerFront : .outerFront
        let action = machine.frame(pts: pts, camera: camera, at: t, triggers: .init())
        findings += [action.heldGap, action.revealed].compactMap { $0 } + machine.earlyGaps
        let marks =
          (action.heldGap != nil ? "h" : "") + (action.revealed != nil ? "g" : "")
          + (action.earlyGaps ? "e" : "")
        machine.clearEarlyGaps()
        output += marks.isEmpty ? "." : marks.count == 1 ? marks : "[\(marks)]"
      case "d", "n":
        machine.drop(Drop(pts: pts, reason: symbol == "d" ? .frameWasLate : nil))
        output.append(symbol)
      case " ":
        output += " "
      default:
        output += "-"
      }
    }
    let held = machine.finish()
    let atEnd = [held].compactMap { $0 } + machine.earlyGaps
    return (output + (atEnd.isEmpty ? "" : "|"), findings + atEnd)
  }
}

@Suite("Camera machines: frame gaps")
struct FrameGapsMarbleTests {
  @Test(
    "gaps, held gaps and rate changes, slot by slot",
    arguments: [
      // A steady stream shows nothing.
      ("..........", ".........."),
      // One missing frame is held, and proved a gap by the next ordinary delta.
      ("......-......", "......-.h...."),
      // Two missing frames are a gap at once.
      ("......--......", "......--g....."),
      // Every other slot missing with no callback: the camera halved its rate.
      ("......-.-.-.-.-.-.", "......-.-.-.-.-.-."),
      // The same slots dropped with a reason: a gap each, reported at once, never a rate change.
      ("......d.d.d.d.d.d.", "......dgdgdgdgdgdg"),
      // A held gap followed by a drop-bridged one: the drop refutes the rate change.
      ("......-.d.......", "......-.d[hg]......"),
    ])
  func gaps(input: String, expected: String) {
    #expect(FrameGapsMarble.run(input) == expected)
  }

  @Test("a held gap is reported when the session stops or the input ends, not lost")
  func heldGapReported() {
    var machine = FrameGapsStateMachine(
      stream: .video, framesPerSecond: 30, configuration: CameraConfiguration())
    for slot in [0, 1, 2, 3, 5] as [Int64] {
      let pts = PresentationTime(nanoseconds: slot * 33_333_333)
      _ = machine.frame(pts: pts, camera: nil, at: pts.nanoseconds, triggers: .init())
    }
    var stopped = machine
    #expect(stopped.runEnded() != nil)
    #expect(stopped.runEnded() == nil, "reported once")
    #expect(machine.finish() != nil)
    #expect(machine.finish() == nil, "reported once")
  }
}

/// Ticks of 100 ms with `maskMaxMs` 500: `i` an input switch is coming, `.` a frame from the
/// camera masked, `n` a frame from the new camera, `-` nothing. Out: `+` mask on, `x` off at a
/// frame, `T` off by the timer, `-` nothing.
enum MaskMarble {
  static func run(_ diagram: String) -> String {
    var machine = MaskStateMachine()
    var due: Nanoseconds?
    var output = ""
    for (tick, symbol) in diagram.enumerated() {
      let now = Nanoseconds.milliseconds(Int64(tick) * 100)
      var action = MaskStateMachine.Action.none
      switch symbol {
      case "i":
        action = machine.trigger(
          .input, since: now, now: now, activeCamera: .outerFront, longest: .milliseconds(500))
      case ".": action = machine.frame(delivering: .outerFront, afterGap: false, now: now)
      case "n": action = machine.frame(delivering: .innerFront, afterGap: false, now: now)
      default: break
      }
      if action == .none, let pending = due, pending <= now { action = machine.timerFired() }
      switch action {
      case .none: output += "-"
      case .on(_, _, let timer):
        due = timer
        output += "+"
      case .off(_, let cancelsTimer):
        due = nil
        output += cancelsTimer ? "x" : "T"
      }
    }
    return output
  }
}

@Suite("Camera machines: preview mask")
struct MaskMarbleTests {
  @Test(
    "on at a trigger, off at the new camera's first frame or after maskMaxMs",
    arguments: [
      ("i..n.", "+--x-"),
      ("i.......", "+----T--"),
      ("i.i.n", "+---x"),
      ("..n", "---"),
    ])
  func mask(input: String, expected: String) {
    #expect(MaskMarble.run(input) == expected)
  }
}

/// Ticks of one nominal frame with `stallFactor` 3: `.` a frame, `s` the session stops, `r` it
/// resumes, `e` the stream's recording ends (`streamEnd`), `-` nothing. Out: `S` a stall fires,
/// `-` nothing. Events come before timers.
enum StallMarble {
  static func run(_ diagram: String) -> String {
    var machine = StallStateMachine(factor: 3)
    let nominal = FrameDuration(Nanoseconds(1))
    var due: Nanoseconds?
    var running = true
    var output = ""
    for (tick, symbol) in diagram.enumerated() {
      let now = Nanoseconds(Int64(tick))
      var action = StallStateMachine.Action.none
      switch symbol {
      case ".": action = machine.frame(at: now, nominal: nominal, running: running)
      case "s":
        running = false
        action = machine.stopped()
      case "r":
        running = true
        action = machine.resumed(at: now, nominal: nominal)
      case "e": action = machine.streamEnded()
      default: break
      }
      switch action {
      case .arm(let timer): due = timer
      case .cancel: due = nil
      case .none: break
      }
      if let pending = due, pending <= now, machine.fired() != nil {
        due = nil
        output += "S"
      } else {
        output += "-"
      }
    }
    return output
  }
}

@Suite("Camera machines: stall")
struct StallMarbleTests {
  @Test(
    "once per silence, three frames after the last, only while running",
    arguments: [
      (".-----", "---S--"),
      (".--.--.", "-------"),
      (".s----", "------"),
      (".s--r----", "-------S-"),
    ])
  func stall(input: String, expected: String) {
    #expect(StallMarble.run(input) == expected)
  }

  @Test(
    "an ended stream does not stall, not even when the session resumes, until a frame of it comes",
    arguments: [
      (".e-----", "-------"),
      (".e.-----", "-----S--"),
      (".es-r----", "---------"),
      (".es.r----", "-------S-"),
    ])
  func streamEnded(input: String, expected: String) {
    #expect(StallMarble.run(input) == expected)
  }
}
