import Crease

/// The built-in scenarios of `crease synth` (SPEC 6), each a model of hands and cameras with
/// parameters, deterministic per seed.
///
/// Each is also data: ``description`` is the scenario as a file holds it, one segment of the
/// model with every parameter at its default, and generating that description gives the same
/// trace as the built-in, byte for byte.
public enum Scenario: String, CaseIterable, Sendable {
  case openClose = "open-close"
  case wobble
  case tabletop
  case foldWhileRecording = "fold-while-recording"
  case flipAround = "flip-around"
  case droppedFrames = "dropped-frames"
  case accessory
  case day

  /// One line for `crease scenarios`.
  public var summary: String {
    switch self {
    case .openClose: "the phone opened flat and closed again, over and over"
    case .wobble: "a hinge resting near the 140° flat boundary, drifting a few degrees with sensor noise"
    case .tabletop: "opened to about 90° and set down, with small adjustments and the odd tilt"
    case .foldWhileRecording:
      "front camera on the outer display, opened mid-recording: switch gap, direction change, mirroring, mask"
    case .flipAround: "rear camera recording while the phone is turned to face the person, then back"
    case .droppedFrames: "a steady stream with ordinary drops that carry reasons, sometimes in bursts"
    case .accessory: "app, session, preview and display changes around an open phone: accessory eligibility"
    case .day: "a long mixed session of all the above, for benchmarks"
    }
  }

  /// The length `--duration` defaults to, in seconds.
  public var defaultDuration: Double {
    switch self {
    case .openClose, .wobble, .tabletop: 10
    case .foldWhileRecording, .flipAround, .droppedFrames: 8
    case .accessory: 12
    case .day: 600
    }
  }

  /// The scenario as data: one segment of this model, lasting the whole run, with every
  /// parameter at its default.
  public var description: ScenarioDescription {
    ScenarioDescription(
      name: rawValue, summary: summary, duration: defaultDuration,
      segments: [ScenarioSegment(content: .model(self, defaultParameters))])
  }

  /// The trace's header.
  public func header(_ options: SynthOptions) -> TraceHeader { description.header(options) }

  /// Generates the trace.
  public func generate(_ options: SynthOptions) -> SyntheticTrace { description.generate(options) }

  /// The trace's events, made as they are taken; see ``ScenarioDescription/events(_:)``.
  public func events(_ options: SynthOptions) -> SyntheticEvents { description.events(options) }

  /// The events of a run without end (`synth --duration 0`); see ``ScenarioDescription/endless(_:)``.
  public func endless(_ options: SynthOptions) -> some Sequence<Event> { description.endless(options) }

  /// Whether the model records with a camera, which its trace header declares.
  var usesCamera: Bool {
    switch self {
    case .openClose, .wobble, .tabletop: false
    case .foldWhileRecording, .flipAround, .droppedFrames, .accessory, .day: true
    }
  }
}
