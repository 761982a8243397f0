/// The stages whose latency bounds SPEC 5 states, each covering a fixed set of cue kinds
/// (``CueKind/latencyStage``). The raw value is the stage's place in declaration order, from 0,
/// given by the compiler: the index of tables by stage, `allCases.count` long.
public enum LatencyStage: Int, CaseIterable, Hashable, Sendable {
  /// Cues that take effect with the event that causes them.
  case instant
  /// `hinge.status` and `regions.changed`.
  case statusDebounce
  /// `hinge.settled`.
  case settle
  /// `hinge.progress`.
  case progress
  /// `accessory.eligible`.
  case accessory
  /// `camera.mask`.
  case mask
  /// `camera.stall`.
  case stall
  /// `camera.gap`.
  case frameGaps

  /// The stage's name in `--summary` and `--latency-budget` messages.
  public var name: String {
    switch self {
    case .instant: "instant"
    case .statusDebounce: "status debounce"
    case .settle: "settle"
    case .progress: "progress"
    case .accessory: "accessory"
    case .mask: "mask"
    case .stall: "stall"
    case .frameGaps: "frame gaps"
    }
  }
}

extension CueKind {
  /// The stage whose latency bound covers this cue. A switch, so a new cue kind does not
  /// compile until it has a bound.
  public var latencyStage: LatencyStage {
    switch self {
    case .hingeInitial, .hingeAvailable, .hingeUnavailable, .hingeThreshold, .hingeMotion, .cameraDirection,
      .cameraMirroring, .cameraPTSRegression, .mark:
      .instant
    case .hingeStatus, .regionsChanged: .statusDebounce
    case .hingeSettled: .settle
    case .hingeProgress: .progress
    case .accessoryEligible: .accessory
    case .cameraMask: .mask
    case .cameraStall: .stall
    case .cameraGap: .frameGaps
    }
  }
}
