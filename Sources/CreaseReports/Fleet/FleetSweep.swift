import Crease
import CreaseIO

/// Reports of traces under several configurations side by side: `crease sweep` (per setting)
/// and `crease report --mixed` (per configuration). Per setting and cue kind the count and
/// p50, p90, p99 and largest latency, the table a tuner reads the trade-off between latency
/// and flicker from.
public struct FleetSweep: Sendable {
  /// What the sweep shows of one setting: per cue kind its figures, and what it was made
  /// under; a setting's rows and summaries are let go once it is folded.
  public struct Setting: Sendable {
    /// One cue kind under the setting.
    public struct Cue: Sendable {
      /// The cue kind's name, such as `hinge.status`.
      public var name: String
      /// The name of the stage whose bound covers the kind.
      public var stage: String
      /// Its count and latency percentiles over every trace.
      public var figures: FleetComparison.Figures
      /// Its latencies over every trace, where the setting was made keeping them (a page draws
      /// them); `nil` otherwise, since they were most of what a setting of a sweep held.
      public var latencies: LatencyHistogram?

      /// The latencies, which a page of the sweep needs kept.
      var keptLatencies: LatencyHistogram {
        guard let latencies else {
          preconditionFailure("a page of a sweep needs its settings made keeping latencies")
        }
        return latencies
      }
    }

    /// The setting's name: `key=value …`, or a configuration's description.
    public var name: String
    /// How many traces were replayed under it.
    public var traces: Int
    /// Per cue kind, by name.
    public var cues: [Cue]
    /// The least and greatest bound the setting's stalls were judged against, if any stalled.
    public var stallBounds: ClosedRange<Nanoseconds>?
    private let madeUnder: MadeUnder

    /// What a setting's replays were made under, as it is kept.
    private enum MadeUnder: Sendable {
      /// As the summaries recorded it: `report --mixed` keeps what each file says.
      case recorded(Provenance?)
      /// This build under a configuration: a sweep keeps the configuration's numbers and writes
      /// its file when the sweep is written, since the file as a JSON tree was most of what a
      /// setting held (about 3 KB).
      case configured(Configuration)
    }

    /// The setting `name` with the figures and latencies of `report`, and its recorded
    /// provenance.
    public init(name: String, report: FleetReport) {
      self.init(name: name, report: report, madeUnder: .recorded(report.provenance), keepingLatencies: true)
    }

    /// The setting `name` with the figures of `report`, and its latencies where
    /// `keepingLatencies`, made by this build under `configuration`; as a report of failed
    /// traces alone, made under none, where `report` has no provenance.
    public init(name: String, report: FleetReport, configuration: Configuration, keepingLatencies: Bool) {
      self.init(
        name: name, report: report,
        madeUnder: report.provenance == nil ? .recorded(nil) : .configured(configuration),
        keepingLatencies: keepingLatencies)
    }

    private init(name: String, report: FleetReport, madeUnder: MadeUnder, keepingLatencies: Bool) {
      self.name = name
      traces = report.traces.count
      cues = report.kinds.values.sorted { $0.name < $1.name }.map { kind in
        Cue(
          name: kind.name, stage: kind.stage, figures: FleetComparison.Figures(kind),
          latencies: keepingLatencies ? kind.latencies : nil)
      }
      stallBounds = report.stallBounds
      self.madeUnder = madeUnder
    }

    /// The cue kind called `name`, if the setting had any of its cues.
    /// - Complexity: O(*k*) in the setting's cue kinds, a handful.
    public func cue(_ name: String) -> Cue? { cues.first { $0.name == name } }

    /// The crease version and configuration the setting was made under; `nil` when every
    /// trace failed.
    public var provenance: Provenance? {
      switch madeUnder {
      case .recorded(let provenance): provenance
      case .configured(let configuration): Provenance(configuration: configuration)
      }
    }

    /// The configuration itself, where it can be read: the stages' bounds a chart marks.
    public var configuration: Configuration? {
      switch madeUnder {
      case .recorded(let provenance): try? provenance?.parsedConfiguration()
      case .configured(let configuration): configuration
      }
    }
  }

  /// Each setting, in sweep order.
  public let settings: [Setting]
  /// What a setting is called in the table's first column: `setting` or `configuration`.
  public let label: String

  /// A sweep of `settings`, in the order given, each called a `label`.
  public init(settings: [Setting], label: String) {
    self.settings = settings
    self.label = label
  }

  /// A row per setting and cue kind; latencies in ms with three decimals.
  public var table: TextTable {
    let rows = settings.flatMap { setting in
      setting.cues.map { cue in
        [setting.name, cue.name, String(cue.figures.count)]
          + cue.figures.latencies.map { String(fixed: Double($0.rawValue) / 1e6, decimals: 3) }
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
              .init("configuration", .optional(setting.provenance, \.configurationJSON)),
              .init("traces", .count(setting.traces)),
              .init(
                "cues",
                .array(
                  setting.cues.map { cue in
                    .object(
                      [.init("cue", .string(cue.name)), .init("count", .count(cue.figures.count))]
                        + zip(FleetComparison.latencyNames, cue.figures.latencies).map {
                          .init("\($0)Ns", .integer($1.rawValue))
                        })
                  })),
            ])
          })),
    ])
  }
}
