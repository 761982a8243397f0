import Crease

extension FleetReport {
  /// The largest summary or report file read, in bytes.
  static let maximumFileSize = 256 << 20

  /// The report in a summary file (`replay --summary-json`) or a report file (`crease report`,
  /// `batch`), told apart by their shape.
  public static func read(_ source: ByteSource) throws -> FleetReport {
    let bytes = try JSONFile.readAll(source, limit: maximumFileSize, what: "a summary or a report")
    return try parse(bytes, path: source.name)
  }

  /// The report in the JSON `bytes` of a summary or report file read from `path`.
  public static func parse(_ bytes: [UInt8], path: String) throws -> FleetReport {
    let top = DocumentReader(try JSONDocument.parse(bytes, path: path), file: path)
    guard top.has("version") else { throw top.error("not a crease summary or report: no 'version'") }
    if top.has("traces") {
      guard try top.integer("version") == version else {
        throw top.error(
          "unsupported report version \(try top.integer("version")); this build reads \(version)")
      }
      return try FleetReport(report: top)
    }
    guard try top.integer("version") == ReplaySummary.jsonVersion else {
      throw top.error(
        "unsupported summary version \(try top.integer("version")); this build reads \(ReplaySummary.jsonVersion)"
      )
    }
    return try FleetReport(summary: top)
  }

  /// One trace's report from its summary.
  init(summary: DocumentReader) throws {
    let name = try summary.member("sources").elements().map { try $0.string("name") }.joined(separator: " + ")
    var trace = Trace(name: name)
    trace.lines = try Self.lines(summary.member("total"))
    trace.end = try summary.member("end").string("rule")
    let gaps = try summary.member("gaps")
    trace.gaps = try GapCause.allCases.map { try gaps.integer($0.rawValue) }
    let stale = try summary.member("staleFrames")
    trace.staleFrames = stale.isNull ? 0 : try stale.integer()
    var kinds: [String: Kind] = [:]
    var violations: [Violation] = []
    for entry in try summary.member("cues").elements() {
      let kind = Kind(
        name: try entry.string("cue"), stage: try entry.string("stage"),
        latencies: try entry.member("histogram").histogram(), overBound: try entry.integer("overBound"),
        traces: 1)
      guard kind.latencies.count == (try entry.integer("count", atLeast: 1)) else {
        throw entry.error("'\(entry.path).count' does not match its histogram")
      }
      kinds[kind.name] = kind
      trace.overBound = trace.overBound.addingSaturated(kind.overBound)
      if kind.overBound > 0 {
        violations.append(Violation(trace: name, cue: kind.name, count: kind.overBound))
      }
      if kind.name == "camera.stall" { trace.stalls = kind.latencies.count }
      if kind.name != "camera.gap", kind.latencies.maximum > (trace.slowest?.latency ?? Nanoseconds(-1)) {
        trace.slowest = (kind.name, kind.latencies.maximum)
      }
    }
    self.init(traces: [trace], kinds: kinds, violations: violations)
  }

  /// A report read back, to be merged with others.
  init(report: DocumentReader) throws {
    var traces: [Trace] = []
    for row in try report.member("traces").elements() {
      var trace = Trace(name: try row.string("name"))
      let error = try row.member("error")
      trace.error = error.isNull ? nil : try error.string()
      trace.lines = try Self.lines(row)
      trace.end = try row.string("end")
      trace.overBound = try row.integer("overBound")
      let gaps = try row.member("gaps")
      trace.gaps = try GapCause.allCases.map { try gaps.integer($0.rawValue) }
      trace.stalls = try row.integer("stalls")
      trace.staleFrames = try row.integer("staleFrames")
      let slowest = try row.member("slowest")
      if !slowest.isNull {
        trace.slowest = (try slowest.string("cue"), Nanoseconds(Int64(try slowest.integer("maxNs"))))
      }
      traces.append(trace)
    }
    var kinds: [String: Kind] = [:]
    for entry in try report.member("cues").elements() {
      let kind = Kind(
        name: try entry.string("cue"), stage: try entry.string("stage"),
        latencies: try entry.member("histogram").histogram(), overBound: try entry.integer("overBound"),
        traces: try entry.integer("traces"))
      kinds[kind.name] = kind
    }
    let violations = try report.member("violations").elements().map { entry in
      Violation(
        trace: try entry.string("trace"), cue: try entry.string("cue"), count: try entry.integer("count"))
    }
    self.init(traces: traces, kinds: kinds, violations: violations)
  }

  private static func lines(_ counts: DocumentReader) throws -> Lines {
    Lines(
      lines: try counts.integer("lines"), processed: try counts.integer("processed"),
      rejected: try counts.integer("rejected"), late: try counts.integer("late"),
      blank: try counts.integer("blank"))
  }
}
