/// A timer of the camera stage, for one stream (by its index in order of appearance).
public enum CameraTimer: Hashable, Sendable {
  /// No frame for `stallFactor` nominal frame durations.
  case stall(stream: Int)
  /// The preview has been masked for `maskMaxMs`.
  case mask(stream: Int)
}
