import Crease

/// Reads a JSON Lines trace: lines from a ``LineReader``, parsed by a ``TraceParser``.
public final class JSONLinesReader: RecordReader {
  private let lines: LineReader
  private let parser = TraceParser()
  private let overflow: ByteSink?

  /// A reader of `source`; a line over the limit is streamed to `overflow` and reported bad.
  public init(source: ByteSource, overflow: ByteSink? = nil) {
    lines = LineReader(source: source)
    self.overflow = overflow
  }

  /// Where the lines come from.
  public var source: ByteSource { lines.source }
  /// The 1-based number of the line last returned.
  public var position: Int { lines.lineNumber }
  /// Bytes read from the source so far.
  public var bytesRead: Int { lines.bytesRead }
  /// Bytes of the source taken up to the end of the line last returned.
  public var bytesTaken: Int { lines.bytesTaken }
  /// Whether a whole line is already in the buffer.
  public var hasBufferedItem: Bool { lines.hasBufferedLine }
  // State behind public getters, stored privately. Tuning: private-storage (Docs/Performance.md).
  private var storedLine: UnsafeRawBufferPointer?
  /// The line last returned, without its terminator; `nil` for an overlong one.
  public var unsafeLine: UnsafeRawBufferPointer? { storedLine }
  /// The terminator of the line last returned.
  public var lineTerminator: String { lines.endedWithCarriageReturn ? "\r\n" : "\n" }
  /// Whether the line last returned ended with `\r\n`.
  public var endsWithCarriageReturn: Bool { lines.endedWithCarriageReturn }
  /// Keys the format does not define in the line last returned.
  public var unknownKeys: [UnknownKey] { parser.unknownKeys }
  /// Whether each record's unknown keys are listed (`crease check`).
  public var collectsUnknownKeys: Bool {
    get { parser.collectsUnknownKeys }
    set { parser.collectsUnknownKeys = newValue }
  }

  /// Reads and parses the next line.
  @inline(__always) public func next() throws -> TraceItem {
    // A line as TraceEncoder writes it, nearly every line, is parsed where it lies in the
    // buffer, and its end is where its record ends: no search for the newline first.
    if let (record, length, crlf) = parser.canonicalLine(atStartOf: lines.unsafeBuffered) {
      storedLine = lines.unsafeTakeLine(length: length, endsWithCarriageReturn: crlf)
      return .record(record)
    }
    storedLine = nil
    guard let next = try lines.next(overflow: overflow) else {
      return .endOfInput
    }
    switch next {
    case .overlong(let length):
      try overflow?.write("\n")
      guard !lines.stoppedInsideLine else {
        return .bad(
          column: lines.maximumLineLength + 1,
          message:
            "line has not ended after \(length) bytes; reading stops inside it, and nothing after it is read")
      }
      return .bad(
        column: lines.maximumLineLength + 1,
        message:
          "line is \(length) bytes long; the longest line read is \(lines.maximumLineLength) bytes"
      )
    case .unsafeComplete(let bytes):
      storedLine = bytes
      guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return .blank }
      do {
        return .record(try parser.parse(bytes))
      } catch {
        return .bad(column: error.column, message: error.message)
      }
    }
  }
}

extension JSONLinesReader: ReadsAheadDirectly {}
