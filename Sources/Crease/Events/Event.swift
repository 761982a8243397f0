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

  /// The time and the payload, moved out.
  consuming func parts() -> (t: Nanoseconds, payload: Payload) { (t, payload) }

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

}

extension Event.Payload {
  /// The bytes of text the payload carries (a mark's label, a stream's or a view's name): what
  /// makes one event take more memory than another, for the limits that bound buffers in bytes.
  /// - Complexity: O(1).
  // Inlinable: asked for every event and cue, across modules.
  @inlinable
  public var textByteCount: Int {
    switch self {
    case .frame(let frame): frame.stream.rawValue.utf8.count
    case .drop(let drop): drop.stream.rawValue.utf8.count
    case .input(let stream, _): stream.rawValue.utf8.count
    case .direction(let update): update.view.rawValue.utf8.count
    case .mark(let label): label.utf8.count
    case .hinge, .display, .app, .session, .end: 0
    }
  }
}

/// One hinge delivery: a continuous angle and a coarse status.
public struct HingeDelivery: Hashable, Sendable {
  public var angle: HingeAngle
  public var status: HingeStatus
  public init(angle: HingeAngle, status: HingeStatus) {
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
public enum DropReason: String, TraceNamed {
  case frameWasLate
  case outOfBuffers
  case discontinuity
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
public enum Display: String, TraceNamed {
  case inner
  case outer
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
public enum AppState: String, TraceNamed {
  case foreground
  case background
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
