/// Takes an app's events one at a time: ``CreaseSession`` processes them, a `TraceRecorder`
/// (in `CreaseRecording`) writes them down as a trace. The calls below feed either the same
/// way, so an app can record exactly what it processes.
public protocol EventSending {
  /// Why an event was not taken.
  associatedtype SendFailure: Error
  /// Takes any event.
  mutating func send(_ event: consuming Event) throws(SendFailure)
}

extension EventSending {
  /// A hinge delivery (SwiftUI `onHingeChange` or `UIHingeInteraction`), at trace time `t`.
  public mutating func hinge(_ angle: HingeAngle, status: HingeStatus, at t: Nanoseconds) throws(SendFailure)
  {
    try send(Event(t: t, .hinge(HingeDelivery(angle: angle, status: status))))
  }

  /// A delivery with `hinge == nil`: the view has no hinge.
  public mutating func hingeUnavailable(at t: Nanoseconds) throws(SendFailure) {
    try send(Event(t: t, .hinge(nil)))
  }

  /// A delivered sample buffer with its presentation time (a CMTime's value and timescale),
  /// and the device that produced it when known.
  public mutating func frame(
    _ pts: PresentationTime, stream: StreamName = .video, camera: Camera? = nil, at t: Nanoseconds
  ) throws(SendFailure) {
    try send(Event(t: t, .frame(Frame(stream: stream, pts: pts, camera: camera))))
  }

  /// A dropped-frame callback, with the buffer's presentation time and the drop's reason
  /// (`nil` when the callback carried none).
  public mutating func drop(
    _ pts: PresentationTime, reason: DropReason?, stream: StreamName = .video, at t: Nanoseconds
  ) throws(SendFailure) {
    try send(Event(t: t, .drop(Drop(stream: stream, pts: pts, reason: reason))))
  }

  /// The session's video input became `camera`.
  public mutating func input(_ camera: Camera, stream: StreamName = .video, at t: Nanoseconds)
    throws(SendFailure)
  {
    try send(Event(t: t, .input(stream: stream, camera: camera)))
  }

  /// A direction-coordinator update: the cameras facing the person, and those facing away.
  public mutating func direction(
    toward: CameraSet, away: CameraSet, view: ViewName = .main, at t: Nanoseconds
  ) throws(SendFailure) {
    try send(Event(t: t, .direction(DirectionUpdate(view: view, toward: toward, away: away))))
  }

  /// The app's view moved to `display`.
  public mutating func display(_ display: Display, fullScreen: Bool, at t: Nanoseconds) throws(SendFailure) {
    try send(Event(t: t, .display(DisplayChange(display: display, fullScreen: fullScreen))))
  }

  /// The app moved to the foreground or the background.
  public mutating func app(_ state: AppState, at t: Nanoseconds) throws(SendFailure) {
    try send(Event(t: t, .app(state)))
  }

  /// The capture session's state; `previewVisible: nil` leaves the preview's as it was.
  public mutating func session(running: Bool, previewVisible: Bool?, at t: Nanoseconds) throws(SendFailure) {
    try send(Event(t: t, .session(SessionState(running: running, previewVisible: previewVisible))))
  }

  /// An annotation, passed through as a `mark` cue.
  public mutating func mark(_ label: String, at t: Nanoseconds) throws(SendFailure) {
    try send(Event(t: t, .mark(label: label)))
  }
}
