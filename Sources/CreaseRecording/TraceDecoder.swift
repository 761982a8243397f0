import Crease

/// Reads back the trace lines Crease writes (``TraceEncoder``, ``TraceRecorder``), with no
/// Foundation and no JSON library, so an app's tests can replay a recording on any platform.
///
/// It reads a line only in the one spelling ``TraceEncoder`` gives it: keys in their order, no
/// spaces, numbers in their shortest form, names Crease knows. Anything else (a hand-edited
/// line, another tool's JSON) is refused with its line and column, to be read by `crease check`
/// or `crease convert`, which take any JSON the trace format allows. Empty lines are skipped.
///
/// ```swift
/// let records = try TraceDecoder.records(in: recording, name: "opening.jsonl")
/// ```
public enum TraceDecoder {
  /// A line that is not one Crease writes.
  public struct Failure: Error, Equatable, CustomStringConvertible {
    /// The name of what was read, as given.
    public var name: String
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based byte column of the problem in its line.
    public var column: Int
    /// What is wrong there.
    public var message: String

    /// `NAME:LINE:COLUMN: error: MESSAGE`, as the command reports bad input.
    public var description: String { "\(name):\(line):\(column): error: \(message)" }
  }

  /// The records of `bytes`, a trace as Crease writes it, one line each.
  /// - Throws: ``Failure`` at the first line that is not one Crease writes.
  /// - Complexity: O(*n*) in the bytes.
  public static func records(in bytes: some Collection<UInt8>, name: String = "trace") throws(Failure)
    -> [TraceRecord]
  {
    var records: [TraceRecord] = []
    var line = 0
    for text in Array(bytes).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      line += 1
      let text = text.last == UInt8(ascii: "\r") ? text.dropLast() : text
      guard !text.isEmpty else { continue }
      var reader = LineReader(bytes: text)
      let record: TraceRecord
      do throws(Refusal) {
        record = try reader.record()
      } catch {
        throw Failure(name: name, line: line, column: reader.column, message: error.message)
      }
      if case .header = record, !records.isEmpty {
        throw Failure(
          name: name, line: line, column: 1, message: "a header is only the first line of a trace")
      }
      records.append(record)
    }
    return records
  }
}

/// Why a line was refused, at the reader's column.
private struct Refusal: Error {
  var message: String
}

/// One line, read left to right in ``TraceEncoder``'s spelling.
private struct LineReader {
  let bytes: ArraySlice<UInt8>
  var position: Array<UInt8>.Index

  init(bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    position = bytes.startIndex
  }

  /// The 1-based column of the reader.
  var column: Int { position - bytes.startIndex + 1 }

  mutating func record() throws(Refusal) -> TraceRecord {
    if starts(with: #"{"kind":"header""#) { return .header(try header()) }
    try expect(#"{"t":"#)
    let start = position
    let t = try integer()
    guard t >= 0 else {
      position = start
      throw Refusal(message: "'t' must not be negative (\(t))")
    }
    try expect(#","kind":"#)
    let kindName = try string()
    guard let kind = EventKind(name: kindName) else { throw Refusal(message: "unknown kind '\(kindName)'") }
    let payload = try self.payload(kind)
    try expect("}")
    guard position == bytes.endIndex else { throw Refusal(message: "text after the line's object") }
    return .event(Event(t: Nanoseconds(t), payload))
  }

  private mutating func header() throws(Refusal) -> TraceHeader {
    try expect(#"{"kind":"header","format":"crease-trace","version":"#)
    let version = try integer()
    guard version == TraceHeader.currentVersion else {
      throw Refusal(message: "unsupported trace version \(version)")
    }
    var header = TraceHeader()
    if starts(with: #","device":"#) {
      try expect(#","device":"#)
      header.device = try string()
    }
    if starts(with: #","os":"#) {
      try expect(#","os":"#)
      header.os = try string()
    }
    if starts(with: #","streams":{"#) {
      try expect(#","streams":{"#)
      repeat {
        let stream = try string()
        try expect(#":{"fps":"#)
        header.nominalFrameRates[StreamName(rawValue: stream)] = try number()
        try expect("}")
      } while skip(",")
      try expect("}")
    }
    try expect("}")
    return header
  }

  private mutating func payload(_ kind: EventKind) throws(Refusal) -> Event.Payload {
    switch kind {
    case .hinge:
      if skip(#","hinge":null"#) { return .hinge(nil) }
      let angle: HingeAngle
      if skip(#","angle":"#) {
        angle = .degrees(try number())
      } else {
        try expect(#","angleRad":"#)
        angle = .radians(try number())
      }
      try expect(#","status":"#)
      return .hinge(HingeDelivery(angle: angle, status: try name(HingeStatus.init(name:))))
    case .frame:
      let stream = try stream()
      let pts = try presentationTime()
      let camera = skip(#","camera":"#) ? try name(Camera.init(name:)) : nil
      return .frame(Frame(stream: stream, pts: pts, camera: camera))
    case .drop:
      let stream = try stream()
      let pts = try presentationTime()
      let reason = skip(#","reason":"#) ? try name(DropReason.init(name:)) : nil
      return .drop(Drop(stream: stream, pts: pts, reason: reason))
    case .input:
      let stream = try stream()
      try expect(#","camera":"#)
      return .input(stream: stream, camera: try name(Camera.init(name:)))
    case .streamEnd:
      return .streamEnd(stream: try stream())
    case .direction:
      try expect(#","view":"#)
      let view = ViewName(rawValue: try string())
      try expect(#","toward":"#)
      let toward = try cameras()
      try expect(#","away":"#)
      let away = try cameras()
      let innerFrontFirst =
        toward.contains(.outerFront)
        && toward.firstIndex(of: .innerFront).map { $0 < toward.firstIndex(of: .outerFront)! } == true
      return .direction(
        DirectionUpdate(
          view: view, toward: CameraSet(toward), away: CameraSet(away), innerFrontListedFirst: innerFrontFirst
        ))
    case .display:
      try expect(#","display":"#)
      let display = try name(Display.init(name:))
      try expect(#","fullScreen":"#)
      return .display(DisplayChange(display: display, fullScreen: try bool()))
    case .app:
      try expect(#","state":"#)
      return .app(try name(AppState.init(name:)))
    case .session:
      try expect(#","running":"#)
      let running = try bool()
      let preview = skip(#","previewVisible":"#) ? try bool() : nil
      return .session(SessionState(running: running, previewVisible: preview))
    case .mark:
      try expect(#","label":"#)
      return .mark(label: try string())
    case .end:
      return .end
    }
  }

  // MARK: Fields

  private mutating func stream() throws(Refusal) -> StreamName {
    try expect(#","stream":"#)
    let name = try string()
    guard !name.isEmpty else { throw Refusal(message: "'stream' must not be empty") }
    return StreamName(rawValue: name)
  }

  private mutating func presentationTime() throws(Refusal) -> PresentationTime {
    try expect(#","pts":"#)
    guard skip(#"{"value":"#) else { return PresentationTime(nanoseconds: try integer()) }
    let value = try integer()
    try expect(#","timescale":"#)
    let timescale = try integer()
    try expect("}")
    guard let timescale = Int32(exactly: timescale),
      let pts = PresentationTime(value: value, timescale: timescale)
    else { throw Refusal(message: "'pts.timescale' must be between 1 and 2147483647 (\(timescale))") }
    return pts
  }

  private mutating func cameras() throws(Refusal) -> [Camera] {
    try expect("[")
    var cameras: [Camera] = []
    if skip("]") { return cameras }
    repeat { cameras.append(try name(Camera.init(name:))) } while skip(",")
    try expect("]")
    return cameras
  }

  /// A string naming one of a type's values.
  private mutating func name<T>(_ named: (String) -> T?) throws(Refusal) -> T {
    let start = position
    let text = try string()
    guard let value = named(text) else {
      position = start
      throw Refusal(message: "unknown name '\(text)'")
    }
    return value
  }

  private mutating func bool() throws(Refusal) -> Bool {
    if skip("true") { return true }
    if skip("false") { return false }
    throw Refusal(message: "expected true or false")
  }

  // MARK: Tokens

  private mutating func integer() throws(Refusal) -> Int64 {
    let start = position
    if position < bytes.endIndex && bytes[position] == UInt8(ascii: "-") { position += 1 }
    while position < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
      position += 1
    }
    guard let value = Int64(String(decoding: bytes[start..<position], as: UTF8.self)) else {
      position = start
      throw Refusal(message: "expected a whole number of at most 64 bits")
    }
    return value
  }

  /// A number as Swift prints a double (`0.5`, `90.0`, `1e-05`): the same double back.
  private mutating func number() throws(Refusal) -> Double {
    let start = position
    while position < bytes.endIndex, Self.numberBytes.contains(bytes[position]) { position += 1 }
    guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite else {
      position = start
      throw Refusal(message: "expected a finite number")
    }
    return value
  }

  private static let numberBytes = Set("0123456789+-.e".utf8)

  /// A JSON string, its escapes decoded.
  private mutating func string() throws(Refusal) -> String {
    try expect("\"")
    var scalars = String.UnicodeScalarView()
    var text: [UInt8] = []
    func flush() {
      scalars.append(contentsOf: String(decoding: text, as: UTF8.self).unicodeScalars)
      text.removeAll()
    }
    while position < bytes.endIndex {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        flush()
        return String(scalars)
      case UInt8(ascii: "\\"):
        flush()
        scalars.append(try escape())
      case 0..<0x20:
        position -= 1
        throw Refusal(message: "a control character in a string")
      default:
        text.append(byte)
      }
    }
    throw Refusal(message: "the line ends inside a string")
  }

  private mutating func escape() throws(Refusal) -> Unicode.Scalar {
    guard position < bytes.endIndex else { throw Refusal(message: "the line ends inside an escape") }
    let byte = bytes[position]
    position += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{8}"
    case UInt8(ascii: "f"): return "\u{c}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let unit = try hexUnit()
      guard (0xD800..<0xDC00).contains(unit) else {
        guard let scalar = Unicode.Scalar(unit) else { throw Refusal(message: "a lone low surrogate") }
        return scalar
      }
      try expect("\\u")
      let low = try hexUnit()
      guard (0xDC00..<0xE000).contains(low),
        let scalar = Unicode.Scalar(0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(low) - 0xDC00))
      else { throw Refusal(message: "a high surrogate without its low one") }
      return scalar
    default:
      position -= 1
      throw Refusal(message: "an unknown escape")
    }
  }

  private mutating func hexUnit() throws(Refusal) -> UInt16 {
    guard bytes.endIndex - position >= 4,
      let unit = UInt16(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
    else { throw Refusal(message: "\\u needs four hexadecimal digits") }
    position += 4
    return unit
  }

  private func starts(with literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard bytes.endIndex - position >= count else { return false }
    return UnsafeBufferPointer(start: literal.utf8Start, count: count).elementsEqual(
      bytes[position..<position + count])
  }

  /// Moves past `literal` when the line continues with it.
  private mutating func skip(_ literal: StaticString) -> Bool {
    guard starts(with: literal) else { return false }
    position += literal.utf8CodeUnitCount
    return true
  }

  private mutating func expect(_ literal: StaticString) throws(Refusal) {
    guard skip(literal) else {
      throw Refusal(
        message: "expected \(literal) as Crease writes it (read other spellings with crease check)")
    }
  }
}
