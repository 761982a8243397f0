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

  /// The nominal frame duration `--latency-budget` assumes for frame-relative bounds: 30 fps,
  /// the slowest rate the capture formats here use.
  public static let referenceFrameDuration = Nanoseconds(33_333_333)

  /// The stage, as `--summary` and `--latency-budget` name it.
  public var stage: String
  /// The cues the stage emits.
  public var cues: [String]
  public var limit: Limit
  /// What the bound is made of, in configuration keys, for messages.
  public var basis: String

  /// The bound for a stream whose nominal frame duration is `nominal`; `nil` when the stage is
  /// unbounded, or for a gap.
  public func bound(nominal: Nanoseconds = referenceFrameDuration) -> Nanoseconds? {
    switch limit {
    case .fixed(let bound): bound
    case .unbounded, .gapLength: nil
    case .frames(let factor): Nanoseconds(Int64((Double(nominal.rawValue) * factor).rounded()))
    }
  }
}

extension Configuration {
  /// Each stage's bound under this configuration. Emission adds the reorder window on top,
  /// since an event waits that long for stragglers before it is processed.
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
  public var latencyBounds: [LatencyBound] {
    let status: Nanoseconds? = hinge.statusMaxWait == .zero ? nil : hinge.statusMaxWait
    func limit(_ bound: Nanoseconds?) -> LatencyBound.Limit { bound.map { .fixed($0) } ?? .unbounded }
    let settle = status.map { Swift.max($0, hinge.settle) }
    let progress = settle.map { Swift.max($0, hinge.progressInterval) }
    let mask = status.map { Swift.max($0, camera.maskMax) }
    return [
      LatencyBound(
        stage: "instant",
        cues: [
          "hinge.initial", "hinge.available", "hinge.unavailable", "hinge.threshold", "hinge.motion",
          "camera.direction", "camera.mirroring", "camera.ptsRegression", "mark",
        ],
        limit: .fixed(.zero), basis: "none"),
      LatencyBound(
        stage: "status debounce", cues: ["hinge.status", "regions.changed"], limit: limit(status),
        basis: "hinge.statusMaxWaitMs"),
      LatencyBound(
        stage: "settle", cues: ["hinge.settled"], limit: limit(settle),
        basis: "max(hinge.settleMs, hinge.statusMaxWaitMs)"),
      LatencyBound(
        stage: "progress", cues: ["hinge.progress"], limit: limit(progress),
        basis: "max(1/hinge.progressMaxRateHz, settle bound)"),
      LatencyBound(
        stage: "accessory", cues: ["accessory.eligible"], limit: limit(status), basis: "hinge.statusMaxWaitMs"
      ),
      LatencyBound(
        stage: "mask", cues: ["camera.mask"], limit: limit(mask),
        basis: "max(camera.maskMaxMs, hinge.statusMaxWaitMs)"),
      LatencyBound(
        stage: "stall", cues: ["camera.stall"], limit: .frames(camera.stallFactor),
        basis: "camera.stallFactor × nominal frame duration"),
      LatencyBound(stage: "frame gaps", cues: ["camera.gap"], limit: .gapLength, basis: "the gap's length"),
    ]
  }

  /// The bound that covers cues named `cue`, if a stage emits it.
  /// - Complexity: O(*s*) in the number of stages.
  public func latencyBound(forCue cue: String) -> LatencyBound? {
    latencyBounds.first { $0.cues.contains(cue) }
  }
}
