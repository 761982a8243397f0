import Crease
import CreaseIO

/// Two runs side by side (`crease compare BASE NEW`): per cue kind the count and p50, p90, p99
/// and largest latency of each, and a verdict past a threshold, like a benchmark gate.
///
/// A kind's latency regresses when a percentile grew by more than the threshold, improves when
/// one shrank by more and none grew, and is unchanged otherwise. Its count has a verdict of its
/// own: a count that moved past the threshold either way is `countChanged` (more cues is more
/// flicker; fewer may be cues a change stopped making). A kind only the new run has is `added`,
/// one only the base has `removed`. The gate (``regressed``) fails on a latency regression, an
/// added kind, and, unless its ``Policy`` accepts them, a count change or a removed kind.
public struct FleetComparison: Sendable {
  /// What became of a cue kind.
  public enum Verdict: String, Sendable {
    /// A latency shrank past the threshold, none grew past it, and the count held.
    case improved
    /// A latency grew past the threshold.
    case regressed
    /// The count moved past the threshold, either way, and no latency grew past it.
    case countChanged
    /// Nothing changed past the threshold.
    case unchanged
    /// Only the new run has cues of the kind.
    case added
    /// Only the base run has cues of the kind.
    case removed
  }

  /// What the gate accepts besides unchanged and improved kinds.
  public struct Policy: Hashable, Sendable {
    /// Whether a count that moved past the threshold passes (`--allow-count-change`).
    public var allowsCountChange: Bool
    /// Whether a kind the new run no longer has passes (`--allow-removed`).
    public var allowsRemoved: Bool

    /// A gate that accepts what is given; by default a count change or a removed kind fails it.
    public init(allowsCountChange: Bool = false, allowsRemoved: Bool = false) {
      self.allowsCountChange = allowsCountChange
      self.allowsRemoved = allowsRemoved
    }
  }

  /// A kind's figures in one run.
  public struct Figures: Hashable, Sendable {
    /// How many cues of the kind.
    public var count: Int
    /// Latency percentiles and the largest latency, in order p50, p90, p99, max.
    public var latencies: [Nanoseconds]

    /// The figures of `kind`.
    public init(_ kind: FleetReport.Kind) {
      count = kind.latencies.count
      latencies = [50, 90, 99].map(kind.latencies.percentile) + [kind.latencies.maximum]
    }
  }

  /// One cue kind's comparison.
  public struct Row: Sendable {
    /// The cue kind's name.
    public var name: String
    /// Its figures in the base run; `nil` where it has no cue.
    public var base: Figures?
    /// Its figures in the new run; `nil` where it has no cue.
    public var new: Figures?
    /// What became of it.
    public var verdict: Verdict
  }

  /// The names of the latency columns, in ``Figures/latencies`` order.
  public static let latencyNames = ["p50", "p90", "p99", "max"]

  /// The rows, by cue kind name.
  public let rows: [Row]
  /// The relative change past which a figure counts as changed (0.05 for 5 %).
  public let threshold: Double
  /// What made each run: the crease version and configuration of the base and of the new run.
  public let provenance: (base: Provenance?, new: Provenance?)
  /// What the gate accepts.
  public let policy: Policy
  /// The configuration values that differ from the base run to the new, key by key.
  public let configurationChanges: [Provenance.ConfigurationChange]
  /// The traces both runs replayed that got worse, worst first (``worsenedTraces(_:_:threshold:)``).
  public let worsened: [TraceChange]

  /// `base` and `new` compared kind by kind, judged under `policy`.
  public init(base: FleetReport, new: FleetReport, threshold: Double, policy: Policy = Policy()) {
    self.threshold = threshold
    self.policy = policy
    provenance = (base.provenance, new.provenance)
    configurationChanges = Provenance.configurationChanges(from: base.provenance, to: new.provenance)
    worsened = Self.worsenedTraces(base, new, threshold: threshold)
    rows = Set(base.kinds.keys).union(new.kinds.keys).sorted().map { name in
      let before = base.kinds[name].map(Figures.init)
      let after = new.kinds[name].map(Figures.init)
      return Row(name: name, base: before, new: after, verdict: Self.verdict(before, after, threshold))
    }
  }

  /// The names of the traces only one of the runs replayed, sorted. Traces are matched by
  /// content digest where both rows have one (a renamed copy is the same trace, an edited file
  /// is not), by name otherwise.
  public static func unmatchedTraces(_ base: FleetReport, _ new: FleetReport) -> [String] {
    func identities(_ report: FleetReport) -> [String: [String]] {
      Dictionary(grouping: report.traces, by: { $0.content?.digest ?? "name " + $0.name }).mapValues {
        $0.map(\.name)
      }
    }
    let (before, after) = (identities(base), identities(new))
    var unmatched: [String] = []
    for (identity, names) in before where after[identity]?.count != names.count { unmatched += names }
    for (identity, names) in after where before[identity]?.count != names.count { unmatched += names }
    return Array(Set(unmatched)).sorted()
  }

  /// Whether `row` fails the gate under ``policy``.
  public func fails(_ row: Row) -> Bool {
    switch row.verdict {
    case .regressed, .added: true
    case .countChanged: !policy.allowsCountChange
    case .removed: !policy.allowsRemoved
    case .improved, .unchanged: false
    }
  }

  /// The names of the kinds that fail the gate, in row order.
  public var failures: [String] { rows.filter(fails).map(\.name) }

  /// Whether any row fails the gate.
  public var regressed: Bool { rows.contains(where: fails) }

  /// The relative change from `base` to `new`; 0 when both are 0, infinite from 0 to more.
  public static func change(_ base: Double, _ new: Double) -> Double {
    if base == new { return 0 }
    return base == 0 ? (new > 0 ? .infinity : -.infinity) : (new - base) / base
  }

  private static func verdict(_ base: Figures?, _ new: Figures?, _ threshold: Double) -> Verdict {
    guard let base else { return .added }
    guard let new else { return .removed }
    let latencyChanges = zip(base.latencies, new.latencies).map {
      change(Double($0.rawValue), Double($1.rawValue))
    }
    if latencyChanges.contains(where: { $0 > threshold }) { return .regressed }
    if abs(change(Double(base.count), Double(new.count))) > threshold { return .countChanged }
    if latencyChanges.contains(where: { $0 < -threshold }) { return .improved }
    return .unchanged
  }
}
