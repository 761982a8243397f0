import Crease

/// One stretch of a scenario: a built-in model with its parameters, or tracks a user writes.
public struct ScenarioSegment: Hashable, Sendable {
  /// What a segment plays.
  public enum Content: Hashable, Sendable {
    /// A built-in model, as its parameters set it.
    case model(Scenario, ScenarioParameters)
    /// A hinge, a camera and context events, each optional.
    case tracks(ScenarioTracks)
  }

  /// How long the segment lasts, in seconds; `nil` to the end of the run.
  public var duration: Double?
  /// A mark at the segment's start, naming it on the timeline.
  public var mark: String?
  /// What it plays.
  public var content: Content

  /// A segment playing `content`.
  public init(duration: Double? = nil, mark: String? = nil, content: Content) {
    self.duration = duration
    self.mark = mark
    self.content = content
  }
}

extension ScenarioSegment.Content {
  /// Adds the segment's events from `start` to `end` ns.
  func compose(_ builder: inout TraceBuilder, from start: Int64, to end: Int64) {
    switch self {
    case .model(let model, let parameters): model.compose(&builder, parameters, from: start, to: end)
    case .tracks(let tracks): tracks.compose(&builder, from: start, to: end)
    }
  }

  /// The stream the segment records and its frame rate, when it records.
  func recording(_ options: SynthOptions) -> (StreamName, Int)? {
    switch self {
    case .model(let model, _): model.usesCamera ? (.video, options.fps) : nil
    case .tracks(let tracks): tracks.camera.map { ($0.stream, $0.fps ?? options.fps) }
    }
  }
}

/// What a user's segment plays: a hinge, a camera and context events (app, session, display,
/// direction, marks), each optional, in the order the segment lists them.
public struct ScenarioTracks: Hashable, Sendable {
  /// How the hinge moves.
  public var hinge: HingeTrack?
  /// What the camera delivers.
  public var camera: CameraTrack?
  /// Events at given times from the segment's start.
  public var events: [ScenarioEvent]

  /// Tracks of a segment.
  public init(hinge: HingeTrack? = nil, camera: CameraTrack? = nil, events: [ScenarioEvent] = []) {
    self.hinge = hinge
    self.camera = camera
    self.events = events
  }

  func compose(_ builder: inout TraceBuilder, from start: Int64, to end: Int64) {
    hinge?.compose(&builder, from: start, to: end)
    camera?.compose(&builder, from: start, to: end)
    for event in events { builder.add(start + event.offset, event.payload) }
  }
}

/// A context event of a segment: any trace event but `end`, at a time from the segment's start.
public struct ScenarioEvent: Hashable, Sendable {
  /// Seconds from the segment's start.
  public var at: Double
  /// The event.
  public var payload: Event.Payload

  /// `payload` at `at` seconds into its segment.
  public init(at: Double, _ payload: Event.Payload) {
    self.at = at
    self.payload = payload
  }

  var offset: Int64 { Int64((at * 1e9).rounded()) }
}
