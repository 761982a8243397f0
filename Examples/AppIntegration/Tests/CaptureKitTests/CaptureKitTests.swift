import CaptureKit
import Crease
import CreaseRecording
import CreaseRecordingFile
import CreaseTesting
import Foundation
import Synchronization
import Testing

@Suite("An app's capture model on Crease")
struct CaptureKitTests {
  /// The phone opens: hinge samples at 60 Hz and inner-front frames at 30 fps for half a second,
  /// each stamped when it happened.
  static let opening: [Event] =
    (0..<30).map { sample in
      let t = Nanoseconds(Int64(sample) * 16_666_667)
      return Event(
        t: t,
        .hinge(
          HingeDelivery(angle: .degrees(Double(sample) * 3), status: sample < 5 ? .closed : .partiallyOpen)))
    }
    + (0..<15).map { frame in
      Event(
        t: Nanoseconds(Int64(frame) * 33_333_333 + 15_000_000),
        .frame(Frame(pts: PresentationTime(nanoseconds: Int64(frame) * 33_333_333), camera: .innerFront)))
    }

  @Test("callbacks that hop to the actor a few ms late, out of order within the window, all land")
  func outOfOrderCallbacks() async throws {
    let model = try CaptureModel(reorderWindow: .milliseconds(5))
    // Frames reach the actor 3 ms after they were stamped (the capture queue's hop), hinge
    // deliveries at once: the arrival order is not the order of `t`.
    let arrivals = Self.opening.map { event -> (arrival: Nanoseconds, event: Event) in
      if case .frame = event.payload { (event.t + .milliseconds(3), event) } else { (event.t, event) }
    }.sorted { $0.arrival < $1.arrival }.map(\.event)
    #expect(arrivals.map(\.t) != arrivals.map(\.t).sorted())
    for event in arrivals {
      switch event.payload {
      case .hinge(let delivery?): await model.hinge(delivery.angle, status: delivery.status, at: event.t)
      case .frame(let frame): await model.frame(frame.pts, camera: .innerFront, at: event.t)
      default: break
      }
    }
    await model.advance(to: .seconds(2))
    #expect(await model.refusals.isEmpty)
    let effects = await model.effects
    #expect(effects.status == .partiallyOpen)
    #expect(effects.sides["flat"] == .below)
    #expect(effects.missingFrames == 0)
    // The recording takes what came in order; what the window reordered is counted, not lost.
    let unrecorded = await model.unrecorded
    #expect(unrecorded > 0)
    #expect(await model.recording.count == 1 + Self.opening.count - unrecorded)
  }

  @Test("an event more than the window late is refused and reported")
  func lateIsReported() async throws {
    let model = try CaptureModel(reorderWindow: .milliseconds(5))
    await model.hinge(.degrees(10), status: .closed, at: .milliseconds(100))
    await model.hinge(.degrees(12), status: .closed, at: .milliseconds(98))  // within the window
    await model.hinge(.degrees(14), status: .closed, at: .milliseconds(50))  // 50 ms late
    let refused = await model.refusals
    #expect(refused.map(\.event.t) == [.milliseconds(50)])
    #expect(refused.first?.reason == .late(behind: .milliseconds(50)))
  }

  @Test("the recording replays, in the test, to the cues the session gave live")
  func replayRecording() async throws {
    let model = try CaptureModel(reorderWindow: .zero)
    for event in Self.opening.sorted(by: { $0.t < $1.t }) {
      switch event.payload {
      case .hinge(let delivery?): await model.hinge(delivery.angle, status: delivery.status, at: event.t)
      case .frame(let frame): await model.frame(frame.pts, camera: .innerFront, at: event.t)
      default: break
      }
    }
    let recording = await model.recording.joined(separator: "\n") + "\n"
    let cues = try RecordedTrace.cues(
      of: Array(recording.utf8), name: "opening.jsonl", configuration: .default)
    var replayed = PreviewEffects()
    for cue in cues { replayed.apply(cue) }
    #expect(replayed.status == .partiallyOpen)
    #expect(replayed.sides == (await model.effects).sides)
  }

  @Test("a recording to a file in the app's container, read back by the test")
  func recordToFile() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("opening-\(UUID()).jsonl").path
    var recorder = try TraceRecorder(
      sink: try FileTraceSink(creatingFileAt: path), header: TraceHeader(device: "iPhone Fold"))
    for event in Self.opening.sorted(by: { $0.t < $1.t }) { try recorder.send(event) }
    try recorder.finish(at: .seconds(1))
    try recorder.sink.close()
    let cues = try RecordedTrace.cues(of: Array(try Data(contentsOf: URL(fileURLWithPath: path))), name: path)
    #expect(cues.contains { $0.kind == .hingeStatus(from: .closed, to: .partiallyOpen) })
    try FileManager.default.removeItem(atPath: path)
  }

  @Test("the recording stops with the sink's own typed failure; the session goes on")
  func recordingFull() async throws {
    let model = try CaptureModel(recordingLines: 3)
    for (index, event) in Self.opening.prefix(5).enumerated() {
      guard case .hinge(let delivery?) = event.payload else { continue }
      await model.hinge(delivery.angle, status: delivery.status, at: event.t + Nanoseconds(Int64(index)))
    }
    let failure = await model.recordingFailure
    guard case .sink(let full)? = failure else {
      Issue.record("expected the sink's failure, got \(String(describing: failure))")
      return
    }
    #expect(full == .full(capacity: 3))
    #expect(await model.recording.count == 3)
    #expect(await model.effects.status == .closed, "the session still took every event")
  }

  @Test("the async cues on a test clock: a quiet hinge still commits, a late event is reported")
  func asyncOnTestClock() async throws {
    let (events, input) = AsyncStream<Event>.makeStream()
    let clock = CreaseTestClock()
    let refusals = Refusals()
    var cues = events.cues(
      onRefusal: .skip { refusals.add($0) }, idleAdvance: .milliseconds(10), clock: clock
    )
    .makeAsyncIterator()
    input.yield(Event(t: .zero, .hinge(HingeDelivery(angle: .degrees(2), status: .closed))))
    input.yield(
      Event(t: .milliseconds(100), .hinge(HingeDelivery(angle: .degrees(40), status: .partiallyOpen))))
    input.yield(Event(t: .zero, .mark(label: "late")))
    var effects = PreviewEffects()
    effects.apply(try #require(try await cues.next()))
    #expect(effects.status == .closed)
    // No further event: only the clock moves, and trace time with it.
    clock.advance(by: .milliseconds(200))
    while effects.status != .partiallyOpen, let cue = try await cues.next() { effects.apply(cue) }
    #expect(effects.status == .partiallyOpen)
    #expect(refusals.all.map(\.event) == [Event(t: .zero, .mark(label: "late"))])
    input.finish()
    while try await cues.next() != nil {}
  }

  /// Refusals a skipping policy reported, from whatever isolation it was called in.
  final class Refusals: Sendable {
    private let state = Mutex<[RefusedEvent]>([])
    var all: [RefusedEvent] { state.withLock { $0 } }
    func add(_ refusal: RefusedEvent) { state.withLock { $0.append(refusal) } }
  }
}

/// The screen's side, on the main actor, as an app's view model is written in Swift 6.
@Suite("An app's screen model on the main actor")
@MainActor
struct ScreenModelTests {
  @Test("a direction update written with camera literals decides the mirroring")
  func directionLiterals() async throws {
    let screen = ScreenModel()
    let events = AsyncStream<Event> { input in
      input.yield(Event(t: .zero, .input(stream: .video, camera: .virtualFront)))
      input.yield(
        Event(t: .zero, .direction(DirectionUpdate(toward: [.outerFront], away: [.innerFront, .backWide]))))
      input.yield(
        Event(t: .milliseconds(33), .frame(Frame(pts: PresentationTime(nanoseconds: 0), camera: .outerFront)))
      )
      input.finish()
    }
    try await screen.run(events)
    #expect(screen.effects.mirrored == true, "the outer front camera faces the person")
  }

  @Test("refusals come to the main actor's own state, with no lock")
  func refusalsOnTheMainActor() async throws {
    let screen = ScreenModel()
    let events = AsyncStream<Event> { input in
      input.yield(Event(t: .milliseconds(200), .hinge(HingeDelivery(angle: .degrees(3), status: .closed))))
      input.yield(Event(t: .zero, .mark(label: "late")))
      input.finish()
    }
    try await screen.follow(events)
    #expect(screen.refusals.map(\.event) == [Event(t: .zero, .mark(label: "late"))])
    #expect(screen.effects.status == .closed)
  }

  @Test("what the accessory waits for, asked of the session, though eligibility never flipped to say so")
  func missingConditions() async throws {
    let screen = ScreenModel()
    let (events, input) = AsyncStream<Event>.makeStream()
    let reading = Task { try await screen.run(events) }
    input.yield(Event(t: .zero, .hinge(HingeDelivery(angle: .degrees(90), status: .partiallyOpen))))
    input.yield(Event(t: .milliseconds(10), .app(.foreground)))
    input.yield(Event(t: .milliseconds(20), .session(SessionState(running: true, previewVisible: true))))
    input.finish()
    try await reading.value
    // The status commits after its debounce, which the end of the stream lets run out.
    #expect(screen.missing == [.innerFullScreen], "only the display is left")
  }
}
