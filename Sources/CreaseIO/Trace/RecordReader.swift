import Crease

/// One thing a trace reader hands over: a record, a blank line, or a bad line or record.
public enum TraceItem {
  /// A well-formed record.
  case record(TraceRecord)
  /// An empty or whitespace-only line, which the format allows and skips.
  case blank
  /// A bad line or record: the 1-based column (the byte offset of a binary record, plus one),
  /// and why. An overlong line has already been streamed whole to the reader's overflow sink.
  case bad(column: Int, message: String)
  /// The source has no more records.
  ///
  /// A case rather than an optional result, which is destroyed twice per record. Tuning:
  /// moved-not-copied.
  case endOfInput
}

/// Reads the records of one trace, in one format. Replay, check, stats, plot and convert read
/// through it, so a new input format is one new conforming type (``RecordReaders/open(_:overflow:)``
/// picks it). A conforming type is not isolated to an actor (`SendableMetatype`): a reader may be
/// read on a thread of its own (``ReadAheadReader``).
public protocol RecordReader: AnyObject, SendableMetatype {
  /// Where the records come from.
  var source: ByteSource { get }
  /// The line number, or the record number, of the item last returned (`LINE` in diagnostics).
  var position: Int { get }
  /// Bytes read from the source so far (a buffer ahead of the items).
  var bytesRead: Int { get }
  /// Bytes of the source taken up to the end of the item last returned: what a progress report
  /// counts (the bytes read run ahead by a buffer, a whole small file at once).
  var bytesTaken: Int { get }
  /// Whether ``next()`` can return without waiting for the source (live input flushes and
  /// advances time before it waits).
  var hasBufferedItem: Bool { get }
  /// The item last returned as read, to copy verbatim: a JSON line without its terminator;
  /// `nil` for a binary record, an overlong line, or before the first item. Valid until the
  /// next call to ``next()``.
  ///
  /// Kept apart from the item, which is handed on without its line: moving an item from one
  /// thread to another should not mean rebuilding it (``ReadAheadReader``).
  var unsafeLine: UnsafeRawBufferPointer? { get }
  /// The terminator of the line last returned, so a copy of it is verbatim (`\n` or `\r\n`).
  var lineTerminator: String { get }
  /// Whether ``lineTerminator`` is `\r\n`, asked without making a string (for every line read
  /// ahead).
  var endsWithCarriageReturn: Bool { get }
  /// Keys the format does not define in the record last returned (`crease check` lists them),
  /// when ``collectsUnknownKeys`` is set.
  var unknownKeys: [UnknownKey] { get }
  /// Whether ``unknownKeys`` is filled; off unless set, as listing keys costs time.
  var collectsUnknownKeys: Bool { get set }

  /// The next item, ``TraceItem/endOfInput`` at the end of the source.
  func next() throws -> TraceItem
}

/// Chooses a reader by format.
public enum RecordReaders {
  /// A reader for `source`: binary when its name ends in `.crtrace` (or, for a
  /// ``SniffedSource`` such as standard input, when it starts with the magic), JSON Lines
  /// otherwise. Overlong JSON lines are streamed to `overflow`, terminated, instead of held in
  /// memory.
  public static func open(_ source: ByteSource, overflow: ByteSink? = nil) -> any RecordReader {
    isBinary(source) ? BinaryTraceReader(source: source) : JSONLinesReader(source: source, overflow: overflow)
  }

  /// Whether ``open(_:overflow:)`` reads `source` as a binary trace.
  public static func isBinary(_ source: ByteSource) -> Bool {
    (source as? SniffedSource)?.isBinaryTrace ?? BinaryTraceFormat.isBinary(path: source.name)
  }
}
