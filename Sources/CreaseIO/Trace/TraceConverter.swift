import Crease
import CreaseRecording

/// Copies a trace record by record between JSON Lines and the binary format (`crease convert`).
///
/// Every well-formed record is carried over in order, late ones included (lateness is a
/// replay's business); blank lines and unknown keys are not part of any record and are left
/// behind; bad records are reported, skipped and counted. So is a record the target could hold
/// but its reader would refuse: a JSON line longer than ``LineReader/defaultMaximumLineLength``
/// (a long mark label from a binary trace, escaped), a binary record longer than
/// ``BinaryTraceFormat/maximumRecordLength``, or a header of more streams than version 1
/// counts.
public enum TraceConverter {
  /// What a conversion read and wrote.
  public struct Result: Hashable, Sendable {
    /// Records written.
    public var records = 0
    /// Bad records, reported and skipped.
    public var rejected = 0
  }

  /// Converts `source` (its format by its name's extension) into `sink` in version `binary` of
  /// the binary format, or in JSON Lines when `binary` is `nil`.
  public static func convert(
    _ source: ByteSource, to sink: ByteSink, binary: UInt16?, diagnostics: ByteSink, reportLimit: Int = 20
  ) throws -> Result {
    var result = Result()
    var encoder = BinaryTraceEncoder(version: binary ?? BinaryTraceFormat.version)
    var output: [UInt8] = binary != nil ? encoder.fileHeader : []
    let reader = RecordReaders.open(source)
    var diagnostics = Diagnostics(sink: diagnostics, limit: reportLimit)
    reading: while true {
      switch try reader.next() {
      case .endOfInput:
        break reading
      case .blank:
        continue
      case .bad(let column, let message):
        result.rejected += 1
        try diagnostics.reject(reader, column: column, message)
      case .record(let record):
        // As every command reads a trace: a header after a record is bad input, not carried on.
        if case .header = record, result.records > 0 {
          result.rejected += 1
          try diagnostics.reject(reader, column: 1, "a header must be the first record of a trace")
          continue
        }
        if binary != nil {
          do { try encoder.encode(record, into: &output) } catch {
            result.rejected += 1
            try diagnostics.reject(
              reader, column: 1, "cannot be written in binary version \(encoder.version): \(error)")
            continue
          }
        } else {
          let lineStart = output.count
          TraceEncoder.encode(record, into: &output)
          // Without its newline.
          let length = output.count - lineStart - 1
          guard length <= LineReader.defaultMaximumLineLength else {
            output.removeSubrange(lineStart...)
            result.rejected += 1
            try diagnostics.reject(
              reader, column: 1,
              "cannot be written as JSON Lines: a line of \(length) bytes; the longest line read is \(LineReader.defaultMaximumLineLength)"
            )
            continue
          }
        }
        result.records += 1
        if output.count >= 1 << 16 {
          try sink.write(output)
          output.removeAll(keepingCapacity: true)
        }
      }
    }
    try diagnostics.reportUnshown(rejected: result.rejected)
    try sink.write(output)
    try sink.flush()
    return result
  }
}
