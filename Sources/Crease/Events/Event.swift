/// One input event of a trace, at a trace time.
public struct Event: Hashable, Sendable {
  /// When the event happened, on the recording's monotonic host clock.
  public var t: Nanoseconds
  /// What happened.
  public var payload: Payload

  /// An event at trace time `t`.
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
    /// This stream's recording stopped here, while others go on (a movie's shorter track): it
    /// ends the stream's run of frames as a `session` stop does, for this stream alone, so its
    /// silence afterwards is neither a stall nor a gap. A later frame of the stream starts a new
    /// run.
    case streamEnd(stream: StreamName)
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
    case .input(let stream, _), .streamEnd(let stream): stream.rawValue.utf8.count
    case .direction(let update): update.view.rawValue.utf8.count
    case .mark(let label): label.utf8.count
    case .hinge, .display, .app, .session, .end: 0
    }
  }
}

extension Event {
  /// Whether the event is `end` (``Engine/refusal(at:isEnd:from:)`` asks it).
  public var isEnd: Bool {
    switch payload {
    case .end: true
    default: false
    }
  }
}

/// One hinge delivery: a continuous angle and a coarse status.
public struct HingeDelivery: Hashable, Sendable {
  /// The angle between the two halves, in the unit it was recorded in.
  public var angle: HingeAngle
  /// The status the system reported with the angle.
  public var status: HingeStatus
  /// A delivery of `angle` and `status`.
  public init(angle: HingeAngle, status: HingeStatus) {
    self.angle = angle
    self.status = status
  }
}

/// A delivered sample buffer.
public struct Frame: Hashable, Sendable {
  /// The stream that delivered the buffer.
  public var stream: StreamName
  /// The buffer's presentation time.
  public var pts: PresentationTime
  /// The device that produced the buffer, when the trace knows it.
  public var camera: Camera?
  /// A buffer of `stream` at `pts`, from `camera` when known.
  public init(stream: StreamName = .video, pts: PresentationTime, camera: Camera? = nil) {
    self.stream = stream
    self.pts = pts
    self.camera = camera
  }
}

/// Why the capture output dropped a sample buffer; the raw value is the trace name.
public enum DropReason: String, TraceNamed {
  /// The buffer arrived too late to be delivered.
  case frameWasLate
  /// The pool had no buffer left.
  case outOfBuffers
  /// The capture pipeline had a discontinuity.
  case discontinuity
}

/// A dropped-frame callback.
public struct Drop: Hashable, Sendable {
  /// The stream the buffer was dropped from.
  public var stream: StreamName
  /// The dropped buffer's presentation time.
  public var pts: PresentationTime
  /// Why the buffer was dropped (`kCMSampleBufferAttachmentKey_DroppedFrameReason`); `nil`
  /// when the callback carried no such attachment (SPEC 2).
  public var reason: DropReason?
  /// A dropped buffer of `stream` at `pts`, for `reason` (`nil`: none given).
  public init(stream: StreamName = .video, pts: PresentationTime, reason: DropReason?) {
    self.stream = stream
    self.pts = pts
    self.reason = reason
  }
}

/// Which cameras face the person, and which face away, relative to a view.
public struct DirectionUpdate: Hashable, Sendable {
  /// The view whose direction coordinator sent the update.
  public var view: ViewName
  /// The cameras facing the person.
  public var toward: CameraSet
  /// The cameras facing away from the person.
  public var away: CameraSet
  /// Whether `toward` lists both front cameras, `innerFront` first: the one order of the list
  /// that decides anything (SPEC 4.7: before any frame, a `virtualFront` input takes the first
  /// front camera listed toward the person). Always `false` unless `toward` holds both.
  public private(set) var innerFrontListedFirst: Bool

  /// An update for `view` with the cameras toward and away from the person; when `toward`
  /// holds both front cameras, `innerFrontListedFirst` says which the update listed first.
  public init(view: ViewName = .main, toward: CameraSet, away: CameraSet, innerFrontListedFirst: Bool = false)
  {
    self.view = view
    self.toward = toward
    self.away = away
    self.innerFrontListedFirst =
      innerFrontListedFirst && toward.contains(.innerFront) && toward.contains(.outerFront)
  }

  /// The front camera facing the person that the update listed first, if it lists one.
  public var firstFrontCameraToward: Camera? {
    if toward.contains(.outerFront) && !innerFrontListedFirst { return .outerFront }
    return toward.contains(.innerFront) ? .innerFront : nil
  }
}

/// One of the device's two displays; the raw value is the trace name.
public enum Display: String, TraceNamed {
  /// The inner, folding display.
  case inner
  /// The outer display.
  case outer
}

/// The app's view moved to a display.
public struct DisplayChange: Hashable, Sendable {
  /// The display the app's view is on now.
  public var display: Display
  /// Whether the view fills that display.
  public var fullScreen: Bool
  /// The view moved to `display`, filling it or not.
  public init(display: Display, fullScreen: Bool) {
    self.display = display
    self.fullScreen = fullScreen
  }
}

/// Whether the app is in the foreground; the raw value is the trace name.
public enum AppState: String, TraceNamed {
  /// The app is in the foreground.
  case foreground
  /// The app is in the background.
  case background
}

/// The capture session's state.
public struct SessionState: Hashable, Sendable {
  /// Whether the capture session runs.
  public var running: Bool
  /// Whether a preview is visible; `nil` leaves the previous value unchanged.
  public var previewVisible: Bool?
  /// The session running or not, with the preview's visibility when it changed.
  public init(running: Bool, previewVisible: Bool?) {
    self.running = running
    self.previewVisible = previewVisible
  }
}
