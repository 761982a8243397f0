import Crease
import CreaseIO
import CreaseRecording

extension FleetReport {
  /// The report as `report.json` holds it (`Schemas/report.schema.json`): everything needed to
  /// merge it again, histograms included.
  public var json: JSONDocument {
    let totals = lines
    return .object(
      [.init("version", .count(Self.version))]
        + (provenance?.members ?? [.init("crease", .null), .init("configuration", .null)]) + [
          .init("traceCount", .count(traces.count)),
          .init("failed", .count(failed)),
          .init("total", Self.json(totals)),
          .init("cues", .array(kinds.keys.sorted().map { Self.json(kinds[$0]!) })),
          .init(
            "violations",
            .array(
              violations.map { violation in
                .object([
                  .init("trace", .string(violation.trace)), .init("cue", .string(violation.cue)),
                  .init("count", .count(violation.count)),
                ])
              })),
          .init("gaps", Self.json(gaps: gaps)),
          .init("stalls", .count(stalls)),
          .init("staleFrames", .count(staleFrames)),
          .init(
            "closestToBound",
            .array(closestToBound.map { .object([.init("trace", .string($0.name))] + $0.closest!.members) })),
          // A row at a time as it is written: a report over many summaries holds its rows, not
          // their documents.
          .init("traces", .generated(.init(count: traces.count) { [traces] in traces[$0].json })),
        ])
  }

  /// Reports of different provenance, kept apart (`crease report --mixed`): the layout's
  /// version and each report as ``json`` writes it.
  public static func json(mixed reports: [FleetReport]) -> JSONDocument {
    .object([.init("version", .count(version)), .init("reports", .array(reports.map(\.json)))])
  }

  private static func json(_ lines: Lines) -> JSONDocument {
    .object([
      .init("lines", .count(lines.lines)), .init("processed", .count(lines.processed)),
      .init("rejected", .count(lines.rejected)), .init("late", .count(lines.late)),
      .init("blank", .count(lines.blank)),
    ])
  }

  private static func json(gaps: [Int]) -> JSONDocument {
    .object(zip(GapCause.allCases, gaps).map { .init($0.rawValue, .count($1)) })
  }

  private static func json(_ kind: Kind) -> JSONDocument {
    .object(
      [
        .init("cue", .string(kind.name)), .init("stage", .string(kind.stage)),
        .init("traces", .count(kind.traces)),
      ]
        + kind.latencies.members(overBound: kind.overBound))
  }

  // MARK: Text

  /// The report for people, as `report.txt` holds it.
  public var text: String {
    let totals = lines
    var text = "Fleet report: \(traces.count) trace(s), \(failed) failed\n"
    if let provenance {
      text += "  made by \(Provenance.describe(provenance))\n"
    }
    text +=
      "  lines: \(totals.lines) read = \(totals.processed) processed + \(totals.rejected) rejected"
      + " + \(totals.late) late + \(totals.blank) blank\n"
    text += cueTable
    text +=
      violations.isEmpty
      ? "  bounds: every cue within its bound\n"
      : "  bounds: EXCEEDED, a defect of Crease, please report it:\n"
        + violations.map {
          "    \($0.trace.escapingControlCharacters): \($0.count) \($0.cue.escapingControlCharacters)\n"
        }.joined()
    text +=
      "  gaps: " + zip(GapCause.allCases, gaps).map { "\($1) \($0.rawValue)" }.joined(separator: ", ")
      + "; stalls: \(stalls); stale frames: \(staleFrames)\n"
    let closest = closestToBound
    if !closest.isEmpty {
      let stages = Self.rankedStages.map(\.name).joined(separator: ", ")
      text += "  closest to their bound (largest latency as a share of its bound; \(stages)):\n"
      text += Self.table(
        header: ["trace", "cue", "max ms", "bound ms", "of bound"],
        rows: closest.map { trace in
          let closest = trace.closest!
          return [
            trace.name, closest.cue, Self.milliseconds(closest.latency), Self.milliseconds(closest.bound),
            String(fixed: closest.share * 100, decimals: 1) + " %",
          ]
        },
        rightAligned: [2, 3, 4])
    }
    text += "  traces:\n"
    text += Self.table(
      header: ["trace", "lines", "rejected", "late", "end", "over bound", "gaps", "stalls"],
      rows: traces.map { trace in
        if let error = trace.error { return [trace.name, "failed: \(error)"] }
        return [
          trace.name, "\(trace.lines.lines)", "\(trace.lines.rejected)", "\(trace.lines.late)", trace.end,
          "\(trace.overBound)", "\(trace.gaps.reduce(0) { $0.addingSaturated($1) })", "\(trace.stalls)",
        ]
      }, rightAligned: [1, 2, 3, 5, 6, 7])
    return text
  }

  private var cueTable: String {
    guard !kinds.isEmpty else { return "  cues: none\n" }
    let rows = kinds.keys.sorted().map { name -> [String] in
      let kind = kinds[name]!
      return [name, "\(kind.traces)", "\(kind.latencies.count)"]
        + [50, 90, 99].map { Self.milliseconds(kind.latencies.percentile($0)) }
        + [Self.milliseconds(kind.latencies.maximum), kind.overBound > 0 ? "\(kind.overBound) OVER" : "0"]
    }
    return "  cues (latency t - since in ms, over all traces):\n"
      + Self.table(
        header: ["cue", "traces", "count", "p50", "p90", "p99", "max", "over bound"], rows: rows,
        rightAligned: [1, 2, 3, 4, 5, 6, 7])
  }

  /// Rows under a header, columns padded to their widest cell, indented by four spaces. A row
  /// shorter than the header (a failed trace) runs its last cell on. Names come from summaries:
  /// their control characters are shown as escapes, so each row stays one line.
  private static func table(header: [String], rows: [[String]], rightAligned: Set<Int>) -> String {
    let rows = rows.map { $0.map(\.escapingControlCharacters) }
    // Each cell's width counted once: counting characters walks the text.
    let counts = ([header] + rows.filter { $0.count == header.count }).map { $0.map(\.count) }
    let widths = header.indices.map { column in counts.map { $0[column] }.max()! }
    func line(_ cells: [String]) -> String {
      guard cells.count == header.count else { return "    " + cells.joined(separator: "  ") + "\n" }
      let padded = cells.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return rightAligned.contains(column) ? padding + cell : cell + padding
      }
      // Trailing spaces dropped from the end: rebuilding the line from its characters, reversed
      // twice, took most of a report's rendering time (callgrind).
      var line = "    " + padded.joined(separator: "  ")
      while line.last == " " { line.removeLast() }
      return line + "\n"
    }
    return line(header) + rows.map(line).joined()
  }

  private static func milliseconds(_ duration: Nanoseconds) -> String {
    var bytes: [UInt8] = []
    NumberFormatting.appendMilliseconds(duration.rawValue, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension FleetReport.Trace {
  /// The trace's row in `report.json`.
  var json: JSONDocument {
    .object([
      .init("name", .string(name)),
      .init("bytes", .optional(content) { .count($0.bytes) }),
      .init("digest", .optional(content) { .string($0.digest) }),
      .init("error", .optional(error, JSONDocument.string)),
      .init("lines", .count(lines.lines)),
      .init("processed", .count(lines.processed)),
      .init("rejected", .count(lines.rejected)),
      .init("late", .count(lines.late)),
      .init("blank", .count(lines.blank)),
      .init("end", .string(end)),
      .init("overBound", .count(overBound)),
      .init("gaps", .object(zip(GapCause.allCases, gaps).map { .init($0.rawValue, .count($1)) })),
      .init("stalls", .count(stalls)),
      .init(
        "stallBounds",
        .optional(stallBounds) {
          .object([
            .init("minNs", .integer($0.lowerBound.rawValue)),
            .init("maxNs", .integer($0.upperBound.rawValue)),
          ])
        }),
      .init("staleFrames", .count(staleFrames)),
      .init("closest", .optional(closest) { .object($0.members) }),
    ])
  }
}

extension FleetReport.Closest {
  /// The cue, its largest latency and its bound, in a report's rows and ranking.
  var members: [JSONDocument.Member] {
    [
      .init("cue", .string(cue)), .init("maxNs", .integer(latency.rawValue)),
      .init("boundNs", .integer(bound.rawValue)),
    ]
  }
}
