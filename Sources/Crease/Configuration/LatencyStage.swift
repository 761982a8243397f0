/// The stages whose latency bounds SPEC 5 states, each covering a fixed set of cue kinds
/// (``CueKind/latencyStage``).
public enum LatencyStage: CaseIterable, Hashable, Sendable {
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

  /// The stage's place in declaration order (`allCases`), from 0.
  var ordinal: Int {
    switch self {
    case .instant: 0
    case .statusDebounce: 1
    case .settle: 2
    case .progress: 3
    case .accessory: 4
    case .mask: 5
    case .stall: 6
    case .frameGaps: 7
    }
  }

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
