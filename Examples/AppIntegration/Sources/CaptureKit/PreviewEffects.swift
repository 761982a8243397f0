import Crease

/// What the camera preview shows, as the cues have set it: the app's side of Crease.
public struct PreviewEffects: Sendable, Equatable {
  /// The committed hinge status, once the debounce has settled it.
  public var status: HingeStatus?
  /// The side of each boundary the hinge was last seen on.
  public var sides: [BoundaryName: BoundarySide] = [:]
  /// Where the hinge came to rest last, in degrees.
  public var restingDegrees: Double?
  /// Whether the preview is mirrored, once a decision came.
  public var mirrored: Bool?
  /// Whether the preview is masked around a camera switch.
  public var masked = false
  /// Frames missing from the video stream so far.
  public var missingFrames = 0

  /// Effects before any cue.
  public init() {}

  /// Applies `cue`, switching on its kind: every field is typed, nothing is matched by name.
  public mutating func apply(_ cue: Cue) {
    switch cue.kind {
    case .hingeInitial(let status, _), .hingeAvailable(let status, _), .hingeStatus(_, let status):
      self.status = status
    case .hingeThreshold(let boundary, let side, _, _):
      sides[boundary] = side
    case .hingeSettled(let angle, _):
      restingDegrees = angle.degrees
    case .cameraMirroring(_, _, let mirrored, _):
      self.mirrored = mirrored
    case .cameraMask(_, let on, _):
      masked = on
    case .cameraGap(_, _, _, let missing, _, _):
      missingFrames += missing
    default:
      break
    }
  }
}
