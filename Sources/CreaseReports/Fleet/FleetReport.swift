import Crease
import CreaseIO

/// One report over many replays (SPEC 10's reduce step): per cue kind the latency distribution
/// over all traces, merged exactly from the summaries' histograms; every bound violation with
/// its trace; gaps by cause, stalls, stale frames; and a row per trace.
///
/// Reports merge like the summaries they come from: the report of two reports is the report of
/// all their summaries (rows are kept in one canonical order, histograms add), so a fleet can be
/// reduced in any grouping, on one machine or many.
public struct FleetReport: Hashable, Sendable {
  /// The version of the report file's layout (`Schemas/report.schema.json`).
  public static let version = 2
  /// How many traces the report lists as the closest to their bound.
  public static let closestCount = 10
  /// The stages whose latency depends on the input, so that how close a trace's cues came to
  /// their bound says something about the trace. The others say nothing: settle, stall and
  /// mask cues wait on a timer of their bound's length, instant cues on nothing, and a gap's
  /// latency is the gap's own length.
  public static let rankedStages: [LatencyStage] = [.statusDebounce, .progress, .accessory]

  /// Summaries or reports made by different crease versions or under different
  /// configurations, which one report does not merge (`crease report --mixed` keeps them apart).
  public struct MixedProvenance: Error, Hashable, Sendable {
    /// The two that differ.
    public var first: Provenance, second: Provenance
  }

  /// The cue kind of a trace that came closest to its latency bound.
  public struct Closest: Hashable, Sendable {
    /// The cue kind's name.
    public var cue: String
    /// Its largest latency in the trace.
    public var latency: Nanoseconds
    /// The bound that applies to it.
    public var bound: Nanoseconds

    /// The latency as a share of the bound (1 at the bound).
    public var share: Double { Double(latency.rawValue) / Double(bound.rawValue) }
  }

  /// One trace's replay, or its failure.
  public struct Trace: Hashable, Sendable {
    /// The trace's path (several joined by ` + ` for a merged replay).
    public var name: String
    /// The trace's size and digest, when its summary recorded them.
    public var content: TraceContent?
    /// The trace's line counts.
    public var lines = Lines()
    /// How the replay ended: `endEvent`, `endOfStream`, `strict` or `signal` (empty for a failure).
    public var end = ""
    /// Cues over their bound.
    public var overBound = 0
    /// `camera.gap` cues by cause, in `GapCause` order.
    public var gaps: [Int] {
      get { [gapCounts.0, gapCounts.1, gapCounts.2] }
      set { gapCounts = (newValue[0], newValue[1], newValue[2]) }
    }
    /// The gap counts kept inline: an array a row was a heap block a trace (56 bytes), and a
    /// report holds a row for every trace of a fleet.
    private var gapCounts = (0, 0, 0)
    /// `camera.stall` cues.
    public var stalls = 0
    /// The least and greatest bound the trace's stalls were judged against (each stream's
    /// `stallFactor` × nominal frame duration); `nil` when it had none, or its summary predates
    /// them.
    public var stallBounds: ClosedRange<Nanoseconds>?
    /// Frames delivered under a mirroring decision later revised.
    public var staleFrames = 0
    /// The cue kind that came closest to its bound, among ``FleetReport/rankedStages``.
    public var closest: Closest?
    /// Why the trace has no summary (it failed to open or to replay), or `nil`.
    public var error: String?

    /// A row for the trace `name`, failed with `error` or not yet filled.
    public init(name: String, error: String? = nil) {
      self.name = name
      self.error = error
    }

    /// Whether the two rows write the same JSON.
    public static func == (lhs: Trace, rhs: Trace) -> Bool { lhs.json == rhs.json }
    /// Hashes the row's JSON, as ``==(_:_:)`` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(json) }
  }

  /// Line counts, as a summary keeps them.
  public struct Lines: Hashable, Sendable {
    /// Lines read, blank ones included.
    public var lines = 0
    /// Events and headers taken in.
    public var processed = 0
    /// Bad lines, reported and skipped.
    public var rejected = 0
    /// Late lines, not processed.
    public var late = 0
    /// Blank lines, skipped.
    public var blank = 0

    mutating func add(_ other: Lines) {
      lines = lines.addingSaturated(other.lines)
      processed = processed.addingSaturated(other.processed)
      rejected = rejected.addingSaturated(other.rejected)
      late = late.addingSaturated(other.late)
      blank = blank.addingSaturated(other.blank)
    }
  }

  /// One cue kind over all traces.
  public struct Kind: Hashable, Sendable {
    /// The cue kind's name, such as `hinge.status`.
    public var name: String
    /// The name of the stage whose bound covers the kind.
    public var stage: String
    /// The kind's latencies over every trace.
    public var latencies: LatencyHistogram
    /// Cues of the kind over their latency bound, over every trace.
    public var overBound: Int
    /// How many traces had cues of this kind.
    public var traces: Int
  }

  /// Cues of one kind over their bound in one trace.
  public struct Violation: Hashable, Sendable, Comparable {
    /// The trace's name.
    public var trace: String
    /// The cue kind's name.
    public var cue: String
    /// How many of its cues exceeded their bound.
    public var count: Int

    /// Most cues over their bound first, then by trace and cue name.
    public static func < (lhs: Violation, rhs: Violation) -> Bool {
      (lhs.trace, lhs.cue, lhs.count) < (rhs.trace, rhs.cue, rhs.count)
    }
  }

  /// The crease version and configuration the report was made under; `nil` while it holds no
  /// summary (it is empty, or every trace failed).
  public private(set) var provenance: Provenance?
  /// Every trace, in canonical order (by name, then by content).
  public private(set) var traces: [Trace] = []
  /// Per cue kind, by name.
  public private(set) var kinds: [String: Kind] = [:]
  /// Every bound violation, sorted by trace and cue.
  public private(set) var violations: [Violation] = []

  /// An empty report.
  public init() {}

  /// The report of one trace that has no summary.
  public init(failed name: String, error: String) {
    traces = [Trace(name: name, error: error)]
  }

  init(provenance: Provenance?, traces: consuming [Trace], kinds: [String: Kind], violations: [Violation]) {
    self.provenance = provenance
    Self.putInCanonicalOrder(&traces)
    self.traces = traces
    self.kinds = kinds
    self.violations = violations.sorted()
  }

  /// Adds everything `other` holds; refused when the two were made under different
  /// provenance.
  /// - Complexity: O((*t* + *v*) log(*t* + *v*) + *k* × *b*) in traces, violations, kinds and
  ///   histogram buckets.
  public mutating func merge(_ other: FleetReport) throws(MixedProvenance) {
    self = try Self.merging([self, other])
  }

  /// The report of all `reports`; refused when they were made under different provenance.
  /// - Complexity: O((*t* + *v*) log(*t* + *v*) + *r* × *k* × *b*): rows and violations are put
  ///   in order once, not once a report.
  public static func merging(_ reports: some Sequence<FleetReport>) throws(MixedProvenance) -> FleetReport {
    var accumulator = Accumulator()
    for report in reports { try accumulator.add(report) }
    return accumulator.report
  }

  /// The reports of `reports`, one per provenance, in the order each first occurs: what
  /// `crease report --mixed` keeps apart. Reports of failed traces alone, which have none,
  /// join the first.
  public static func mergingByProvenance(_ reports: some Sequence<FleetReport>) -> [FleetReport] {
    var groups = GroupedAccumulator()
    for report in reports { groups.add(report) }
    return groups.reports
  }

  /// Rows by name; equal names by their JSON bytes, so the order never depends on which report
  /// a row came from. The bytes are made only to break a tie, and let go after it: made for
  /// every row first, they were most of a report's memory (about 1.3 KB a row).
  private static func putInCanonicalOrder(_ traces: inout [Trace]) {
    traces.sort { lhs, rhs in
      lhs.name != rhs.name ? lhs.name < rhs.name : lhs.json.bytes.lexicographicallyPrecedes(rhs.json.bytes)
    }
  }

  // MARK: Totals

  /// All traces' lines added up.
  public var lines: Lines { traces.reduce(into: Lines()) { $0.add($1.lines) } }
  /// Traces that could not be replayed.
  public var failed: Int { traces.count { $0.error != nil } }
  /// `camera.gap` cues by cause over all traces, in `GapCause` order.
  public var gaps: [Int] {
    traces.reduce(into: [0, 0, 0]) { total, trace in
      for cause in 0..<3 { total[cause] = total[cause].addingSaturated(trace.gaps[cause]) }
    }
  }
  /// `camera.stall` cues over every trace, saturating.
  public var stalls: Int { traces.reduce(0) { $0.addingSaturated($1.stalls) } }
  /// The least and greatest bound any trace's stalls were judged against, if any stalled.
  public var stallBounds: ClosedRange<Nanoseconds>? { Self.widest(traces.lazy.compactMap(\.stallBounds)) }

  /// The range that holds every one of `ranges`, or `nil` when there are none.
  /// - Complexity: O(*n*), holding none of them.
  static func widest(_ ranges: some Sequence<ClosedRange<Nanoseconds>>) -> ClosedRange<Nanoseconds>? {
    ranges.reduce(nil) { widest, range in
      widest.map { min($0.lowerBound, range.lowerBound)...max($0.upperBound, range.upperBound) } ?? range
    }
  }
  /// Stale frames over every trace, saturating.
  public var staleFrames: Int { traces.reduce(0) { $0.addingSaturated($1.staleFrames) } }

  /// The traces whose cues came closest to their bound, closest first (ties by name, then in
  /// the rows' order).
  /// - Complexity: O(*t* × ``closestCount``), holding only the closest: a copy of every row,
  ///   sorted, was the largest thing a report over a fleet held.
  public var closestToBound: [Trace] {
    func precedes(_ lhs: Trace, _ rhs: Trace) -> Bool {
      let (left, right) = (lhs.closest!.share, rhs.closest!.share)
      return left != right ? left > right : lhs.name < rhs.name
    }
    var closest: [Trace] = []
    closest.reserveCapacity(Self.closestCount + 1)
    for trace in traces where trace.closest != nil {
      guard closest.count < Self.closestCount || precedes(trace, closest.last!) else { continue }
      closest.insert(trace, at: closest.firstIndex { precedes(trace, $0) } ?? closest.endIndex)
      if closest.count > Self.closestCount { closest.removeLast() }
    }
    return closest
  }
}
