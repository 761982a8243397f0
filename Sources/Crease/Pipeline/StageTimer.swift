/// A timer of one of the pipeline's stages. The stages set them through a
/// `ProcessingContext<StageTimer>` and know nothing of the pipeline that owns them.
public enum StageTimer: Hashable, Sendable {
  /// A timer of the hinge stage.
  case hinge(HingeTimer)
  /// A timer of the camera stage.
  case camera(CameraTimer)
}
