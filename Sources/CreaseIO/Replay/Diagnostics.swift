import Crease

/// Where a run reports bad and late lines: `FILE:LINE:COL: SEVERITY: MESSAGE` on the diagnostics
/// sink (errors up to a limit, then only counted), and each such line copied verbatim to the
/// rejects or late output. Replay, check and convert share it, so their messages agree.
struct Diagnostics {
  let sink: ByteSink
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
    guard let output, let line = reader.line else { return }
    try output.write(line)
    try output.write(reader.lineTerminator)
  }

  /// Writes one `FILE:LINE:COL: SEVERITY: MESSAGE` line about the item `reader` returned last;
  /// control characters quoted from the input (or in the file's name) are escaped, so a problem
  /// is always one line.
  func report(_ reader: any RecordReader, column: Int, _ severity: String, _ message: String) throws {
    let file = reader.source.name.escapingControlCharacters
    try sink.write(
      "\(file):\(reader.position):\(column): \(severity): \(message.escapingControlCharacters)\n")
  }

  /// Says how many bad lines the limit left unreported.
  func reportUnshown(rejected: Int) throws {
    guard let limit, rejected > limit else { return }
    try sink.write("crease: \(rejected - limit) more bad line(s) not shown; \(rejected) rejected in all\n")
  }
}
