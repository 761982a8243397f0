/// The most trace time one stage can put between a cue's `since` and its `t` (SPEC 5).
public struct LatencyBound: Hashable, Sendable {
  /// The stage, as `--summary` and `--latency-budget` name it.
  public var stage: String
  /// The cues the stage emits.
  public var cues: [String]
  /// The bound, or `nil` when the configuration leaves it unbounded.
  public var bound: Nanoseconds?
  /// What the bound is made of, in configuration keys, for messages.
  public var basis: String
}

extension Configuration {
  /// Each stage's bound under this configuration. Emission adds the reorder window on top,
  /// since an event waits that long for stragglers before it is processed.
  ///
  /// - `status debounce`: `statusMaxWaitMs`, unbounded when it is 0.
  /// - `settle`: `settleMs` after the last movement, or the status bound when a commit to
  ///   `closed` settles the hinge at once.
  /// - `progress`: one interval, or the settle bound for the final value sent at settle.
  /// - `instant`: cues that take effect with the event that causes them.
  public var latencyBounds: [LatencyBound] {
    let status: Nanoseconds? = hinge.statusMaxWait == .zero ? nil : hinge.statusMaxWait
    let settle = status.map { Swift.max($0, hinge.settle) }
    let progress = settle.map { Swift.max($0, hinge.progressInterval) }
    return [
      LatencyBound(
        stage: "instant",
        cues: [
          "hinge.initial", "hinge.available", "hinge.unavailable", "hinge.threshold", "hinge.motion", "mark",
        ],
        bound: .zero, basis: "none"),
      LatencyBound(
        stage: "status debounce", cues: ["hinge.status", "regions.changed"], bound: status,
        basis: "hinge.statusMaxWaitMs"),
      LatencyBound(
        stage: "settle", cues: ["hinge.settled"], bound: settle,
        basis: "max(hinge.settleMs, hinge.statusMaxWaitMs)"),
      LatencyBound(
        stage: "progress", cues: ["hinge.progress"], bound: progress,
        basis: "max(1/hinge.progressMaxRateHz, settle bound)"),
    ]
  }

  /// The bound that covers cues named `cue`, if a stage emits it.
  /// - Complexity: O(*s*) in the number of stages.
  public func latencyBound(forCue cue: String) -> LatencyBound? {
    latencyBounds.first { $0.cues.contains(cue) }
  }
}
