import Crease
import CreaseIO

extension FleetReport {
  /// The report in a summary file (`replay --summary-json`) or a report file (`crease report`,
  /// `batch`), told apart by their shape.
  ///
  /// Read as a stream: the arrays (sources, traces, cues, violations) an element at a time, and
  /// members no reader needs passed over, so memory follows what the report keeps (its rows and
  /// histograms), not the size of the file.
  public static func read(_ source: ByteSource) throws -> FleetReport {
    let reader = JSONStreamReader(source: source)
    var file = File(path: source.name)
    guard try reader.next() == .beginObject else {
      throw reader.error("not a crease summary or report: the file is not a JSON object")
    }
    var seen: Set<String> = []
    while case .key(let key)? = try reader.next() {
      // Read as they come, a member given twice would count twice: refused, not guessed at.
      guard seen.insert(key).inserted else { throw reader.error("'\(key)' is given twice") }
      switch key {
      case "version":
        file.version = try DocumentReader(try reader.document(), file: file.path, path: key).integer()
      case "sources", "traces", "cues", "violations":
        guard try reader.next() == .beginArray else { throw reader.error("'\(key)' must be an array") }
        var index = 0
        while let token = try reader.next(), token != .endArray {
          let element = DocumentReader(
            try reader.document(startingWith: token), file: file.path, path: "\(key)[\(index)]")
          try file.add(element, to: key)
          index += 1
        }
        file.arrays.insert(key)
      case "reports":
        throw reader.error(
          "a report of several configurations ('crease report --mixed'): give the summaries of one instead")
      case "total", "end", "gaps", "stallBounds", "staleFrames", "bounds", "crease", "configuration":
        file.members[key] = DocumentReader(try reader.document(), file: file.path, path: key)
      default:
        try reader.skipValue()
      }
    }
    guard try reader.next() == nil else {
      throw reader.error("invalid JSON: unexpected text after the document")
    }
    return try file.report()
  }

  /// The report in the JSON `bytes` of a summary or report file read from `path`.
  public static func parse(_ bytes: [UInt8], path: String) throws -> FleetReport {
    try read(MemorySource(bytes, name: path))
  }

  /// What a summary or report file held, gathered member by member in whatever order they come.
  private struct File {
    let path: String
    var version: Int?
    /// The arrays met, by name.
    var arrays: Set<String> = []
    var members: [String: DocumentReader] = [:]
    /// A summary's source names, joined by ` + ` as they come.
    var sourceNames = ""
    var sourceCount = 0
    /// A summary's sources' sizes, added up, and digests, joined by ` + ` as they come; `nil`
    /// when any has none. Appended to in place: a digest joined to a copy of the ones before
    /// was quadratic in the sources (40,000 took over 8 s).
    var sourceContent: TraceContent? = TraceContent(bytes: 0, digest: "")
    var traces: [Trace] = []
    /// Each cue kind, the last entry of its name kept, as a report holds them.
    var kinds: [String: Kind] = [:]
    /// The first cue entry with no `traces` count: a summary's, but in a report an error.
    var entryWithoutTraces: String?
    var violations: [Violation] = []
    /// A summary's trace, as its cue entries add to it; named once the sources are known.
    var summaryTrace = Trace(name: "")
    /// A summary's violations by cue, named once the sources are known.
    var summaryViolations: [(cue: String, count: Int)] = []

    init(path: String) { self.path = path }

    func error(_ message: String) -> JSONFile.Error { JSONFile.Error(path: path, message: message) }

    mutating func add(_ element: DocumentReader, to array: String) throws {
      switch array {
      case "sources":
        let name = try element.string("name")
        sourceNames += sourceCount == 0 ? name : " + " + name
        if let content = try FleetReport.content(element), sourceContent != nil {
          sourceContent!.bytes = sourceContent!.bytes.addingSaturated(content.bytes)
          if sourceCount > 0 { sourceContent!.digest += " + " }
          sourceContent!.digest += content.digest
        } else {
          sourceContent = nil
        }
        sourceCount += 1
      case "traces": traces.append(try FleetReport.trace(row: element))
      case "violations":
        violations.append(
          Violation(
            trace: try element.string("trace"), cue: try element.string("cue"),
            count: try element.integer("count")))
      default:
        let kind = Kind(
          name: try element.string("cue"), stage: try element.string("stage"),
          latencies: try element.member("histogram").histogram(), overBound: try element.integer("overBound"),
          traces: 1)
        var counted = kind
        if element.has("traces") {
          counted.traces = try element.integer("traces")
        } else {
          guard kind.latencies.count == (try element.integer("count", atLeast: 1)) else {
            throw element.error("'\(element.path).count' does not match its histogram")
          }
          entryWithoutTraces = entryWithoutTraces ?? element.path
        }
        // Each name's histogram is kept: as many as there are cue kinds, whatever the file.
        guard kinds[kind.name] != nil || kinds.count < CueKind.Tag.allCases.count else {
          throw element.error(
            "more than \(CueKind.Tag.allCases.count) cue kinds: '\(kind.name)' is one too many")
        }
        kinds[kind.name] = counted
        addToSummaryTrace(kind)
      }
    }

    /// What a summary's cue entry adds to its trace's row (a report's rows come whole).
    private mutating func addToSummaryTrace(_ kind: Kind) {
      summaryTrace.overBound = summaryTrace.overBound.addingSaturated(kind.overBound)
      if kind.overBound > 0 { summaryViolations.append((kind.name, kind.overBound)) }
      if kind.name == "camera.stall" { summaryTrace.stalls = kind.latencies.count }
    }

    /// The crease version and configuration the file records, its digest checked.
    func provenance() throws -> Provenance {
      guard let crease = members["crease"], let configuration = members["configuration"] else {
        throw error("missing 'crease' or 'configuration': written by a crease before 2.0; replay it again")
      }
      // Read back as a configuration and written again: a tool that rewrote the file (50.0 as
      // 50, other spacing) changed nothing the digest covers.
      let file = try configuration.member("file")
      let settings: Configuration
      do {
        settings = try ConfigurationFile.parse(file.document.bytes, path: "configuration.file")
      } catch {
        throw self.error("'configuration.file' is not a configuration: \(error)")
      }
      let provenance = Provenance(version: try crease.string("version"), configuration: settings)
      guard try configuration.string("digest") == provenance.digest else {
        throw error("'configuration.digest' does not match 'configuration.file': the file was edited")
      }
      return provenance
    }

    /// The report, once the whole file was read.
    func report() throws -> FleetReport {
      guard let version else { throw error("not a crease summary or report: no 'version'") }
      if arrays.contains("traces") {
        guard version == FleetReport.version else {
          throw error("unsupported report version \(version); this build reads \(FleetReport.version)")
        }
        guard arrays.contains("cues") else { throw error("missing 'cues'") }
        guard arrays.contains("violations") else { throw error("missing 'violations'") }
        if let entryWithoutTraces { throw error("missing '\(entryWithoutTraces).traces'") }
        // A report of failed traces alone was made under no configuration.
        let provenance = members["crease"]?.isNull == true ? nil : try provenance()
        return FleetReport(provenance: provenance, traces: traces, kinds: kinds, violations: violations)
      }
      guard version == ReplaySummary.jsonVersion else {
        throw error("unsupported summary version \(version); this build reads \(ReplaySummary.jsonVersion)")
      }
      guard arrays.contains("sources") else { throw error("missing 'sources'") }
      guard arrays.contains("cues") else { throw error("missing 'cues'") }
      return try summaryReport()
    }

    /// One trace's report from its summary.
    private func summaryReport() throws -> FleetReport {
      func member(_ key: String) throws -> DocumentReader {
        guard let member = members[key] else { throw error("missing '\(key)'") }
        return member
      }
      var trace = summaryTrace
      trace.name = sourceNames
      trace.content = sourceContent
      trace.closest = try closest(bounds: try member("bounds"))
      trace.lines = try FleetReport.lines(try member("total"))
      trace.end = try member("end").string("rule")
      let gaps = try member("gaps")
      trace.gaps = try GapCause.allCases.map { try gaps.integer($0.rawValue) }
      if let streams = members["stallBounds"] {
        trace.stallBounds = FleetReport.widest(try streams.elements().map(FleetReport.stallBounds))
      }
      let stale = try member("staleFrames")
      trace.staleFrames = stale.isNull ? 0 : try stale.integer()
      let violations = summaryViolations.map { Violation(trace: trace.name, cue: $0.cue, count: $0.count) }
      return FleetReport(provenance: try provenance(), traces: [trace], kinds: kinds, violations: violations)
    }

    /// The summary's cue kind that came closest to its bound, among the ranked stages, whose
    /// bounds are fixed durations.
    private func closest(bounds: DocumentReader) throws -> Closest? {
      var fixed: [String: Nanoseconds] = [:]
      for bound in try bounds.elements() where try bound.string("limit") == "fixed" {
        fixed[try bound.string("stage")] = Nanoseconds(Int64(try bound.integer("ns")))
      }
      let ranked = FleetReport.rankedStages.map(\.name)
      return kinds.values.sorted { $0.name < $1.name }.compactMap { kind -> Closest? in
        guard ranked.contains(kind.stage), let bound = fixed[kind.stage], bound > .zero else { return nil }
        return Closest(cue: kind.name, latency: kind.latencies.maximum, bound: bound)
      }.max { $0.share < $1.share }
    }
  }

  /// A `{"minNs", "maxNs"}` range of stall bounds (a summary's per stream, a row's per trace).
  fileprivate static func stallBounds(_ range: DocumentReader) throws -> ClosedRange<Nanoseconds> {
    let least = Nanoseconds(Int64(try range.integer("minNs")))
    let greatest = Nanoseconds(Int64(try range.integer("maxNs", atLeast: try range.integer("minNs"))))
    return least...greatest
  }

  /// A report's row for one trace.
  fileprivate static func trace(row: DocumentReader) throws -> Trace {
    var trace = Trace(name: try row.string("name"))
    trace.content = try content(row)
    let error = try row.member("error")
    trace.error = error.isNull ? nil : try error.string()
    trace.lines = try Self.lines(row)
    trace.end = try row.string("end")
    trace.overBound = try row.integer("overBound")
    let gaps = try row.member("gaps")
    trace.gaps = try GapCause.allCases.map { try gaps.integer($0.rawValue) }
    trace.stalls = try row.integer("stalls")
    if row.has("stallBounds"), case let range = try row.member("stallBounds"), !range.isNull {
      trace.stallBounds = try stallBounds(range)
    }
    trace.staleFrames = try row.integer("staleFrames")
    let closest = try row.member("closest")
    if !closest.isNull {
      trace.closest = Closest(
        cue: try closest.string("cue"), latency: Nanoseconds(Int64(try closest.integer("maxNs"))),
        bound: Nanoseconds(Int64(try closest.integer("boundNs", atLeast: 1))))
    }
    return trace
  }

  /// A source's or row's size and digest, both given or both `null`.
  fileprivate static func content(_ element: DocumentReader) throws -> TraceContent? {
    let bytes = try element.member("bytes")
    let digest = try element.member("digest")
    guard !bytes.isNull || !digest.isNull else { return nil }
    return TraceContent(bytes: try bytes.integer(), digest: try digest.string())
  }

  fileprivate static func lines(_ counts: DocumentReader) throws -> Lines {
    Lines(
      lines: try counts.integer("lines"), processed: try counts.integer("processed"),
      rejected: try counts.integer("rejected"), late: try counts.integer("late"),
      blank: try counts.integer("blank"))
  }
}
