import Crease

/// What a replay read and wrote: every input line accounted for once, and every cue kind with
/// its count and largest latency.
public struct ReplaySummary: Hashable, Sendable {
  /// Line counts of one source.
  public struct LineCounts: Hashable, Sendable {
    public var name: String
    /// Lines read, blank ones included.
    public var lines = 0
    /// Events and headers taken in.
    public var processed = 0
    /// Bad input lines, reported and skipped.
    public var rejected = 0
    /// Events too far behind their source's latest `t`, written to the late output.
    public var late = 0
    /// Empty or whitespace-only lines, skipped as the format allows.
    public var blank = 0

    /// Whether every line landed in exactly one bucket.
    public var isBalanced: Bool { lines == processed + rejected + late + blank }
  }

  /// The cues of one kind.
  public struct CueStatistics: Hashable, Sendable {
    public var count = 0
    /// The largest `t - since` seen.
    public var maximumLatency = Nanoseconds.zero

    mutating func add(_ latency: Nanoseconds) {
      count += 1
      maximumLatency = max(maximumLatency, latency)
    }
  }

  public var sources: [LineCounts]
  /// Per cue kind, by name.
  public var cues: [String: CueStatistics] = [:]
  /// The latest `end` when every source had one; `nil` when the input ended by end of stream.
  public var endTime: Nanoseconds?
  /// Timers due after the end time, reported instead of fired.
  public var pendingTimers = 0
  /// Set when `--strict` stopped the replay at a bad or late line.
  public var stoppedEarly = false
  /// Frames delivered under a mirroring decision a later direction update revised, when known.
  public var staleFrames: Int?
  /// How late paced cues went out against their schedule (`--speed`).
  public var pacing: Pacer.Accuracy?

  /// All sources' counts added up.
  public var total: LineCounts {
    sources.reduce(into: LineCounts(name: "all")) { total, source in
      total.lines += source.lines
      total.processed += source.processed
      total.rejected += source.rejected
      total.late += source.late
      total.blank += source.blank
    }
  }

  mutating func record(_ cue: Cue) {
    cues[cue.kind.name, default: CueStatistics()].add(cue.latency)
  }

  /// The summary as `replay --summary` prints it, with each stage's latency bound under
  /// `configuration`.
  public func rendered(for configuration: Configuration) -> String {
    var text = "Summary\n  lines:\n"
    for source in sources + (sources.count > 1 ? [total] : []) {
      text +=
        "    \(source.name): \(source.lines) read = \(source.processed) processed + \(source.rejected) rejected"
        + " + \(source.late) late + \(source.blank) blank\n"
    }
    if stoppedEarly {
      text += "  end: stopped at the first bad or late line (--strict)\n"
    } else if let endTime {
      text += "  end: end event at t=\(endTime.rawValue); \(pendingTimers) timer(s) pending after it\n"
    } else {
      text += "  end: end of stream; pending timers fired, stall timers cancelled\n"
    }
    let window = Self.milliseconds(configuration.reorderWindow)
    text += "  latency bounds (t - since; emission adds the \(window) ms reorder window):\n"
    for bound in configuration.latencyBounds { text += "    \(bound.stage): \(Self.describe(bound))\n" }
    text += "  cues:\n"
    if cues.isEmpty { text += "    none\n" }
    let width = cues.keys.map(\.count).max() ?? 0
    for name in cues.keys.sorted() {
      let statistics = cues[name]!
      let padding = String(repeating: " ", count: width - name.count)
      text +=
        "    \(name)\(padding)  \(statistics.count) cue(s), max latency \(Self.milliseconds(statistics.maximumLatency)) ms"
      if let stage = configuration.latencyBound(forCue: name) {
        text += ", bound \(Self.describe(stage)) (\(stage.stage))"
      }
      text += "\n"
    }
    if let pacing {
      text +=
        "  pacing: \(pacing.lines) line(s) late by p50 \(Self.milliseconds(pacing.p50)) ms, "
        + "p99 \(Self.milliseconds(pacing.p99)) ms, max \(Self.milliseconds(pacing.maximum)) ms\n"
    }
    if let staleFrames {
      text += "  camera: \(staleFrames) frame(s) delivered under a stale mirroring decision\n"
    }
    return text
  }

  private static func describe(_ bound: LatencyBound) -> String {
    switch bound.limit {
    case .fixed(let duration): milliseconds(duration) + " ms"
    case .unbounded: "unbounded"
    case .frames(let factor):
      "\(factor) × nominal frame duration (\(milliseconds(bound.bound()!)) ms at 30 fps)"
    case .gapLength: "the gap's own length (camera.stall bounds the wait)"
    }
  }

  private static func milliseconds(_ duration: Nanoseconds) -> String {
    var bytes: [UInt8] = []
    NumberFormatting.appendMilliseconds(duration.rawValue, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
