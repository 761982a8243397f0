import Crease
import CreaseRecording

/// What a replay read and wrote: every input line accounted for once, and every cue kind with
/// its latency distribution and the cues that broke their bound.
public struct ReplaySummary: Hashable, Sendable {
  /// Line counts of one source.
  public struct LineCounts: Hashable, Sendable {
    /// The source's name.
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
    /// The source's size and content digest, when they were taken (``DigestingSource``).
    public var content: TraceContent?

    /// Whether every line landed in exactly one bucket.
    public var isBalanced: Bool { lines == processed + rejected + late + blank }

    /// Counts `count` lines, each with `outcome`.
    mutating func add(_ count: Int, _ outcome: LineOutcome) {
      lines += count
      switch outcome {
      case .processed: processed += count
      case .rejected: rejected += count
      case .late: late += count
      case .blank: blank += count
      }
    }
  }

  /// What became of a line: the bucket ``LineCounts`` counts it in.
  enum LineOutcome {
    case processed, rejected, late, blank
  }

  /// The cues of one kind.
  public struct CueStatistics: Hashable, Sendable {
    /// The cue kind's name.
    public var name: String
    /// The stage whose bound covers the kind.
    public var stage: LatencyStage
    /// Their latencies (`t - since`).
    public var latencies = LatencyHistogram()
    /// Cues whose latency exceeded the bound that applied to them (a defect of Crease).
    public var overBound = 0

    /// Cues of the kind.
    public var count: Int { latencies.count }

    mutating func add(_ latency: Nanoseconds, bound: Nanoseconds?) {
      latencies.add(latency)
      if let bound, latency > bound { overBound += 1 }
    }
  }

  /// Each source's line counts, in command-line order.
  public var sources: [LineCounts]
  /// Per cue kind, by its ordinal (a table: no hashing per cue), with its name.
  private var cueTable = [CueStatistics?](repeating: nil, count: CueKind.Tag.allCases.count)
  /// A bit per kind seen (``CueKind/Tag/rawValue``): 64 kinds at most, which a test checks.
  private var kindsSeen: UInt64 = 0

  /// Per cue kind that occurred, by name.
  public var cues: [String: CueStatistics] {
    Dictionary(uniqueKeysWithValues: cueTable.compactMap { $0.map { ($0.name, $0) } })
  }
  /// The latest `end` when every source had one; `nil` when the input ended by end of stream.
  public var endTime: Nanoseconds?
  /// Timers due after the end time, reported instead of fired.
  public var pendingTimers = 0
  /// Events processed before their turn because the reorder buffer reached its limit.
  public var releasedEarly = 0
  /// Set when `--strict` stopped the replay at a bad or late line.
  public var stoppedEarly = false
  /// Set when a stop signal (SIGINT, SIGTERM, SIGHUP) ended the replay: the counts are what was
  /// read before it.
  public var stoppedBySignal = false
  /// Frames delivered under a mirroring decision a later direction update revised, when known.
  public var staleFrames: Int?
  /// Frames, drops and inputs of streams past the camera stage's `StreamBudget`,
  /// counted instead of tracked, when known.
  public var untrackedStreamEvents: Int?
  /// How late paced cues went out against their schedule (`--speed`).
  public var pacing: Pacer.Accuracy?
  /// How long the replay took on this machine, when measured (`--timing`).
  public var timing: ReplayTiming?
  /// `camera.gap` cues by cause (gaps are rare: a dictionary costs nothing per event).
  public private(set) var gapsByCause: [GapCause: Int] = [:]
  /// Per stream that stalled, the least and greatest bound its `camera.stall` cues were judged
  /// against: `stallFactor` times the stream's own nominal frame duration then (SPEC 5), so a
  /// 60 fps stream's bound is half a 30 fps one's.
  public private(set) var stallBounds: [StreamName: ClosedRange<Nanoseconds>] = [:]

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

  /// The cue kinds with a cue over its bound.
  public var kindsOverBound: [String] { cues.keys.sorted().filter { cues[$0]!.overBound > 0 } }

  /// A summary of sources that have read nothing yet.
  public init(sources: [LineCounts]) { self.sources = sources }

  /// Takes the cue statistics and pacing of `other`, which recorded the cues this summary did
  /// not (a ``CueSink``'s).
  mutating func takeCues(of other: ReplaySummary) {
    (cueTable, kindsSeen, gapsByCause, stallBounds, pacing) = (
      other.cueTable, other.kindsSeen, other.gapsByCause, other.stallBounds, other.pacing
    )
  }

  /// Counts `cue`, judged against `bound` (`nil`: no bound applies).
  // Inlined into the replay's cue writing. Tuning: hot-inline.
  @inline(__always)
  public mutating func record(_ cue: Cue, bound: Nanoseconds?) {
    let slot = cue.kind.tag.rawValue
    // A bit per kind seen: testing the table's optional for nil copied the statistics out.
    if kindsSeen & (1 << slot) == 0 {
      kindsSeen |= 1 << slot
      cueTable[slot] = CueStatistics(name: cue.kind.name, stage: cue.kind.latencyStage)
    }
    cueTable[slot]!.add(cue.latency, bound: bound)
    // The two kinds counted apart are neighbours in `Tag`: one compare for every cue (a switch
    // over the kind here cost 2 instructions an event, a bit test 4 on binary input).
    if UInt(bitPattern: slot &- CueKind.Tag.cameraGap.rawValue) <= 1 { countApart(cue, bound: bound) }
  }

  /// Counts a gap by its cause, and widens a stalled stream's range of bounds to take `bound`.
  /// - Precondition: `cue` is a `camera.gap` or a `camera.stall`.
  private mutating func countApart(_ cue: borrowing Cue, bound: Nanoseconds?) {
    switch cue.kind {
    case .cameraGap(_, _, _, _, let cause, _):
      gapsByCause[cause, default: 0] += 1
    case .cameraStall(let stream):
      guard let bound else { return }
      let known = stallBounds[stream] ?? bound...bound
      stallBounds[stream] = min(known.lowerBound, bound)...max(known.upperBound, bound)
    default:
      break
    }
  }

  /// The summary as `replay --summary` prints it, with each stage's latency bound under
  /// `configuration`.
  public func rendered(for configuration: Configuration) -> String {
    let provenance = Provenance(configuration: configuration)
    var text = "Summary\n  made by \(Provenance.describe(provenance))\n  lines:\n"
    for source in sources + (sources.count > 1 ? [total] : []) {
      text +=
        "    \(source.name): \(source.lines) read = \(source.processed) processed + \(source.rejected) rejected"
        + " + \(source.late) late + \(source.blank) blank"
        + (source.content.map { " (\($0.bytes) bytes, \($0.digest))" } ?? "") + "\n"
    }
    if stoppedEarly {
      text += "  end: stopped at the first bad or late line (--strict)\n"
    } else if stoppedBySignal {
      text += "  end: stopped by a signal; the counts are what was read before it\n"
    } else if let endTime {
      text += "  end: end event at t=\(endTime.rawValue); \(pendingTimers) timer(s) pending after it\n"
    } else {
      text += "  end: end of stream; pending timers fired, stall timers cancelled\n"
    }
    if releasedEarly > 0 {
      text +=
        "  reorder buffer: \(releasedEarly) event(s) released early at its limit of"
        + " \(configuration.reorderBufferLimit) events (reorderBufferLimit) or"
        + " \(configuration.reorderBufferBytes) bytes of text (reorderBufferBytes)\n"
    }
    let window = Self.milliseconds(configuration.reorderWindow)
    text += "  latency bounds (t - since; emission adds the \(window) ms reorder window):\n"
    for bound in configuration.latencyBounds { text += "    \(bound.stage.name): \(describe(bound))\n" }
    text += cueTable(configuration)
    if let pacing {
      text +=
        "  pacing: \(pacing.lines) line(s) late by p50 \(Self.milliseconds(pacing.p50)) ms, "
        + "p99 \(Self.milliseconds(pacing.p99)) ms, max \(Self.milliseconds(pacing.maximum)) ms\n"
    }
    if let timing { text += timing.text }
    if let staleFrames {
      text += "  camera: \(staleFrames) frame(s) delivered under a stale mirroring decision\n"
    }
    if let untrackedStreamEvents, untrackedStreamEvents > 0 {
      text +=
        "  camera: \(untrackedStreamEvents) event(s) of streams past the limit of"
        + " \(StreamBudget.description) not tracked\n"
    }
    let over = kindsOverBound
    text +=
      over.isEmpty
      ? "  bounds: every cue within its bound\n"
      : "  bounds: EXCEEDED by \(over.map { "\(cues[$0]!.overBound) \($0)" }.joined(separator: ", "))"
        + " cue(s): a defect of Crease, please report it\n"
    return text
  }

  /// Count and latency percentiles per cue kind, in milliseconds, with the stage's bound and a
  /// mark on every kind with a cue over it.
  private func cueTable(_ configuration: Configuration) -> String {
    guard !cues.isEmpty else { return "  cues: none\n" }
    let names = cues.keys.sorted()
    let nameWidth = max(names.map(\.count).max()!, "cue".count)
    let rows = names.map { name -> [String] in
      let latencies = cues[name]!.latencies
      return [name, "\(latencies.count)"]
        + [50, 90, 99].map { Self.milliseconds(latencies.percentile($0)) } + [
          Self.milliseconds(latencies.maximum)
        ]
    }
    let header = ["cue", "count", "p50", "p90", "p99", "max"]
    let widths = (0..<header.count).map { column in
      column == 0 ? nameWidth : (rows.map { $0[column].count } + [header[column].count]).max()!
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column == 0 ? cell + padding : padding + cell
      }.joined(separator: "  ")
    }
    var text = "  cues (latency t - since in ms):\n    " + line(header) + "  bound\n"
    for (name, row) in zip(names, rows) {
      let statistics = cues[name]!
      text += "    " + line(row)
      text +=
        "  \(describe(configuration.latencyBound(for: statistics.stage))) (\(statistics.stage.name))"
      if statistics.overBound > 0 { text += "  <- \(statistics.overBound) OVER THE BOUND" }
      text += "\n"
    }
    return text
  }

  /// A bound as the summary states it; one in frames with what it came to for each stream that
  /// stalled (at 30 fps when none did), or past a few streams their range, so a trace of many
  /// streams keeps the line short (the JSON lists every stream).
  private func describe(_ bound: LatencyBound) -> String {
    switch bound.limit {
    case .fixed(let duration): return Self.milliseconds(duration) + " ms"
    case .unbounded: return "unbounded"
    case .frames(let factor):
      let applied: String
      if stallBounds.isEmpty {
        applied = "\(Self.milliseconds(bound.bound()!)) ms at 30 fps"
      } else if stallBounds.count > Self.streamsNamed {
        let least = stallBounds.values.map(\.lowerBound).min()!
        let greatest = stallBounds.values.map(\.upperBound).max()!
        applied = "\(stallBounds.count) streams: \(Self.milliseconds(least...greatest))"
      } else {
        applied = stallBounds.keys.sorted { $0.rawValue < $1.rawValue }.map { stream in
          "\(stream.rawValue.escapingControlCharacters): \(Self.milliseconds(stallBounds[stream]!))"
        }.joined(separator: ", ")
      }
      return "\(factor) × nominal frame duration (\(applied))"
    case .gapLength: return "the gap's own length (camera.stall bounds the wait)"
    }
  }

  /// The most streams whose stall bound the text names one by one.
  private static let streamsNamed = 4

  /// A range of durations in milliseconds: one number when it is one.
  private static func milliseconds(_ range: ClosedRange<Nanoseconds>) -> String {
    range.lowerBound == range.upperBound
      ? milliseconds(range.lowerBound) + " ms"
      : milliseconds(range.lowerBound) + " to " + milliseconds(range.upperBound) + " ms"
  }

  private static func milliseconds(_ duration: Nanoseconds) -> String {
    var bytes: [UInt8] = []
    NumberFormatting.appendMilliseconds(duration.rawValue, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
