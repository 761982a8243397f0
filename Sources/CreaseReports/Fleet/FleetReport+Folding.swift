import Crease
import CreaseIO

extension FleetReport {
  /// Reports folded into one as they come, so that a report over many summaries holds one
  /// histogram a cue kind and a row a trace, never the summaries themselves.
  ///
  /// Folding in any order gives the same report: histograms and counts add, and rows and
  /// violations are put in their canonical order once, when ``report`` is asked for.
  public struct Accumulator: Sendable {
    /// The provenance of the reports folded in so far, once one had any.
    public fileprivate(set) var provenance: Provenance?
    private var traces: [Trace] = []
    private var kinds: [String: Kind] = [:]
    private var violations: [Violation] = []

    /// Nothing folded in yet.
    public init() {}

    /// Makes room for `count` rows: as many as the summaries to be folded in, so that the
    /// rows, most of what a report over a fleet holds, take what they need and no more.
    /// - Complexity: O(*t*) in the rows folded in so far.
    public mutating func reserveCapacity(rows count: Int) {
      traces.reserveCapacity(count)
    }

    /// Folds `report` in; refused, with nothing changed, when it was made under another
    /// provenance than the reports before it.
    /// - Complexity: O(*t* + *v* + *k* × *b*) in the report's traces, violations, kinds and
    ///   occupied histogram buckets.
    public mutating func add(_ report: FleetReport) throws(MixedProvenance) {
      if let theirs = report.provenance {
        if let mine = provenance, mine != theirs { throw MixedProvenance(first: mine, second: theirs) }
        provenance = theirs
      }
      fold(report)
    }

    /// Folds `report` in, its provenance already checked.
    fileprivate mutating func fold(_ report: FleetReport) {
      traces += report.traces
      violations += report.violations
      for (name, kind) in report.kinds {
        guard var mine = kinds.removeValue(forKey: name) else {
          kinds[name] = kind
          continue
        }
        mine.latencies.merge(kind.latencies)
        mine.overBound = mine.overBound.addingSaturated(kind.overBound)
        mine.traces = mine.traces.addingSaturated(kind.traces)
        kinds[name] = mine
      }
    }

    /// The report of everything folded in.
    /// - Complexity: O((*t* + *v*) log(*t* + *v*)): the rows and violations put in order.
    public var report: FleetReport {
      FleetReport(provenance: provenance, traces: traces, kinds: kinds, violations: violations)
    }

    /// The report of everything folded in, leaving nothing folded: the rows are put in order
    /// where they lie, where ``report`` sorts a copy of them (a fleet's rows are most of what
    /// a report holds).
    /// - Complexity: O((*t* + *v*) log(*t* + *v*)): the rows and violations put in order.
    public mutating func takeReport() -> FleetReport {
      var rows: [Trace] = []
      swap(&rows, &traces)
      defer { self = Accumulator() }
      return FleetReport(provenance: provenance, traces: consume rows, kinds: kinds, violations: violations)
    }
  }

  /// Reports folded into one per provenance, as `crease report --mixed` keeps them apart: in
  /// the order each provenance first occurs, reports of failed traces alone (which have none)
  /// joining the first.
  public struct GroupedAccumulator: Sendable {
    private var groups: [Accumulator] = []
    private var unattributed = Accumulator()

    /// Nothing folded in yet.
    public init() {}

    /// Folds `report` into the group of its provenance.
    /// - Complexity: O(*g*) in the groups, besides the folding.
    public mutating func add(_ report: FleetReport) {
      guard let provenance = report.provenance else { return unattributed.fold(report) }
      if let index = groups.firstIndex(where: { $0.provenance == provenance }) {
        groups[index].fold(report)
      } else {
        var group = Accumulator()
        group.provenance = provenance
        group.fold(report)
        groups.append(group)
      }
    }

    /// A report per provenance.
    public var reports: [FleetReport] {
      var groups = groups.isEmpty ? [Accumulator()] : groups
      groups[0].fold(unattributed.report)
      return groups.map(\.report)
    }
  }
}
