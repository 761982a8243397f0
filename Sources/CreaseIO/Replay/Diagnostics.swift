import Crease
import CreaseRecording

/// Where a run reports bad and late lines: `FILE:LINE:COL: SEVERITY: MESSAGE` on the diagnostics
/// sink (errors up to a limit, then only counted), and each such line copied verbatim to the
/// rejects or late output. Replay, check and convert share it, so their messages agree.
struct Diagnostics {
  let sink: ByteSink
  /// How each problem is written.
  var style = DiagnosticStyle.text
  let rejects: ByteSink?
  let late: ByteSink?
  /// How many errors to report before only counting them; `nil` reports all (`check`).
  let limit: Int?
  /// Errors reported so far.
  private(set) var reported = 0

  init(sink: ByteSink, rejects: ByteSink? = nil, late: ByteSink? = nil, limit: Int?) {
    self.sink = sink
    self.rejects = rejects
    self.late = late
    self.limit = limit
  }

  /// Reports the bad line `reader` returned last (under the limit) and copies it to the rejects
  /// output.
  mutating func reject(_ reader: any RecordReader, column: Int, _ message: String) throws {
    try copyLine(of: reader, to: rejects)
    guard limit.map({ reported < $0 }) ?? true else { return }
    reported += 1
    try report(reader, column: column, "error", message)
  }

  /// Copies the line `reader` returned last as it was read, with its own terminator, when it
  /// has one.
  func copyLine(of reader: any RecordReader, to output: ByteSink?) throws {
    guard let output, let line = reader.unsafeLine else { return }
    try output.write(line)
    try output.write(reader.lineTerminator)
  }

  /// Writes one `FILE:LINE:COL: SEVERITY: MESSAGE` line about the item `reader` returned last;
  /// control characters quoted from the input (or in the file's name) are escaped, so a problem
  /// is always one line.
  func report(_ reader: any RecordReader, column: Int, _ severity: String, _ message: String) throws {
    switch style {
    case .text:
      let file = reader.source.name.escapingControlCharacters
      try sink.write(
        "\(file):\(reader.position):\(column): \(severity): \(message.escapingControlCharacters)\n")
    case .jsonLines:
      var line: [UInt8] = Array(#"{"file":"#.utf8)
      JSONString.append(reader.source.name, to: &line)
      line += Array(#","line":\#(reader.position),"column":\#(column),"severity":"#.utf8)
      JSONString.append(severity, to: &line)
      line += Array(#","message":"#.utf8)
      JSONString.append(message, to: &line)
      line += Array("}\n".utf8)
      try sink.write(line)
    }
  }

  /// Keeps a late event in the late output: its line as read, or, from a binary trace, its
  /// JSON Lines encoding.
  func keepLate(_ event: Event, readBy reader: any RecordReader) throws {
    guard let late else { return }
    if reader.unsafeLine != nil { return try copyLine(of: reader, to: late) }
    var line: [UInt8] = []
    TraceEncoder.encode(.event(event), into: &line)
    try late.write(line)
  }

  /// Reports the late event `reader` returned last, `behind` its trace's latest `t`.
  func reportLate(_ reader: any RecordReader, behind: Nanoseconds, window: Nanoseconds, severity: String)
    throws
  {
    let message =
      "late event: \(behind.rawValue) ns behind the latest t of its trace, more than the reorder window"
      + " (\(window.rawValue) ns)"
    try report(reader, column: 1, severity, message)
  }

  /// Warns about each key the format does not define in the record `reader` returned last.
  func warnAboutUnknownKeys(_ reader: any RecordReader) throws {
    for key in reader.unknownKeys {
      try report(reader, column: key.column, "warning", "unknown key '\(key.name)' is ignored")
    }
  }

  /// Says how many bad lines the limit left unreported.
  func reportUnshown(rejected: Int) throws {
    guard let limit, rejected > limit else { return }
    try sink.write("crease: \(rejected - limit) more bad line(s) not shown; \(rejected) rejected in all\n")
  }

  /// Says what the per-line reports left out: bad lines past the limit, and late lines unless
  /// each was reported (never silently dropped, even without a late output).
  func reportUnshown(_ total: ReplaySummary.LineCounts, lateReported: Bool) throws {
    try reportUnshown(rejected: total.rejected)
    if total.late > 0 && !lateReported {
      let destination = late == nil ? "; --late FILE keeps them" : ", written to the late output"
      try sink.write(
        "crease: \(total.late) late line(s) not processed (more than the reorder window behind)\(destination)\n"
      )
    }
  }
}

/// How a replay writes the problems it finds in its input.
public enum DiagnosticStyle: Sendable {
  /// `FILE:LINE:COL: SEVERITY: MESSAGE`, one a line, control characters escaped.
  case text
  /// One JSON object a line: `file`, `line`, `column`, `severity`, `message` (`check -f json`).
  case jsonLines
}
