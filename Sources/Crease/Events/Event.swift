/// One input event of a trace, at a trace time.
public struct Event: Hashable, Sendable {
  /// When the event happened, on the recording's monotonic host clock.
  public var t: Nanoseconds
  /// What happened.
  public var payload: Payload

  public init(t: Nanoseconds, _ payload: Payload) {
    self.t = t
    self.payload = payload
  }

  /// The event kinds of trace format version 1 (SPEC 2).
  public enum Payload: Hashable, Sendable {
    /// A hinge delivery; `nil` when the view has no hinge (left a hierarchy with hinge updates).
    case hinge(HingeDelivery?)
    /// A delivered sample buffer.
    case frame(Frame)
    /// A dropped-frame callback.
    case drop(Drop)
    /// The session's video input became this device.
    case input(stream: StreamName, camera: Camera)
    /// A direction-coordinator update.
    case direction(DirectionUpdate)
    /// The app's view moved to a display.
    case display(DisplayChange)
    /// The app moved to the foreground or the background.
    case app(AppState)
    /// The capture session's state.
    case session(SessionState)
    /// An annotation, passed through as a cue.
    case mark(label: String)
    /// The recording stopped here (SPEC 4.1).
    case end
  }

  /// The trace name of the event's kind.
  public var kindName: String {
    switch payload {
    case .hinge: "hinge"
    case .frame: "frame"
    case .drop: "drop"
    case .input: "input"
    case .direction: "direction"
    case .display: "display"
    case .app: "app"
    case .session: "session"
    case .mark: "mark"
    case .end: "end"
    }
  }
}

/// One hinge delivery: a continuous angle and a coarse status.
public struct HingeDelivery: Hashable, Sendable {
  public var angle: Angle
  public var status: HingeStatus
  public init(angle: Angle, status: HingeStatus) {
    self.angle = angle
    self.status = status
  }
}

/// A delivered sample buffer.
public struct Frame: Hashable, Sendable {
  public var stream: StreamName
  public var pts: PresentationTime
  /// The device that produced the buffer, when the trace knows it.
  public var camera: Camera?
  public init(stream: StreamName = .video, pts: PresentationTime, camera: Camera? = nil) {
    self.stream = stream
    self.pts = pts
    self.camera = camera
  }
}

/// Why the capture output dropped a sample buffer; the raw value is the trace name.
public enum DropReason: String, CaseIterable, Hashable, Sendable {
  case frameWasLate
  case outOfBuffers
  case discontinuity

  /// The name used in traces and cues.
  public var name: String { rawValue }

  /// The reason with this trace name, or `nil`.
  public init?(name: String) { self.init(rawValue: name) }
}

/// A dropped-frame callback.
public struct Drop: Hashable, Sendable {
  public var stream: StreamName
  public var pts: PresentationTime
  public var reason: DropReason
  public init(stream: StreamName = .video, pts: PresentationTime, reason: DropReason) {
    self.stream = stream
    self.pts = pts
    self.reason = reason
  }
}

/// Which cameras face the person, and which face away, relative to a view.
public struct DirectionUpdate: Hashable, Sendable {
  public var view: ViewName
  public var toward: CameraSet
  public var away: CameraSet
  public init(view: ViewName = .main, toward: CameraSet, away: CameraSet) {
    self.view = view
    self.toward = toward
    self.away = away
  }
}

/// One of the device's two displays; the raw value is the trace name.
public enum Display: String, CaseIterable, Hashable, Sendable {
  case inner
  case outer

  /// The name used in traces and cues.
  public var name: String { rawValue }

  /// The display with this trace name, or `nil`.
  public init?(name: String) { self.init(rawValue: name) }
}

/// The app's view moved to a display.
public struct DisplayChange: Hashable, Sendable {
  public var display: Display
  public var fullScreen: Bool
  public init(display: Display, fullScreen: Bool) {
    self.display = display
    self.fullScreen = fullScreen
  }
}

/// Whether the app is in the foreground; the raw value is the trace name.
public enum AppState: String, CaseIterable, Hashable, Sendable {
  case foreground
  case background

  /// The name used in traces and cues.
  public var name: String { rawValue }

  /// The state with this trace name, or `nil`.
  public init?(name: String) { self.init(rawValue: name) }
}

/// The capture session's state.
public struct SessionState: Hashable, Sendable {
  public var running: Bool
  /// Whether a preview is visible; `nil` leaves the previous value unchanged.
  public var previewVisible: Bool?
  public init(running: Bool, previewVisible: Bool?) {
    self.running = running
    self.previewVisible = previewVisible
  }
}
