import Crease

/// Reads a binary trace record by record with a fixed buffer, checking the magic, the version
/// and every size, and refusing what JSONL would refuse (negative `t`, bad enums, bad CMTime).
///
/// After a bad file header, or a truncated or oversized record, the rest of the file cannot be
/// read: that item is the last.
public final class BinaryTraceReader: RecordReader {
  public let source: ByteSource
  /// The 1-based number of the record last returned.
  public private(set) var position = 0
  /// The byte offset of the record last returned, from the start of the file.
  public private(set) var recordOffset = 0
  /// Bytes read from the source so far.
  public private(set) var bytesRead = 0
  /// Binary records are not copied verbatim; a late one is written out as JSON Lines.
  public let line: UnsafeRawBufferPointer? = nil
  /// A binary trace is read in whole records; it has no line terminator of its own.
  public let lineTerminator = "\n"
  /// The binary format has no unknown keys.
  public let unknownKeys: [UnknownKey] = []
  public var collectsUnknownKeys = false
  /// Whether a whole record is buffered (binary traces are read from files, never live).
  public var hasBufferedItem: Bool { true }

  /// Room for the longest record and a large read, owned by the reader: a raw buffer, so
  /// decoding a record retains nothing. Past `capacity` lie `RecentStreamNames.maximumLength`
  /// zero bytes that a name at the very end may be loaded from whole.
  private let buffer: UnsafeMutableRawBufferPointer
  private let capacity = BinaryTraceFormat.maximumRecordLength + (1 << 16)
  private var start = 0
  private var end = 0
  private var sourceIsExhausted = false
  private var checkedHeader = false
  private var stopped = false
  private var consumed = 0
  private var streamNames = RecentStreamNames()

  public init(source: ByteSource) {
    self.source = source
    let size = capacity + RecentStreamNames.maximumLength
    buffer = .allocate(byteCount: size, alignment: 8)
    buffer.initializeMemory(as: UInt8.self, repeating: 0)
  }

  deinit { buffer.deallocate() }

  public func next() throws -> TraceItem {
    guard !stopped else { return .endOfInput }
    if !checkedHeader {
      checkedHeader = true
      if let problem = try readFileHeader() { return stop(problem) }
    }
    // Whether the bytes are buffered already is asked here, inline: nearly always they are, and
    // a call into `fill` twice a record cost 64 instructions an event.
    guard try end - start >= 4 || fill(4) else {
      return start == end
        ? .endOfInput : stop("truncated record: \(end - start) byte(s) where a length was due")
    }
    position += 1
    recordOffset = consumed
    let length = recordLength
    guard length <= BinaryTraceFormat.maximumRecordLength else {
      return stop("record of \(length) bytes exceeds the \(BinaryTraceFormat.maximumRecordLength)-byte limit")
    }
    guard try end - start >= 4 + length || fill(4 + length) else {
      return stop("truncated record: \(length) bytes announced, \(end - start - 4) present")
    }
    var body = BodyReader(bytes: UnsafeRawBufferPointer(buffer), position: start + 4, end: start + 4 + length)
    start += 4 + length
    consumed += 4 + length
    do throws(BodyReader.Failure) {
      let record = try body.record(streamNames: &streamNames)
      guard body.position == body.end else {
        throw BodyReader.Failure("\(body.end - body.position) unexpected byte(s) at the end of the record")
      }
      return .record(record)
    } catch {
      return .bad(column: recordOffset + 1, message: error.message)
    }
  }

  private func stop(_ message: String) -> TraceItem {
    stopped = true
    return .bad(column: recordOffset + 1, message: message)
  }

  private func readFileHeader() throws -> String? {
    let header = BinaryTraceFormat.fileHeader
    guard try fill(header.count), buffer[start..<(start + 8)].elementsEqual(BinaryTraceFormat.magic) else {
      return "not a crease binary trace (its first bytes are not the CRTRACE magic)"
    }
    let version = UInt16(buffer[start + 8]) | UInt16(buffer[start + 9]) << 8
    guard version == BinaryTraceFormat.version else {
      return
        "unsupported binary trace version \(version); this crease reads version \(BinaryTraceFormat.version)"
    }
    start += header.count
    consumed += header.count
    return nil
  }

  /// Makes `count` bytes available from `start`; `false` at the end of the source.
  private func fill(_ count: Int) throws -> Bool {
    while end - start < count {
      if sourceIsExhausted { return false }
      if start > 0 {
        buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start)
        end -= start
        start = 0
      }
      let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end..<capacity]))
      if read == 0 { sourceIsExhausted = true } else { end += read }
      bytesRead += read
    }
    return true
  }

  /// The record length at `start`, loaded whole.
  private var recordLength: Int {
    Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
  }
}

/// Decodes one record body, checking every field.
private struct BodyReader {
  struct Failure: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  /// The reader's buffer; the record lies in `position..<end`.
  let bytes: UnsafeRawBufferPointer
  var position: Int
  let end: Int

  mutating func record(streamNames: inout RecentStreamNames) throws(Failure) -> TraceRecord {
    let tag = try byte()
    if tag == BinaryTraceFormat.headerCode { return .header(try header()) }
    guard let kind = BinaryTraceFormat.eventKind(tag) else { throw Failure("unknown record kind \(tag)") }
    let raw = Int64(bitPattern: try uint64())
    guard raw >= 0 else { throw Failure("'t' must not be negative (\(raw))") }
    let t = Nanoseconds(raw)
    switch kind {
    case .hinge:
      let form = try byte()
      if form == 0 { return .event(Event(t: t, .hinge(nil))) }
      guard form <= 2 else { throw Failure("unknown angle unit \(form)") }
      let value = Double(bitPattern: try uint64())
      guard value.isFinite else { throw Failure("'angle' must be a finite number") }
      let status = try decode("status", BinaryTraceFormat.status)
      return .event(
        Event(
          t: t, .hinge(HingeDelivery(angle: form == 1 ? .degrees(value) : .radians(value), status: status))))
    case .frame:
      let stream = try streamName(&streamNames)
      let pts = try presentationTime()
      let code = try byte()
      let camera = code == 0 ? nil : BinaryTraceFormat.camera(code - 1)
      guard code == 0 || camera != nil else { throw Failure("unknown camera \(code - 1)") }
      return .event(Event(t: t, .frame(Frame(stream: stream, pts: pts, camera: camera))))
    case .drop:
      let stream = try streamName(&streamNames)
      let pts = try presentationTime()
      return .event(
        Event(
          t: t, .drop(Drop(stream: stream, pts: pts, reason: try decode("reason", BinaryTraceFormat.reason))))
      )
    case .input:
      let stream = try streamName(&streamNames)
      guard let camera = BinaryTraceFormat.camera(try byte()) else { throw Failure("unknown camera") }
      return .event(Event(t: t, .input(stream: stream, camera: camera)))
    case .direction:
      let view = ViewName(rawValue: try string())
      let toward = CameraSet(rawValue: try byte())
      let away = CameraSet(rawValue: try byte())
      guard toward.rawValue < 1 << Camera.allCases.count, away.rawValue < 1 << Camera.allCases.count,
        toward.intersection(away).isEmpty
      else { throw Failure("bad camera sets in a direction update") }
      return .event(Event(t: t, .direction(DirectionUpdate(view: view, toward: toward, away: away))))
    case .display:
      let display = try decode("display", BinaryTraceFormat.display)
      return .event(Event(t: t, .display(DisplayChange(display: display, fullScreen: try flag()))))
    case .app:
      return .event(Event(t: t, .app(try decode("state", BinaryTraceFormat.appState))))
    case .session:
      let running = try flag()
      let preview = try byte()
      guard preview <= 2 else { throw Failure("bad previewVisible \(preview)") }
      return .event(
        Event(
          t: t, .session(SessionState(running: running, previewVisible: preview == 0 ? nil : preview == 2))))
    case .mark:
      return .event(Event(t: t, .mark(label: try string())))
    case .end:
      return .event(Event(t: t, .end))
    }
  }

  private mutating func header() throws(Failure) -> TraceHeader {
    var header = TraceHeader(version: Int(try uint16()))
    guard header.version == TraceHeader.currentVersion else {
      throw Failure("unsupported trace version \(header.version)")
    }
    header.device = try optionalString()
    header.os = try optionalString()
    for _ in 0..<(try uint16()) {
      let text = try string()
      // JSON Lines cannot carry it (json-c cuts member names at a NUL): refused in both formats.
      guard !text.utf8.contains(0) else { throw Failure("a stream name in the header holds a NUL") }
      let name = StreamName(rawValue: text)
      let fps = Double(bitPattern: try uint64())
      guard fps.isFinite, fps > 0 else {
        throw Failure("a stream's fps must be a finite number greater than 0")
      }
      header.nominalFrameRates[name] = fps
    }
    return header
  }

  @inline(__always)
  private mutating func need(_ count: Int) throws(Failure) {
    guard end - position >= count else { throw Failure("the record ends inside a field") }
  }

  @inline(__always)
  private mutating func byte() throws(Failure) -> UInt8 {
    try need(1)
    defer { position += 1 }
    return bytes[position]
  }

  private mutating func flag() throws(Failure) -> Bool {
    let value = try byte()
    guard value <= 1 else { throw Failure("a flag must be 0 or 1, not \(value)") }
    return value == 1
  }

  /// A little-endian integer of `T`'s width, loaded in one go.
  @inline(__always)
  private mutating func little<T: FixedWidthInteger>(_ type: T.Type) throws(Failure) -> T {
    let count = MemoryLayout<T>.size
    try need(count)
    let position = self.position
    self.position += count
    return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
  }

  private mutating func uint16() throws(Failure) -> UInt16 { try little(UInt16.self) }
  private mutating func uint32() throws(Failure) -> UInt32 { try little(UInt32.self) }
  private mutating func uint64() throws(Failure) -> UInt64 { try little(UInt64.self) }

  private mutating func string() throws(Failure) -> String { try string(count: Int(try uint32())) }

  /// The string of the next `count` bytes.
  private mutating func string(count: Int) throws(Failure) -> String {
    try need(count)
    defer { position += count }
    let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)])
    // ASCII (stream names, most labels) needs no validation; anything else is checked.
    if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
    guard let text = String(validating: slice, as: UTF8.self) else {
      throw Failure("a string is not valid UTF-8")
    }
    return text
  }

  private mutating func optionalString() throws(Failure) -> String? {
    try flag() ? try string() : nil
  }

  private mutating func streamName(_ recent: inout RecentStreamNames) throws(Failure) -> StreamName {
    let count = Int(try uint32())
    try need(count)
    let start = bytes.baseAddress! + position
    if let name = recent.name(at: start, count: count) {
      position += count
      return name
    }
    let name = StreamName(rawValue: try string(count: count))
    guard !name.rawValue.isEmpty else { throw Failure("'stream' must not be empty") }
    recent.remember(name, at: start, count: count)
    return name
  }

  private mutating func presentationTime() throws(Failure) -> PresentationTime {
    let value = Int64(bitPattern: try uint64())
    let timescale = Int32(bitPattern: try uint32())
    guard let pts = PresentationTime(value: value, timescale: timescale) else {
      throw Failure("'pts' \(value)/\(timescale) is out of range or has a bad timescale")
    }
    return pts
  }

  private mutating func decode<T>(_ name: String, _ value: (UInt8) -> T?) throws(Failure) -> T {
    let code = try byte()
    guard let decoded = value(code) else { throw Failure("unknown \(name) \(code)") }
    return decoded
  }
}
