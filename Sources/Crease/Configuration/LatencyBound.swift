/// The most trace time one stage can put between a cue's `since` and its `t` (SPEC 5).
public struct LatencyBound: Hashable, Sendable {
  /// How a stage's latency is limited.
  public enum Limit: Hashable, Sendable {
    /// At most this long.
    case fixed(Nanoseconds)
    /// The configuration sets no limit (`statusMaxWaitMs` 0).
    case unbounded
    /// A multiple of the stream's nominal frame duration (a stall).
    case frames(Double)
    /// The length of the gap itself: `since` is when the first missing frame was due, and a gap
    /// is known only when frames resume. Not a processing delay; `camera.stall` bounds the wait.
    case gapLength
  }

  /// The stage.
  public var stage: LatencyStage
  /// How the bound is computed.
  public var limit: Limit
  /// What the bound is made of, in configuration keys, for messages.
  public var basis: String

  /// The bound for a stream whose nominal frame duration is `nominal`; `nil` when the stage is
  /// unbounded, or for a gap.
  public func bound(nominal: FrameDuration = .reference) -> Nanoseconds? {
    switch limit {
    case .fixed(let bound): bound
    case .unbounded, .gapLength: nil
    case .frames(let factor): nominal.scaled(by: factor)
    }
  }
}

extension Configuration {
  /// Each stage's bound under this configuration, in ``LatencyStage`` order. Emission adds the
  /// reorder window on top, since an event waits that long for stragglers before it is processed.
  ///
  /// - `instant`: cues that take effect with the event that causes them.
  /// - `status debounce`: `statusMaxWaitMs`, unbounded when it is 0.
  /// - `settle`: `settleMs` after the last movement, or the status bound when a commit to
  ///   `closed` settles the hinge at once.
  /// - `progress`: one interval, or the settle bound for the final value sent at settle.
  /// - `accessory`: the status bound (a commit to or from `closed` changes `open`).
  /// - `mask`: `maskMaxMs`, or the status bound for a mask a hinge commit starts.
  /// - `stall`: `stallFactor` nominal frame durations.
  /// - `frame gaps`: the gap's own length.
  public var latencyBounds: [LatencyBound] { LatencyStage.allCases.map(latencyBound(for:)) }

  /// The bound of `stage` under this configuration.
  public func latencyBound(for stage: LatencyStage) -> LatencyBound {
    let status: Nanoseconds? = hinge.statusMaxWait == .zero ? nil : hinge.statusMaxWait
    func limit(_ bound: Nanoseconds?) -> LatencyBound.Limit { bound.map { .fixed($0) } ?? .unbounded }
    switch stage {
    case .instant:
      return LatencyBound(stage: stage, limit: .fixed(.zero), basis: "none")
    case .statusDebounce:
      return LatencyBound(stage: stage, limit: limit(status), basis: "hinge.statusMaxWaitMs")
    case .settle:
      return LatencyBound(
        stage: stage, limit: limit(status.map { Swift.max($0, hinge.settle) }),
        basis: "max(hinge.settleMs, hinge.statusMaxWaitMs)")
    case .progress:
      return LatencyBound(
        stage: stage, limit: limit(status.map { Swift.max($0, hinge.settle, hinge.progressInterval) }),
        basis: "max(1/hinge.progressMaxRateHz, settle bound)")
    case .accessory:
      return LatencyBound(stage: stage, limit: limit(status), basis: "hinge.statusMaxWaitMs")
    case .mask:
      return LatencyBound(
        stage: stage, limit: limit(status.map { Swift.max($0, camera.maskMax) }),
        basis: "max(camera.maskMaxMs, hinge.statusMaxWaitMs)")
    case .stall:
      return LatencyBound(
        stage: stage, limit: .frames(camera.stallFactor), basis: "camera.stallFactor × nominal frame duration"
      )
    case .frameGaps:
      return LatencyBound(stage: stage, limit: .gapLength, basis: "the gap's length")
    }
  }
}
