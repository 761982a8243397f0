import Crease
import CreaseIO
import CreaseLocking
import CreaseReports

/// A sweep's settings as their replays come in: a setting is configured when its first replay
/// starts, its reports are folded as they finish, and once its last trace is in it is cut down
/// to what the sweep shows of it (``FleetSweep/Setting``), its rows and configuration file let go.
///
/// Pieces of work are taken in order, so only the settings the workers are on are open at a
/// time: a sweep of 10,000 settings holds a few accumulators, not 10,000.
struct SweepProgress {
  /// A setting whose replays have started and not all finished.
  private struct Open {
    var configuration: Configuration
    var reports: Locked<FleetReport.Accumulator>
    /// Its traces not yet folded in.
    var remaining: Int
  }

  private let tracesEach: Int
  /// Whether a finished setting keeps its latencies, as a page needs them.
  private let keepingLatencies: Bool
  private let configure: (Int) -> Configuration
  private var open: [Int: Open] = [:]
  private var settings: [FleetSweep.Setting?]

  /// The progress of `count` settings, each replayed over `tracesEach` traces (at least one),
  /// the configuration of the setting at an index made by `configure`; each finished setting
  /// keeps its latencies where `keepingLatencies`.
  init(
    settings count: Int, tracesEach: Int, keepingLatencies: Bool, configure: @escaping (Int) -> Configuration
  ) {
    precondition(tracesEach > 0, "a sweep replays at least one trace")
    self.tracesEach = tracesEach
    self.keepingLatencies = keepingLatencies
    self.configure = configure
    settings = Array(repeating: nil, count: count)
  }

  /// The configuration of the setting at `index` and the accumulator its reports fold into,
  /// as a replay under it starts.
  mutating func start(_ index: Int) -> (Configuration, Locked<FleetReport.Accumulator>) {
    if let setting = open[index] { return (setting.configuration, setting.reports) }
    let setting = Open(configuration: configure(index), reports: Locked(.init()), remaining: tracesEach)
    open[index] = setting
    return (setting.configuration, setting.reports)
  }

  /// Notes that a replay under the setting at `index` has been folded in; after its last, the
  /// setting is cut down to its figures, called `name`.
  mutating func finish(_ index: Int, name: @autoclosure () -> String) {
    open[index]!.remaining -= 1
    guard open[index]!.remaining == 0, let setting = open.removeValue(forKey: index) else { return }
    let report = setting.reports.withLock { $0.takeReport() }
    settings[index] = FleetSweep.Setting(
      name: name(), report: report, configuration: setting.configuration, keepingLatencies: keepingLatencies)
  }

  /// Every setting, in sweep order, once all their replays are in.
  var finished: [FleetSweep.Setting] {
    settings.map { setting in
      guard let setting else { preconditionFailure("a setting's replays were not all folded in") }
      return setting
    }
  }
}
