import Crease

/// Builds capture events for camera tests: frame `index` of a stream at `fps` has pts
/// `index × duration` and arrives 1 ms later.
struct CaptureScript {
  var events: [Event] = []
  var header = TraceHeader()

  static func duration(fps: Int64) -> Int64 { 1_000_000_000 / fps }

  mutating func frames(
    _ indices: some Sequence<Int>, fps: Int64 = 30, camera: Camera? = .outerFront, stream: StreamName = .video
  ) {
    for index in indices {
      let pts = Int64(index) * Self.duration(fps: fps)
      events.append(
        Event(
          t: Nanoseconds(pts + 1_000_000),
          .frame(Frame(stream: stream, pts: PresentationTime(nanoseconds: pts), camera: camera))))
    }
  }

  mutating func at(_ t: Int64, _ payload: Event.Payload) { events.append(Event(t: Nanoseconds(t), payload)) }

  /// The cues, with events sorted by time (stable) and the header applied.
  func cues(configuration: Configuration = .default, end: Int64? = nil) throws -> [Cue] {
    var engine = Engine(processor: Pipeline(configuration: configuration), sourceCount: 1, reorderWindow: 0)
    engine.apply(header)
    let ordered = events.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(
      \.element)
    for event in ordered { try engine.push(event, from: 0) }
    if let end { try engine.push(Event(t: Nanoseconds(end), .end), from: 0) }
    engine.finish(source: 0)
    var cues: [Cue] = []
    engine.drainCues { cue, _ in cues.append(cue) }
    return cues
  }

  /// The pipeline after the run, for its counters.
  func pipeline() throws -> Pipeline {
    var engine = Engine(processor: Pipeline(configuration: .default), sourceCount: 1, reorderWindow: 0)
    engine.apply(header)
    for event in events.enumerated().sorted(by: { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) })
      .map(\.element)
    {
      try engine.push(event, from: 0)
    }
    engine.finish(source: 0)
    return engine.processor
  }
}

extension [Cue] {
  /// The cues named `name`.
  func tagged(_ tag: CueKind.Tag) -> [Cue] { filter { $0.kind.tag == tag } }

  /// The gaps' causes, missing counts and reasons.
  var gaps: [(GapCause, Int, DropReason?)] {
    compactMap {
      guard case .cameraGap(_, _, _, let missing, let cause, let reason) = $0.kind else { return nil }
      return (cause, missing, reason)
    }
  }
}

/// Marble diagrams for frames: each character is one frame slot at `fps` (pts = slot ×
/// duration, arriving 1 ms later). `.` a frame is delivered, `-` the slot is missing with no
/// callback, `d` the slot is dropped with a reason (`frameWasLate`), `s` the session stops,
/// `r` it runs again (preview visible), and `e` the stream's recording ends (`streamEnd`).
struct FrameMarble {
  var script = CaptureScript()

  init(_ diagram: String, fps: Int64 = 30) {
    for (slot, symbol) in diagram.enumerated() {
      let pts = PresentationTime(nanoseconds: Int64(slot) * CaptureScript.duration(fps: fps))
      let t = pts.nanoseconds.rawValue + 1_000_000
      switch symbol {
      case ".": script.at(t, .frame(Frame(pts: pts, camera: .outerFront)))
      case "d": script.at(t, .drop(Drop(pts: pts, reason: .frameWasLate)))
      case "s": script.at(t, .session(SessionState(running: false, previewVisible: true)))
      case "r": script.at(t, .session(SessionState(running: true, previewVisible: true)))
      case "e": script.at(t, .streamEnd(stream: .video))
      default: break
      }
    }
  }

  /// The cues, the input ending one second after the last slot.
  var cues: [Cue] {
    get throws { try script.cues(end: (script.events.last?.t.rawValue ?? 0) + 1_000_000_000) }
  }
}
