/// One output of Crease: something an app should do, at a trace time, with its latency.
///
/// `t - since` is the cue's latency in trace time: how long after the earliest input event it
/// reflects the cue takes effect. SPEC 5 bounds it per stage.
public struct Cue: Hashable, Sendable {
  /// The trace time at which the cue takes effect.
  public var t: Nanoseconds
  /// The trace time of the earliest input event the cue reflects.
  public var since: Nanoseconds
  /// What to do.
  public var kind: CueKind

  /// A cue of `kind` at trace time `t`, reflecting input from `since`.
  public init(t: Nanoseconds, since: Nanoseconds, _ kind: CueKind) {
    self.t = t
    self.since = since
    self.kind = kind
  }

  /// The cue's latency in trace time.
  public var latency: Nanoseconds { t - since }
}
