import Crease

extension FleetReport {
  /// Per cue kind the traces that had it, the count, p50, p90, p99 and largest latency (ms)
  /// and the cues over their bound: `report -f csv` and `-f markdown`.
  public var table: TextTable {
    let rows = kinds.keys.sorted().map { name in
      let kind = kinds[name]!
      let figures = FleetComparison.Figures(kind)
      return [name, kind.stage, String(kind.traces), String(figures.count)]
        + figures.latencies.map { String(fixed: Double($0.rawValue) / 1e6, decimals: 3) } + [
          String(kind.overBound)
        ]
    }
    return TextTable(
      header: ["cue", "stage", "traces", "count"] + FleetComparison.latencyNames.map { "\($0) ms" } + [
        "over bound"
      ],
      rows: rows, wordColumns: 2)
  }
}
