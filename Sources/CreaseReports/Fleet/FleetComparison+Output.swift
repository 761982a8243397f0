import Crease
import CreaseIO

extension FleetComparison {
  /// The table every line format shares: per cue kind its verdict, each count and latency (ms,
  /// three decimals) of the base and the new run, and their change (%).
  public var table: TextTable {
    var header = ["cue", "verdict", "base count", "new count", "count change %"]
    for name in Self.latencyNames { header += ["base \(name) ms", "new \(name) ms", "\(name) change %"] }
    let cells = rows.map { row in
      var cells = [row.name, row.verdict.rawValue]
      // Counts as the integers they are: through a double, digits past 2⁵³ were lost.
      cells += Self.cells(row.base.map(\.count), row.new.map(\.count), as: { String($0) }, value: Double.init)
      for index in Self.latencyNames.indices {
        cells += Self.cells(
          row.base.map { Double($0.latencies[index].rawValue) / 1e6 },
          row.new.map { Double($0.latencies[index].rawValue) / 1e6 }, as: { String(fixed: $0, decimals: 3) },
          value: { $0 })
      }
      return cells
    }
    return TextTable(header: header, rows: cells, wordColumns: 2)
  }

  /// A figure of each run, written by `text`, and its change, from `value`.
  private static func cells<Figure>(
    _ base: Figure?, _ new: Figure?, as text: (Figure) -> String, value: (Figure) -> Double
  ) -> [String] {
    let change = base.flatMap { base in new.map { Self.change(value(base), value($0)) } }
    return [
      base.map(text) ?? "-",
      new.map(text) ?? "-",
      change.map { $0.isFinite ? (($0 >= 0 ? "+" : "") + String(fixed: $0 * 100, decimals: 1)) : "new" }
        ?? "-",
    ]
  }

  /// Aligned columns for people, with the verdict line last.
  public var text: String {
    let regressions = failures
    let percent = String(fixed: threshold * 100, decimals: 1)
    return "base: \(Provenance.describe(provenance.base))\nnew:  \(Provenance.describe(provenance.new))\n"
      + (changedSettings.map { "configuration changed: \($0.escapingControlCharacters)\n" } ?? "")
      + table.text
      + (worsened.isEmpty
        ? "" : "traces that got worse, worst first:\n" + worsened.map { "  \($0.description)\n" }.joined())
      + (regressions.isEmpty
        ? "compare: no cue kind regressed past \(percent) %\n"
        : "compare: REGRESSED past \(percent) %: \(regressions.joined(separator: ", ").escapingControlCharacters)\n")
  }

  /// The configuration changes on one line (`hinge.statusDebounceMs 50 → 80, …`); `nil` when
  /// both runs had the same configuration.
  public var changedSettings: String? {
    configurationChanges.isEmpty ? nil : configurationChanges.map(\.description).joined(separator: ", ")
  }

  /// The table as Markdown, after a line naming the configuration changes when there are any.
  public var markdown: String {
    (changedSettings.map { "Configuration changed: \($0.escapingControlCharacters)\n\n" } ?? "")
      + table.markdown
  }

  /// The comparison as JSON: the threshold, whether anything regressed, and per cue kind the
  /// verdict and each run's count and latencies in nanoseconds.
  public var json: JSONDocument {
    func figures(_ figures: Figures?) -> JSONDocument {
      .optional(figures) { figures in
        .object(
          [.init("count", .count(figures.count))]
            + zip(Self.latencyNames, figures.latencies).map { .init("\($0)Ns", .integer($1.rawValue)) })
      }
    }
    func made(_ provenance: Provenance?) -> JSONDocument { .optional(provenance) { .object($0.members) } }
    return .object([
      .init(
        "provenance", .object([.init("base", made(provenance.base)), .init("new", made(provenance.new))])),
      .init(
        "configurationChanges",
        .array(
          configurationChanges.map { change in
            .object([
              .init("key", .string(change.key)), .init("base", .optional(change.base) { .string($0) }),
              .init("new", .optional(change.new) { .string($0) }),
            ])
          })),
      .init("threshold", .decimal(threshold)),
      .init("worsenedTraces", .array(worsened.map { .string($0.description) })),
      .init("regressed", .bool(regressed)),
      .init(
        "cues",
        .array(
          rows.map { row in
            .object([
              .init("cue", .string(row.name)), .init("verdict", .string(row.verdict.rawValue)),
              .init("base", figures(row.base)), .init("new", figures(row.new)),
            ])
          })),
    ])
  }
}
