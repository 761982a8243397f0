import Crease

/// Copies a trace record by record between JSON Lines and the binary format (`crease convert`).
///
/// Every well-formed record is carried over in order, late ones included (lateness is a
/// replay's business); blank lines and unknown keys are not part of any record and are left
/// behind; bad records are reported, skipped and counted.
public enum TraceConverter {
  /// What a conversion read and wrote.
  public struct Result: Hashable, Sendable {
    public var records = 0
    public var rejected = 0
  }

  /// Converts `source` (its format by its name's extension) into `sink` in the binary format
  /// when `binary`, else JSON Lines.
  public static func convert(
    _ source: ByteSource, to sink: ByteSink, binary: Bool, diagnostics: ByteSink, reportLimit: Int = 20
  ) throws -> Result {
    var result = Result()
    var output: [UInt8] = binary ? BinaryTraceFormat.fileHeader : []
    let parser = TraceParser()
    let reader = RecordSource(source)
    func write(_ record: TraceRecord) throws {
      if binary {
        BinaryTraceEncoder.encode(record, into: &output)
      } else {
        TraceEncoder.encode(record, into: &output)
      }
      result.records += 1
      if output.count >= 1 << 16 {
        try sink.write(output)
        output.removeAll(keepingCapacity: true)
      }
    }
    func reject(_ column: Int, _ message: String) throws {
      result.rejected += 1
      guard result.rejected <= reportLimit else { return }
      try diagnostics.write("\(source.name):\(reader.position):\(column): error: \(message)\n")
    }
    reading: while true {
      switch reader {
      case .lines(let lines):
        guard let line = try lines.next() else { break reading }
        switch line {
        case .overlong(let length):
          try reject(
            lines.maximumLineLength + 1,
            "line is \(length) bytes long; the longest line read is \(lines.maximumLineLength) bytes")
        case .complete(let bytes):
          guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
          do {
            try write(try parser.parse(bytes))
          } catch let error as TraceLineError {
            try reject(error.column, error.message)
          }
        }
      case .binary(let records):
        guard let item = try records.next() else { break reading }
        switch item {
        case .record(let record): try write(record)
        case .bad(let message, _): try reject(records.recordOffset + 1, message)
        }
      }
    }
    if result.rejected > reportLimit {
      try diagnostics.write(
        "crease: \(result.rejected - reportLimit) more bad record(s) not shown; \(result.rejected) in all\n")
    }
    try sink.write(output)
    try sink.flush()
    return result
  }
}
