/// A timer of one of the pipeline's stages. The stages set them through a
/// `ProcessingContext<StageTimer>` and know nothing of the pipeline that owns them.
public enum StageTimer: Hashable, Sendable {
  /// A timer of the hinge stage.
  case hinge(HingeTimer)
  /// A timer of the camera stage.
  case camera(CameraTimer)
}

extension StageTimer: DenselyNumberedTimerTag {
  /// The hinge's three timers first, then two for each stream (stall, mask) by stream index.
  public var denseNumber: Int {
    switch self {
    case .hinge(.statusDebounce): 0
    case .hinge(.settle): 1
    case .hinge(.progress): 2
    case .camera(.stall(let stream)): 3 &+ 2 &* stream
    case .camera(.mask(let stream)): 4 &+ 2 &* stream
    }
  }
}
