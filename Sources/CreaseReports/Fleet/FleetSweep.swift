import Crease
import CreaseIO

/// Reports of traces under several configurations side by side: `crease sweep` (per setting)
/// and `crease report --mixed` (per configuration). Per setting and cue kind the count and
/// p50, p90, p99 and largest latency, the table a tuner reads the trade-off between latency
/// and flicker from.
public struct FleetSweep: Sendable {
  /// Each setting's name (`key=value …`) and its report, in sweep order.
  public let settings: [(name: String, report: FleetReport)]
  /// What a setting is called in the table's first column: `setting` or `configuration`.
  public let label: String

  /// A sweep of `settings`, in the order given, each called a `label`.
  public init(settings: [(name: String, report: FleetReport)], label: String) {
    self.settings = settings
    self.label = label
  }

  /// A row per setting and cue kind; latencies in ms with three decimals.
  public var table: TextTable {
    let rows = settings.flatMap { setting in
      setting.report.kinds.keys.sorted().map { name in
        let figures = FleetComparison.Figures(setting.report.kinds[name]!)
        return [setting.name, name, String(figures.count)]
          + figures.latencies.map { String(fixed: Double($0.rawValue) / 1e6, decimals: 3) }
      }
    }
    return TextTable(
      header: [label, "cue", "count"] + FleetComparison.latencyNames.map { "\($0) ms" }, rows: rows,
      wordColumns: 2)
  }

  /// The sweep as JSON: per setting its name, its configuration and per cue kind the count
  /// and latencies in ns.
  public var json: JSONDocument {
    .object([
      .init("crease", .object([.init("version", .string(Provenance.creaseVersion))])),
      .init(
        "settings",
        // A setting at a time as it is written: a sweep's document is never held whole.
        .generated(
          .init(count: settings.count) { [settings] index in
            let setting = settings[index]
            return .object([
              .init("setting", .string(setting.name)),
              .init("configuration", .optional(setting.report.provenance, \.configurationJSON)),
              .init("traces", .count(setting.report.traces.count)),
              .init(
                "cues",
                .array(
                  setting.report.kinds.keys.sorted().map { name in
                    let figures = FleetComparison.Figures(setting.report.kinds[name]!)
                    return .object(
                      [.init("cue", .string(name)), .init("count", .count(figures.count))]
                        + zip(FleetComparison.latencyNames, figures.latencies).map {
                          .init("\($0)Ns", .integer($1.rawValue))
                        })
                  })),
            ])
          })),
    ])
  }
}
