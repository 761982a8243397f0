/// The processor behind `crease replay`: every stage of Crease, in one state machine the
/// engine drives.
///
/// Stages see events in trace-time order. `hinge` deliveries go to the hinge stage, whose status
/// commits the camera stage also hears (switch windows, masks, the accessory); capture events go
/// to the camera stage; `mark` events pass straight through as cues.
public struct Pipeline: EventProcessor, Sendable {
  /// The stages' timers.
  public typealias TimerTag = StageTimer

  /// The configuration the stages were built with.
  public let configuration: Configuration
  private var hinge: HingeStage
  private var camera: CameraStage
  /// Each stage's bound, in ``LatencyStage`` order, worked out once: asked for every cue.
  private let stageBounds: [LatencyBound]

  /// Creates the stages for a validated configuration.
  public init(configuration: Configuration) {
    self.configuration = configuration
    self.hinge = HingeStage(configuration: configuration.hinge)
    self.camera = CameraStage(configuration: configuration.camera)
    self.stageBounds = configuration.latencyBounds
  }

  /// Frames delivered under a mirroring decision that a later direction update revised.
  public var staleFrames: Int { camera.staleFrames }

  /// Frames, drops and inputs of streams past the camera stage's ``StreamBudget``, which it does
  /// not track: memory stays bounded on any trace.
  public var untrackedStreamEvents: Int { camera.untrackedEvents }

  /// Takes the header's declared frame rates as the streams' nominal rates.
  public mutating func apply(_ header: TraceHeader) { camera.apply(header) }

  /// Routes `event` to its stage: hinge deliveries to the hinge stage, whose status changes reach the camera
  /// stage, marks straight to a cue, frames and the rest to the camera stage.
  public mutating func process(_ event: consuming Event, context: inout ProcessingContext<TimerTag>) {
    // Taken apart, so a mark's label and a frame's stream move on without a copy.
    let (t, payload) = event.parts()
    switch consume payload {
    case .hinge(let delivery):
      if let change = hinge.receive(delivery, context: &context) {
        camera.hingeChanged(change, context: &context)
      }
    case .frame(let frame):
      // In parts, the name moved on: the stage destroys it directly. Tuning: owned-parts.
      camera.receive(stream: frame.stream, pts: frame.pts, camera: frame.camera, context: &context)
    case .mark(let label):
      context.emit(since: t, .mark(label: label))
    case .end:
      break
    case let payload:
      camera.process(payload, context: &context)
    }
  }

  /// Fires a stage's timer and passes a status change it commits on to the camera stage.
  public mutating func fire(_ tag: TimerTag, context: inout ProcessingContext<TimerTag>) {
    switch tag {
    case .hinge(let timer):
      if let change = hinge.fire(timer, context: &context) { camera.hingeChanged(change, context: &context) }
    case .camera(let timer):
      camera.fire(timer, context: &context)
    }
  }

  /// Closes what is open at the end of the input (the camera stage's held gaps).
  public mutating func finish(context: inout ProcessingContext<TimerTag>) { camera.finish(context: &context) }

  /// The camera capture accessory's conditions not met now (SPEC 4.9), as of the events taken
  /// so far: `accessory.eligible` says only when eligibility flips, this says what is missing
  /// whenever it is asked.
  /// - Complexity: O(1).
  public var missingAccessoryConditions: AccessoryConditions { camera.missingAccessoryConditions }

  /// The nominal frame duration of `stream` as the camera stage knows it now: declared, estimated
  /// or changed with the rate (SPEC 4.6); `nil` while there are too few frames for an estimate.
  public func nominalFrameDuration(of stream: StreamName) -> FrameDuration? {
    camera.nominalFrameDuration(of: stream)
  }

  /// The bound of the cue's stage under the configuration (SPEC 5); for a stall, `stallFactor`
  /// times its own stream's nominal frame duration as the camera stage knows it now.
  public func latencyBound(for cue: Cue) -> Nanoseconds? {
    let stage = stageBounds[cue.kind.latencyStage.rawValue]
    guard case .cameraStall(let stream) = cue.kind else { return stage.bound() }
    return camera.nominalFrameDuration(of: stream).flatMap { stage.bound(nominal: $0) }
  }
}
