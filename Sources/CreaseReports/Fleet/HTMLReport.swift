import Crease
import CreaseIO

/// The reports for people as one self-contained HTML page (`--html FILE` of `report`,
/// `compare` and `sweep`): tables with the same cells as `-f csv`, and a chart per cue kind as
/// inline SVG. Everything is inline (no script, no font, no request), so the page opens offline
/// and can be attached to a pull request or a CI run.
public enum HTMLReport {
  /// A fleet report: per cue kind its latency distribution (a cumulative curve) with its bound,
  /// the per-kind table, and the traces closest to their bound.
  public static func page(_ report: FleetReport) -> String {
    let bounds = Bounds(report)
    var body = "<h1>Crease fleet report</h1>\n"
    body += paragraph(
      "\(report.traces.count) trace(s), \(report.failed) failed; made by \(Provenance.describe(report.provenance))."
    )
    body += "<h2>Cue latency (t − since)</h2>\n" + report.table.html(id: "kinds")
    body += charts(
      report.kinds.keys.sorted().map { name in
        (name, [(name, report.kinds[name]!.latencies)], bounds.markers(for: report.kinds[name]!.stage), false)
      })
    let closest = report.closestToBound
    if !closest.isEmpty {
      let table = TextTable(
        header: ["trace", "cue", "max ms", "bound ms", "of bound %"],
        rows: closest.map { trace in
          let closest = trace.closest!
          return [
            trace.name, closest.cue, milliseconds(closest.latency), milliseconds(closest.bound),
            String(fixed: closest.share * 100, decimals: 1),
          ]
        }, wordColumns: 2)
      body += "<h2>Closest to their bound</h2>\n" + table.html(id: "closest")
    }
    return page(title: "Crease fleet report", body: body)
  }

  /// A comparison: the table with each row marked by its verdict, and per cue kind the two
  /// runs' latency distributions over each other.
  public static func page(_ comparison: FleetComparison, base: FleetReport, new: FleetReport) -> String {
    let (bounds, baseBounds) = (Bounds(new), Bounds(base))
    let regressed = comparison.failures
    var body = "<h1>Crease comparison</h1>\n"
    body += paragraph("Base: \(Provenance.describe(comparison.provenance.base)).")
    body += paragraph("New: \(Provenance.describe(comparison.provenance.new)).")
    if let changes = comparison.changedSettings { body += paragraph("Configuration changed: \(changes).") }
    let percent = String(fixed: comparison.threshold * 100, decimals: 1)
    body +=
      regressed.isEmpty
      ? "<p class=\"verdict unchanged\">No cue kind regressed past \(percent) %.</p>\n"
      : "<p class=\"verdict regressed\">Regressed past \(percent) %: \(HTMLText.escaped(regressed.joined(separator: ", "))).</p>\n"
    if !comparison.worsened.isEmpty {
      body +=
        "<p>Traces that got worse, worst first:</p>\n<ul>\n"
        + comparison.worsened.map { "<li>\(HTMLText.escaped($0.description))</li>\n" }.joined() + "</ul>\n"
    }
    body +=
      "<div class=\"wide\">"
      + comparison.table.html(
        id: "comparison",
        rowClasses: comparison.rows.map { comparison.fails($0) ? "regressed" : $0.verdict.rawValue })
      + "</div>\n"
    // The kinds that failed the gate first, each marked on its chart; the base's bound beside
    // the new one where the configuration moved it.
    let rows = comparison.rows.filter(comparison.fails) + comparison.rows.filter { !comparison.fails($0) }
    body += charts(
      rows.map { row in
        let runs = [("base", base.kinds[row.name]), ("new", new.kinds[row.name])]
        let kind = new.kinds[row.name] ?? base.kinds[row.name]!
        let newMarkers = bounds.markers(for: kind.stage)
        let baseMarkers = baseBounds.markers(for: kind.stage).filter { base in
          !newMarkers.contains { $0.x == base.x }
        }.map { (x: $0.x, label: "base " + $0.label) }
        return (
          row.name, runs.compactMap { name, kind in kind.map { (name, $0.latencies) } },
          newMarkers + baseMarkers, comparison.fails(row)
        )
      })
    return page(title: "Crease comparison", body: body)
  }

  /// A sweep (or a report of several configurations): the table, and per cue kind the
  /// trade-off between its count and its p99 latency, a point per setting, with the settings'
  /// distributions below. Its settings must have been made keeping their latencies.
  public static func page(_ sweep: FleetSweep) -> String {
    let names = Array(Set(sweep.settings.flatMap { $0.cues.map(\.name) })).sorted()
    var body = "<h1>Crease sweep</h1>\n"
    body += paragraph(
      "\(sweep.settings.count) \(sweep.label)(s) over \(sweep.settings.first?.traces ?? 0) trace(s); "
        + "points are labelled "
        + sweep.settings.map { "\(pointLabel($0.name, in: sweep)) = \($0.name)" }
        .joined(separator: "; ") + ".")
    // A trade-off only where the settings changed something: a flat line tells nothing.
    let varying = names.filter { name in
      Set(sweep.settings.map { $0.cue(name)?.figures }).count > 1
    }
    body += "<h2>Trade-off: p99 latency against count</h2>\n"
    body +=
      varying.isEmpty
      ? paragraph("No cue kind's count or latency changed between the \(sweep.label)s.")
      : "<div class=\"charts\">\n"
        + varying.map { name in
          let present = sweep.settings.filter { $0.cue(name) != nil }
          let points = present.map { setting in
            let figures = setting.cue(name)!.figures
            return (x: Double(figures.count), y: Double(figures.latencies[2].rawValue) / 1e6)
          }
          let series = SVGChart.Series(
            name: name, points: points, labels: present.map { pointLabel($0.name, in: sweep) }, steps: false)
          let chart = SVGChart(
            title: "\(name): p99 against count", xLabel: "cues (count)", yLabel: "p99 latency (ms)",
            series: [series], xFromZero: false, xIsWhole: true)
          return figure(chart, cue: name, kind: "tradeoff")
        }.joined() + "</div>\n"
    body += "<h2>Latency distributions</h2>\n"
    body += charts(
      names.map { name in
        let stage = sweep.settings.lazy.compactMap { $0.cue(name)?.stage }.first!
        return (
          name,
          sweep.settings.compactMap { setting in
            setting.cue(name).map { (pointLabel(setting.name, in: sweep), $0.keptLatencies) }
          },
          sweepMarkers(sweep, stage: stage), false
        )
      })
    body += "<h2>Every figure</h2>\n" + sweep.table.html(id: "sweep")
    return page(title: "Crease sweep", body: body)
  }

  /// The most bound lines a sweep's chart draws one by one; past it, the least and the greatest.
  private static let boundLinesDrawn = 6

  /// Each setting's bound on a sweep's chart: settings that share one share its line, labelled
  /// with them; more bounds than a chart can tell apart are drawn as their least and greatest.
  /// - Complexity: O(*s*) in the settings.
  private static func sweepMarkers(_ sweep: FleetSweep, stage: String) -> [(x: Double, label: String)] {
    var order: [Double] = []
    var bounds: [Double: (label: String, settings: [String])] = [:]
    for setting in sweep.settings {
      for marker in Bounds(setting).markers(for: stage) {
        if bounds[marker.x] == nil { order.append(marker.x) }
        bounds[marker.x, default: (marker.label, [])].settings.append(pointLabel(setting.name, in: sweep))
      }
    }
    if sweep.settings.count == 1 { return order.map { ($0, bounds[$0]!.label) } }
    guard order.count > boundLinesDrawn else {
      return order.map { x in (x, bounds[x]!.label + " (\(bounds[x]!.settings.joined(separator: ", ")))") }
    }
    let (least, greatest) = (order.min()!, order.max()!)
    return [
      (least, bounds[least]!.label + " (least of \(order.count) bounds)"),
      (greatest, bounds[greatest]!.label + " (greatest of \(order.count) bounds)"),
    ]
  }

  /// A setting's short name on a chart: its values (`30/100` for
  /// `hinge.statusDebounceMs=30 hinge.statusMaxWaitMs=100`), or its place for a configuration.
  private static func pointLabel(_ name: String, in sweep: FleetSweep) -> String {
    guard name.contains("=") else {
      return "#\((sweep.settings.firstIndex { $0.name == name } ?? 0) + 1)"
    }
    return name.split(separator: " ").map {
      $0.split(separator: "=", maxSplits: 1).last.map(String.init) ?? ""
    }
    .joined(separator: "/")
  }

  // MARK: Parts

  /// Each stage's bound under a report's configuration, as a chart marks it.
  private struct Bounds {
    let configuration: Configuration?
    /// The least and greatest bound the report's stalls were judged against, by their streams'
    /// rates.
    let stallBounds: ClosedRange<Nanoseconds>?

    init(_ report: FleetReport) {
      configuration = try? report.provenance?.parsedConfiguration()
      stallBounds = report.stallBounds
    }

    init(_ setting: FleetSweep.Setting) {
      configuration = setting.configuration
      stallBounds = setting.stallBounds
    }

    /// The stage's bound as a chart marks it: one, or none where the stage has none.
    func markers(for stageName: String) -> [(x: Double, label: String)] {
      marker(for: stageName).map { [$0] } ?? []
    }

    private func marker(for stageName: String) -> (x: Double, label: String)? {
      guard let configuration, let stage = LatencyStage.allCases.first(where: { $0.name == stageName }) else {
        return nil
      }
      let bound = configuration.latencyBound(for: stage)
      // A stall's bound is in frames of its stream's rate: drawn at the greatest that applied,
      // with the least beside it when the rates differed; at 30 fps for a summary without them.
      if case .frames = bound.limit, let stallBounds {
        let (least, greatest) = (
          Self.milliseconds(stallBounds.lowerBound), Self.milliseconds(stallBounds.upperBound)
        )
        return (
          greatest,
          "bound \(least == greatest ? "" : "\(SVGChart.label(least))–")\(SVGChart.label(greatest)) ms by stream rate"
        )
      }
      guard let limit = bound.bound(), limit > .zero else { return nil }
      let basis = if case .frames = bound.limit { " at 30 fps" } else { "" }
      return (Self.milliseconds(limit), "bound \(SVGChart.label(Self.milliseconds(limit))) ms\(basis)")
    }

    private static func milliseconds(_ duration: Nanoseconds) -> Double { Double(duration.rawValue) / 1e6 }
  }

  /// A chart per cue kind: each run's distribution as a cumulative curve, the bounds marked, a
  /// regressed kind's chart marked so. Kinds whose every latency is 0 (instant cues) get a line
  /// together instead: their charts would be empty.
  private static func charts(
    _ kinds: [(
      name: String, runs: [(name: String, latencies: LatencyHistogram)],
      markers: [(x: Double, label: String)],
      regressed: Bool
    )]
  ) -> String {
    let instant = kinds.filter { kind in
      !kind.regressed && kind.runs.allSatisfy { $0.latencies.maximum == .zero }
    }
    var html = "<div class=\"charts\">\n"
    for kind in kinds where !instant.contains(where: { $0.name == kind.name }) {
      let series = kind.runs.map { run in
        SVGChart.Series(name: run.name, points: cumulative(run.latencies), steps: true)
      }
      let chart = SVGChart(
        title: kind.name + (kind.regressed ? " — regressed" : ""), xLabel: "latency t − since (ms)",
        yLabel: "share of cues ≤ latency", series: series, markers: kind.markers, yMaximum: 1)
      html += figure(chart, cue: kind.name, kind: "latency" + (kind.regressed ? " regressed" : ""))
    }
    html += "</div>\n"
    if !instant.isEmpty {
      html +=
        "<p class=\"instant\">Always 0 ms (at the input that makes them), not charted: "
        + HTMLText.escaped(instant.map(\.name).joined(separator: ", ")) + ".</p>\n"
    }
    return html
  }

  /// The cumulative share of cues at or below each occupied bucket's largest latency, in ms,
  /// from 0.
  private static func cumulative(_ latencies: LatencyHistogram) -> [(x: Double, y: Double)] {
    var points: [(x: Double, y: Double)] = [(0, 0)]
    var seen = 0
    for (_, bucket) in latencies.occupiedBuckets {
      seen += bucket.count
      points.append((Double(bucket.maximum.rawValue) / 1e6, Double(seen) / Double(max(latencies.count, 1))))
    }
    return points
  }

  private static func figure(_ chart: SVGChart, cue: String, kind: String) -> String {
    "<figure class=\"chart \(kind)\" data-cue=\"\(HTMLText.escaped(cue))\">\(chart.svg)\(chart.legend)</figure>\n"
  }

  private static func paragraph(_ text: String) -> String { "<p>\(HTMLText.escaped(text))</p>\n" }

  private static func milliseconds(_ duration: Nanoseconds) -> String {
    String(fixed: Double(duration.rawValue) / 1e6, decimals: 3)
  }

  private static func page(title: String, body: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(HTMLText.escaped(title))</title>
    <style>
    body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1120px; padding: 0 16px; color: #1d1d1f; }
    h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
    table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }
    th, td { padding: 3px 9px; border-bottom: 1px solid #e3e3e6; text-align: left; white-space: nowrap; }
    th { white-space: normal; vertical-align: bottom; } td:first-child { white-space: normal; overflow-wrap: anywhere; }
    .wide { overflow-x: auto; max-width: 1400px; }
    th { background: #f4f4f6; } .number { text-align: right; }
    tr.regressed, tr.added { background: #fde2e1; } tr.improved { background: #dff3e4; }
    .verdict { font-weight: 600; } p.regressed { color: #b3261e; } p.unchanged { color: #1e7b34; }
    .wide { overflow-x: auto; }
    .charts { display: flex; flex-wrap: wrap; gap: 12px; }
    figure.chart { margin: 0; width: 520px; border: 1px solid #e3e3e6; border-radius: 6px; }
    svg { display: block; width: 100%; height: auto; }
    svg .grid { stroke: #ececf0; } svg .series { fill: none; stroke-width: 2; }
    svg .bound { stroke: #b3261e; stroke-dasharray: 5 4; stroke-width: 1.5; }
    svg text { font: 11px system-ui, sans-serif; fill: #3c3c43; } svg .title { font-weight: 600; font-size: 13px; }
    svg .bound-label { fill: #b3261e; } svg .point { font-size: 10px; }
    figure.regressed { border: 2px solid #b3261e; } figure.regressed .title { fill: #b3261e; }
    figcaption { padding: 0 12px 8px; font-size: 12px; } .key { margin-right: 10px; white-space: nowrap; }
    .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; }
    </style>
    </head>
    <body>
    \(body)</body>
    </html>

    """
  }
}
