import Crease
import CreaseRecording

/// The app's capture model: hinge callbacks from the main actor and sample buffers from a
/// capture queue hop here, a few milliseconds out of order, into one session, and into a
/// recording of what it saw.
public actor CaptureModel {
  private var session: CreaseSession
  private var recorder: TraceRecorder<BoundedTrace>
  /// What the preview shows now.
  public private(set) var effects = PreviewEffects()
  /// Events the session refused (more than its window late), kept to report.
  public private(set) var refusals: [RefusedEvent] = []
  /// Why recording stopped, if it did; the session goes on without it.
  public private(set) var recordingFailure: TraceRecorder<BoundedTrace>.Failure?
  /// Events the session put back in order but the recording could not take: a trace is written
  /// in order, and these came after a later one.
  public private(set) var unrecorded = 0

  /// A model whose session reorders events up to `reorderWindow` late, with the capture
  /// session's frame rate declared, recording at most `recordingLines` lines.
  public init(reorderWindow: Nanoseconds = .milliseconds(5), recordingLines: Int = 10_000) throws {
    session = try CreaseSession(reorderWindow: reorderWindow, frameRates: [.video: 30])
    recorder = try TraceRecorder(
      sink: BoundedTrace(capacity: recordingLines), header: TraceHeader(device: "iPhone Fold"))
  }

  /// A hinge delivery, stamped where it happened.
  public func hinge(_ angle: HingeAngle, status: HingeStatus, at t: Nanoseconds) {
    take(Event(t: t, .hinge(HingeDelivery(angle: angle, status: status))))
  }

  /// A sample buffer's presentation time, stamped where it was delivered.
  public func frame(_ pts: PresentationTime, camera: Camera, at t: Nanoseconds) {
    take(Event(t: t, .frame(Frame(pts: pts, camera: camera))))
  }

  /// Nothing happened until `t`: the debounce and settle cues due by then come.
  public func advance(to t: Nanoseconds) {
    session.advance(to: t)
    drain()
  }

  /// The recording so far, one trace line each.
  public var recording: [String] { recorder.sink.lines }

  private func take(_ event: Event) {
    do {
      try session.send(event)
    } catch {
      refusals.append(error)
      return
    }
    if recordingFailure == nil {
      do throws(TraceRecorder<BoundedTrace>.Failure) {
        try recorder.send(event)
      } catch {
        if error.refusedEvent != nil { unrecorded += 1 } else { recordingFailure = error }
      }
    }
    drain()
  }

  private func drain() {
    var effects = self.effects
    session.drainCues { effects.apply($0) }
    self.effects = effects
  }
}
