import Crease

extension ReplaySummary {
  /// The version of the summary file's layout (`Schemas/summary.schema.json`).
  public static let jsonVersion = 2

  /// The summary as `replay --summary-json` writes it: what made it (``Provenance``), then
  /// everything `--summary` prints, in nanoseconds, plus each cue kind's latency histogram so
  /// summaries merge exactly, and each stalled stream's bound (`stallBounds`).
  ///
  /// Histogram buckets are `[index, count, largest latency]` triples of ``LatencyHistogram``'s
  /// log-linear buckets, in ascending order.
  public func json(for configuration: Configuration) -> JSONDocument {
    .object(
      [.init("version", .count(Self.jsonVersion))] + Provenance(configuration: configuration).members + [
        .init("sources", .array(sources.map { Self.json($0, isSource: true) })),
        .init("total", Self.json(total, isSource: false)),
        .init("end", endJSON),
        .init(
          "reorder",
          .object([
            .init("windowNs", .integer(configuration.reorderWindow.rawValue)),
            .init("bufferLimit", .count(configuration.reorderBufferLimit)),
            .init("bufferBytes", .count(configuration.reorderBufferBytes)),
            .init("releasedEarly", .count(releasedEarly)),
          ])),
        .init("bounds", .array(configuration.latencyBounds.map(Self.json))),
        .init("cues", .array(cues.keys.sorted().map { name in Self.json(cues[name]!) })),
        .init(
          "gaps", .object(GapCause.allCases.map { .init($0.rawValue, .count(gapsByCause[$0] ?? 0)) })),
        .init(
          "stallBounds",
          .array(
            stallBounds.keys.sorted { $0.rawValue < $1.rawValue }.map { stream in
              .object([
                .init("stream", .string(stream.rawValue)),
                .init("minNs", .integer(stallBounds[stream]!.lowerBound.rawValue)),
                .init("maxNs", .integer(stallBounds[stream]!.upperBound.rawValue)),
              ])
            })),
        .init("staleFrames", .optional(staleFrames, JSONDocument.count)),
        .init("untrackedStreamEvents", .optional(untrackedStreamEvents, JSONDocument.count)),
        .init(
          "pacing",
          .optional(pacing) { pacing in
            .object([
              .init("lines", .count(pacing.lines)),
              .init("p50Ns", .integer(pacing.p50.rawValue)),
              .init("p99Ns", .integer(pacing.p99.rawValue)),
              .init("maxNs", .integer(pacing.maximum.rawValue)),
            ])
          }),
        .init("timing", .optional(timing, \.json)),
      ])
  }

  /// How the replay ended: `endEvent` (every source had an `end`), `endOfStream`, `strict`, or
  /// `signal`.
  private var endJSON: JSONDocument {
    let rule =
      stoppedEarly ? "strict" : stoppedBySignal ? "signal" : endTime == nil ? "endOfStream" : "endEvent"
    return .object([
      .init("rule", .string(rule)),
      .init("t", .optional(endTime) { .integer($0.rawValue) }),
      .init("pendingTimers", .count(pendingTimers)),
    ])
  }

  /// A source's line counts, its size and digest first; or the total's, which has neither.
  private static func json(_ counts: LineCounts, isSource: Bool) -> JSONDocument {
    let content: [JSONDocument.Member] =
      isSource
      ? [
        .init("bytes", .optional(counts.content) { .count($0.bytes) }),
        .init("digest", .optional(counts.content) { .string($0.digest) }),
      ] : []
    return .object(
      [.init("name", .string(counts.name))] + content + [
        .init("lines", .count(counts.lines)),
        .init("processed", .count(counts.processed)),
        .init("rejected", .count(counts.rejected)),
        .init("late", .count(counts.late)),
        .init("blank", .count(counts.blank)),
      ])
  }

  private static func json(_ bound: LatencyBound) -> JSONDocument {
    let limit: (name: String, value: JSONDocument) =
      switch bound.limit {
      case .fixed(let duration): ("fixed", .integer(duration.rawValue))
      case .unbounded: ("unbounded", .null)
      case .frames(let factor): ("frames", .decimal(factor))
      case .gapLength: ("gapLength", .null)
      }
    return .object([
      .init("stage", .string(bound.stage.name)),
      .init("limit", .string(limit.name)),
      .init(limit.name == "frames" ? "frames" : "ns", limit.value),
      .init("basis", .string(bound.basis)),
    ])
  }

  private static func json(_ statistics: CueStatistics) -> JSONDocument {
    .object(
      [.init("cue", .string(statistics.name)), .init("stage", .string(statistics.stage.name))]
        + statistics.latencies.members(overBound: statistics.overBound))
  }
}
