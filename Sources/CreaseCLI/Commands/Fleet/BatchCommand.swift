import Crease
import CreaseIO
import CreaseLocking
import CreaseReports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `crease batch`: many traces replayed independently, N at a time, then one fleet report.
enum BatchCommand: Subcommand {
  static let directoryOption = CommandDescription.Option(
    ["-d", "--directory"], value: "dir", isRequired: true, completion: .directory,
    help: "Where the cues, the summaries and the report go (created if missing).")
  static let jobsOption = CommandDescription.Option(
    ["-j", "--jobs"], value: "n", help: "How many traces to replay at a time (default: all cores).")

  static let description = CommandDescription(
    name: "batch",
    abstract: "Replay many traces independently, then write a fleet report.",
    discussion: """
      Each trace is replayed on its own (not merged with the others), N at a time. In DIR go
      its cues (NNN-NAME.cues.jsonl) and its JSON summary (NNN-NAME.summary.json), NNN being its
      place on the command line, so equal names in different folders never collide; then
      report.json and report.txt over all of them, as 'crease report' would merge the summaries.
      A trace that fails to open or has bad lines is reported and counted and never stops the
      others; the exit status is the worst any trace had.
      """,
    arguments: [
      .init(
        "trace", help: "Trace files (JSON Lines or .crtrace), each replayed on its own.", isRepeating: true,
        completion: .traces)
    ],
    options: [TraceInputs.configOption, ReplayCommand.formatOption, directoryOption, jobsOption])

  /// What replaying one trace gave, besides its report (folded into the run's as it comes).
  struct Outcome: Sendable {
    var status: ExitCode
    /// Diagnostics, written after the batch so traces never interleave.
    var diagnostics: [UInt8]
  }

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let traces = arguments.positionals
    guard !traces.contains("-") else {
      throw UsageError("'batch' reads files; standard input ('-') is not one.")
    }
    let configuration = try TraceInputs.configuration(arguments)
    let format = try arguments.choice(ReplayCommand.formatOption, of: CueFormat.self) ?? .jsonl
    let jobs =
      try arguments.value(jobsOption, as: "a whole number from 1") { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
      ?? processorCount
    let directory = arguments.value(directoryOption)!  // a required option: the parser checked it
    let names = outputNames(for: traces, format: format)
    let outputs = names.flatMap { [$0.cues, $0.summary] } + ["report.json", "report.txt"]
    try OutputPaths.refuseOverlaps(
      outputs.map { ("--directory", "\(directory)/\($0)") }, inputs: traces, streams: streams)
    try makeDirectory(directory)
    let progress = BatchProgress(total: traces.count, streams: streams)
    // Each trace's report folded in as its replay ends: a batch holds one histogram a cue kind
    // and a row a trace, not every trace's summary until the last.
    let fleet = Locked(FleetReport.Accumulator())
    let results = ParallelWork.map(
      count: traces.count, jobs: jobs, order: largestFirst(traces),
      { index in
        replay(
          traces[index], configuration: configuration, format: format, foldingInto: fleet,
          cues: "\(directory)/\(names[index].cues)", summary: "\(directory)/\(names[index].summary)")
      }, done: { progress.traceDone() })
    progress.finish()
    for result in results { try streams.error.write(result.diagnostics) }
    let report = fleet.withLock { $0.takeReport() }
    for (name, format) in [("report.json", TextOrJSON.json), ("report.txt", .text)] {
      let file = try ReplacedFile(path: "\(directory)/\(name)")
      try ReportCommand.write(report, as: format, to: file.sink)
      try file.commit()
    }
    try streams.error.write(
      "crease: \(traces.count) trace(s) replayed, \(report.failed) failed; report in \(directory)/report.txt\n"
    )
    return results.map(\.status).max { $0.severity < $1.severity } ?? .success
  }

  /// Replays one trace into its cue and summary files, or, without their paths (`sweep`), into
  /// its report alone, which is folded into `fleet` (a failed trace's row where it failed).
  static func replay(
    _ path: String, configuration: Configuration, format: CueFormat,
    foldingInto fleet: Locked<FleetReport.Accumulator>, cues: String? = nil, summary: String? = nil
  ) -> Outcome {
    let (outcome, report) = replay(
      path, configuration: configuration, format: format, cues: cues, summary: summary)
    fleet.withLock { accumulator in
      do {
        try accumulator.add(report)
      } catch {
        preconditionFailure("the summaries of one run are made under one configuration: \(error)")
      }
    }
    return outcome
  }

  private static func replay(
    _ path: String, configuration: Configuration, format: CueFormat, cues: String?, summary: String?
  ) -> (Outcome, FleetReport) {
    let diagnostics = MemorySink()
    do {
      let source = DigestingSource(try FileSource(path: path))
      var replay = TraceReplay(configuration: configuration) { Pipeline(configuration: configuration) }
      replay.format = format
      let cueFile = try cues.map { try ReplacedFile(path: $0) }
      let result = try ReplayCommand.run(
        replay, [source], digests: [source],
        to: .init(cues: cueFile?.sink ?? DiscardingSink(), diagnostics: diagnostics))
      try cueFile?.sink.flush()
      try cueFile?.commit()
      let bytes = result.json(for: configuration).bytes
      if let summary {
        let summaryFile = try ReplacedFile(path: summary)
        try summaryFile.sink.write(bytes)
        try summaryFile.commit()
      }
      // Read back here, on the worker's core: the report is made from the summary files' bytes,
      // so that it is what `crease report` of them gives, and reading them one after another at
      // the end was the part of a batch a second core could not share.
      let report = try FleetReport.parse(bytes, path: path)
      let status: ExitCode = result.total.rejected > 0 ? .dataError : .success
      return (Outcome(status: status, diagnostics: diagnostics.bytes), report)
    } catch {
      let status: ExitCode =
        switch error {
        case let error as IOError: error.kind == .missingInput ? .noInput : .ioError
        default: .failure
        }
      return (
        Outcome(status: status, diagnostics: diagnostics.bytes + Array("crease: \(error)\n".utf8)),
        FleetReport(failed: path, error: "\(error)")
      )
    }
  }

  /// The traces' indices, the largest file first (ties, and files whose size cannot be asked,
  /// in their place on the command line): started in that order, the traces still to start at
  /// the end are the short ones, so no core waits long for the last (Docs/Decisions.md,
  /// "Recording and fleets").
  static func largestFirst(_ paths: [String]) -> [Int] {
    let sizes = paths.map { path -> Int64 in
      var status = stat()
      return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
    return paths.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
  }

  /// Per trace, file names that cannot collide: its place on the command line, zero-padded,
  /// then its file name without the extension.
  static func outputNames(for traces: [String], format: CueFormat) -> [(cues: String, summary: String)] {
    let width = String(traces.count).count
    let cueExtension =
      switch format {
      case .jsonl: "cues.jsonl"
      case .text: "cues.txt"
      case .chrome: "cues.json"
      }
    return traces.enumerated().map { index, path in
      let number = String(index + 1)
      let file = path.split(separator: "/").last.map(String.init) ?? path
      let stem = file.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(
        separator: ".")
      let name =
        String(repeating: "0", count: width - number.count) + number + "-" + (stem.isEmpty ? file : stem)
      return ("\(name).\(cueExtension)", "\(name).summary.json")
    }
  }

  /// Creates `path` and its missing parents; an existing directory is fine.
  static func makeDirectory(_ path: String) throws {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component + "/"
      if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
        throw IOError(path: path, reason: String(cString: strerror(errno)))
      }
    }
    var status = stat()
    guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
      throw IOError(path: path, reason: "not a directory")
    }
  }

  static var processorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}

extension ExitCode {
  /// How bad an outcome is, to report the worst of many: any failure beats an I/O error, which
  /// beats a missing input, which beats bad data.
  var severity: Int {
    switch self {
    case .success: 0
    case .dataError: 1
    case .noInput: 2
    case .configuration: 3
    case .ioError: 4
    case .usage: 5
    case .failure: 6
    }
  }
}

/// "N of M traces" on standard error while a batch runs, when it is a terminal.
final class BatchProgress: Sendable {
  private let total: Int
  /// Standard error on a terminal, or `nil`; written only while `done` is locked.
  nonisolated(unsafe) private let sink: FileSink?
  private let done = Locked(0)

  init(total: Int, streams: StandardStreams) {
    self.total = total
    sink = (streams.error as? FileSink).flatMap { $0.isTerminal ? $0 : nil }
  }

  func traceDone() {
    guard let sink else { return }
    done.withLock { done in
      done += 1
      try? sink.write("\rcrease: \(done) of \(total) traces")
      try? sink.flush()
    }
  }

  func finish() {
    guard let sink else { return }
    done.withLock { _ in
      try? sink.write("\r\u{1B}[K")
      try? sink.flush()
    }
  }
}
