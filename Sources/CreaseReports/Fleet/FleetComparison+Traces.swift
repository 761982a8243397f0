import Crease
import CreaseIO

extension FleetComparison {
  /// A trace both runs replayed that got worse: more cues over their bound, gaps, stalls or
  /// stale frames, or its kind closest to a bound came closer by more than the threshold.
  public struct TraceChange: Sendable {
    /// The trace's name in the new run.
    public var name: String
    /// Its row in the base run.
    public var base: FleetReport.Trace
    /// Its row in the new run.
    public var new: FleetReport.Trace

    /// The trace and each figure that grew, as `gaps 1 → 3`: cues over bound, gaps, stalls,
    /// stale frames, then the step its closest kind took toward its bound.
    public var description: String {
      var parts: [String] = []
      for (label, before, after) in counts where after > before {
        parts.append("\(label) \(before) → \(after)")
      }
      if let closest = new.closest, closerShare > 0 {
        let before = base.closest.map { String(fixed: $0.share * 100, decimals: 1) + " %" } ?? "-"
        parts.append(
          "closest to its bound \(closest.cue) \(before) → \(String(fixed: closest.share * 100, decimals: 1)) %"
        )
      }
      return "\(name.escapingControlCharacters): " + parts.joined(separator: ", ")
    }

    /// The counted figures of both rows: cues over their bound, gaps, stalls, stale frames.
    var counts: [(String, Int, Int)] {
      [
        ("over bound", base.overBound, new.overBound),
        ("gaps", base.gaps.reduce(0, +), new.gaps.reduce(0, +)),
        ("stalls", base.stalls, new.stalls), ("stale frames", base.staleFrames, new.staleFrames),
      ]
    }

    /// How much closer to its bound the closest kind came, as a share of the bound.
    var closerShare: Double { (new.closest?.share ?? 0) - (base.closest?.share ?? 0) }

    /// Whether this trace got worse than `other`: more figures grown past their base (the
    /// counts first, in their order), then a larger step toward a bound, then by name.
    func worseThan(_ other: TraceChange) -> Bool {
      let mine = counts.map { $2 - $1 }
      let theirs = other.counts.map { $2 - $1 }
      if mine != theirs { return mine.lexicographicallyPrecedes(theirs, by: >) }
      if closerShare != other.closerShare { return closerShare > other.closerShare }
      return name < other.name
    }
  }

  /// The most traces ``worsenedTraces(_:_:threshold:)`` names.
  public static let mostTracesNamed = 10

  /// The traces both runs replayed that got worse, worst first, at most ``mostTracesNamed``:
  /// a figure a person counts grew, or the closest kind came nearer its bound by more than
  /// `threshold` of it. Traces are matched as ``unmatchedTraces(_:_:)`` matches them; a name
  /// that more than one row shares on either side is left out.
  /// - Complexity: O(*t* log *t*) in the traces.
  public static func worsenedTraces(_ base: FleetReport, _ new: FleetReport, threshold: Double)
    -> [TraceChange]
  {
    func identity(_ trace: FleetReport.Trace) -> String { trace.content?.digest ?? "name " + trace.name }
    let before = Dictionary(grouping: base.traces.filter { $0.error == nil }, by: identity)
    var changes: [TraceChange] = []
    for (key, rows) in Dictionary(grouping: new.traces.filter { $0.error == nil }, by: identity) {
      guard rows.count == 1, let match = before[key], match.count == 1 else { continue }
      let change = TraceChange(name: rows[0].name, base: match[0], new: rows[0])
      if change.counts.contains(where: { $2 > $1 }) || change.closerShare > threshold {
        changes.append(change)
      }
    }
    return Array(changes.sorted { $0.worseThan($1) }.prefix(mostTracesNamed))
  }
}
