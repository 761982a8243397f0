import CJSONC
import Crease

/// Parses one line of a version 1 trace (SPEC 2) with json-c.
///
/// One parser reuses one json-c tokener for every line. It accepts exactly what json-c accepts
/// in strict mode with UTF-8 validation, nested at most ``maximumDepth`` deep, and then
/// requires the SPEC's fields and types; anything else is a ``TraceLineError`` with a column.
public final class TraceParser {
  /// The deepest nesting a line may have (json-c's default).
  public static let maximumDepth = JSONNesting.maximumDepth

  // State behind public getters, stored privately. Tuning: private-storage (Docs/Performance.md).
  private var storedUnknownKeys: [UnknownKey] = []
  /// Keys found on the last line that the format does not define (when
  /// ``collectsUnknownKeys`` is set).
  public var unknownKeys: [UnknownKey] { storedUnknownKeys }
  private var storedCollectsUnknownKeys = false
  /// Whether to list unknown keys (`crease check` sets it). A line the fast path takes has none:
  /// it takes only lines whose every key is one their kind defines, so only the lines json-c
  /// reads pay for the walk over their members.
  public var collectsUnknownKeys: Bool {
    get { storedCollectsUnknownKeys }
    set { storedCollectsUnknownKeys = newValue }
  }
  /// Whether plain lines take the fast path; without it json-c reads every line.
  public let usesFastPath: Bool

  private let tokener: UnsafeMutablePointer<json_tokener>
  private let provenParser = ProvenLineParser()

  /// Creates a parser. `usesFastPath: false` reads every line with json-c: the reference the
  /// fast path is checked against (its differential tests and fuzz target), the same records
  /// and errors more slowly.
  public init(usesFastPath: Bool = true) {
    self.usesFastPath = usesFastPath
    tokener = json_tokener_new_ex(Self.maximumDepth)
    json_tokener_set_flags(tokener, Int32(JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8))
  }

  deinit { json_tokener_free(tokener) }

  /// The record on `line` (without its line terminator).
  ///
  /// Plain event lines (every kind but `end`) go through `ProvenLineParser`; every other line,
  /// and every bad one, through json-c, which writes the error.
  @inline(__always) public func parse(_ line: UnsafeRawBufferPointer) throws(TraceLineError) -> TraceRecord {
    // The common lines take the fast path; inlined into the reader's loop, with json-c's path
    // left to a call.
    if usesFastPath, let record = provenParser.parse(line, ignoringUnknownKeys: !storedCollectsUnknownKeys) {
      forgetUnknownKeys()
      return record
    }
    return try parseWithJSONC(line)
  }

  /// Empties ``unknownKeys`` for a line the fast path took, which has none. Asked whether it is
  /// empty first: it nearly always is, and emptying an empty array still calls the runtime.
  @inline(__always) private func forgetUnknownKeys() {
    if storedCollectsUnknownKeys, !storedUnknownKeys.isEmpty {
      storedUnknownKeys.removeAll(keepingCapacity: true)
    }
  }

  /// The record of a line spelled as ``TraceEncoder`` writes it, or spaced as Python's
  /// `json.dumps` spaces it, at the start of `padded`, the line's length, and whether it ends
  /// with `\r\n` rather than `\n`, when either follows it; `nil` for any other line. The
  /// record, and the unknown keys (none), are the ones ``parse(_:)`` gives for the line.
  /// - Complexity: O(*n*) in the length of the line.
  @inline(__always) func canonicalLine(
    atStartOf padded: ZeroPaddedBytes
  ) -> (TraceRecord, length: Int, endsWithCarriageReturn: Bool)? {
    let bytes = padded.bytes
    guard usesFastPath,
      let (record, length) = provenParser.parseCanonicalPrefix(
        padded, ignoringUnknownKeys: !storedCollectsUnknownKeys),
      length < bytes.count
    else { return nil }
    if bytes[length] == 0x0A {
      forgetUnknownKeys()
      return (record, length, false)
    }
    // A CRLF file's lines: left to the general path, the template ran twice for each.
    guard bytes[length] == 0x0D, length &+ 1 < bytes.count, bytes[length &+ 1] == 0x0A else { return nil }
    forgetUnknownKeys()
    return (record, length, true)
  }

  /// The record on `line` as json-c reads it, listing its unknown keys if they are collected.
  private func parseWithJSONC(_ line: UnsafeRawBufferPointer) throws(TraceLineError) -> TraceRecord {
    storedUnknownKeys.removeAll(keepingCapacity: true)
    json_tokener_reset(tokener)
    // Safe because json-c reads exactly `line.count` bytes of the lent line, which is at most a
    // megabyte or so (an `Int32` holds it), and keeps no pointer into it after the call; an
    // empty line's dangling base is never read.
    let base = line.baseAddress?.assumingMemoryBound(to: CChar.self) ?? UnsafePointer(bitPattern: 1)!
    guard let root = json_tokener_parse_ex(tokener, base, Int32(line.count)) else {
      throw syntaxError(line)
    }
    defer { json_object_put(root) }
    // Strict mode refuses anything but whitespace after the value, except that json-c stops at
    // a NUL byte as at the end of the text: the whole line must have been read.
    if json_tokener_get_parse_end(tokener) < line.count, let nul = line.firstIndex(of: 0) {
      throw Self.nulByte(at: nul)
    }
    // json-c checks each sequence's shape, not its value: the rest of UTF-8's rules here, in
    // json-c's words.
    if let offset = UTF8Check.firstInvalidOffset(in: line) {
      throw TraceLineError(column: offset + 1, message: "invalid JSON: invalid utf-8 string")
    }
    guard json_object_get_type(root) == json_type_object else {
      throw TraceLineError(
        column: JSONLocator.column(of: [], in: line),
        message: "expected a JSON object, found \(JSONObjectReader.typeName(root))")
    }
    let fields = JSONObjectReader(object: root, line: line)
    do throws(JSONValueError) {
      let kind = try fields.string(try fields.required("kind"), key: "kind")
      let record = try Self.record(kind: kind, fields: fields)
      if storedCollectsUnknownKeys { collectUnknownKeys(kind: kind, fields: fields) }
      return record
    } catch {
      throw TraceLineError(column: error.column, message: error.message)
    }
  }

  private static func nulByte(at index: Int) -> TraceLineError {
    TraceLineError(column: index + 1, message: "NUL byte at column \(index + 1): a trace line is JSON text")
  }

  private func syntaxError(_ line: UnsafeRawBufferPointer) -> TraceLineError {
    // JSON text never holds a raw NUL (not even in a string); json-c would call it the end of data.
    if let nul = line.firstIndex(of: 0) { return Self.nulByte(at: nul) }
    let error = json_tokener_get_error(tokener)
    if error == json_tokener_continue {
      return TraceLineError(
        column: line.count + 1, message: "unexpected end of line: the JSON object is incomplete")
    }
    let offset = json_tokener_get_parse_end(tokener)
    let reason = String(cString: json_tokener_error_desc(error))
    let detail = error == json_tokener_error_depth ? " (more than \(Self.maximumDepth) levels)" : ""
    return TraceLineError(column: offset + 1, message: "invalid JSON: \(reason)\(detail)")
  }

  // MARK: Kinds

  private static func record(kind name: String, fields: JSONObjectReader) throws(JSONValueError)
    -> TraceRecord
  {
    if name == "header" { return .header(try header(fields)) }
    guard let kind = EventKind(name: name) else {
      throw fields.error(
        "kind", "unknown kind '\(name)'.\(Suggestion.didYouMean(name, in: ["header"] + EventKind.names))")
    }
    return .event(Event(t: try time(fields), try payload(kind, fields: fields)))
  }

  /// The event of `kind` that `fields` describe, its time aside: a trace line's, or a scenario
  /// file's event (which says when in seconds).
  package static func payload(_ kind: EventKind, fields: JSONObjectReader) throws(JSONValueError)
    -> Event.Payload
  {
    let payload: Event.Payload
    switch kind {
    case .hinge: payload = .hinge(try hinge(fields))
    case .frame:
      payload = .frame(
        Frame(
          stream: try stream(fields), pts: try pts(fields), camera: try optionalCamera(fields, key: "camera"))
      )
    case .drop:
      // The attachment may be missing (SPEC 2): a drop without a reason still bridges its delta.
      let reason = try fields.optional("reason").map { value throws(JSONValueError) in
        try fields.name(value, key: "reason", as: DropReason.init(name:), allowed: DropReason.names)
      }
      payload = .drop(Drop(stream: try stream(fields), pts: try pts(fields), reason: reason))
    case .input:
      payload = .input(
        stream: try stream(fields), camera: try camera(try fields.required("camera"), fields, key: "camera"))
    case .streamEnd: payload = .streamEnd(stream: try stream(fields))
    case .direction: payload = .direction(try direction(fields))
    case .display:
      let display = try fields.name(
        try fields.required("display"), key: "display", as: Display.init(name:),
        allowed: Display.names)
      let fullScreen = try fields.bool(try fields.required("fullScreen"), key: "fullScreen")
      payload = .display(DisplayChange(display: display, fullScreen: fullScreen))
    case .app:
      payload = .app(
        try fields.name(
          try fields.required("state"), key: "state", as: AppState.init(name:),
          allowed: AppState.names))
    case .session:
      let running = try fields.bool(try fields.required("running"), key: "running")
      let preview = try fields.optional("previewVisible").map { v throws(JSONValueError) in
        try fields.bool(v, key: "previewVisible")
      }
      payload = .session(SessionState(running: running, previewVisible: preview))
    case .mark: payload = .mark(label: try fields.string(try fields.required("label"), key: "label"))
    case .end: payload = .end
    }
    return payload
  }

  private static func time(_ fields: JSONObjectReader) throws(JSONValueError) -> Nanoseconds {
    let t = try fields.integer(try fields.required("t"), key: "t")
    guard t >= 0 else { throw fields.error("t", "'t' must not be negative (\(t))") }
    return Nanoseconds(t)
  }

  private static func header(_ fields: JSONObjectReader) throws(JSONValueError) -> TraceHeader {
    let format = try fields.string(try fields.required("format"), key: "format")
    guard format == "crease-trace" else {
      throw fields.error("format", "unknown trace format '\(format)'; expected 'crease-trace'")
    }
    let version = try fields.integer(try fields.required("version"), key: "version")
    guard version == TraceHeader.currentVersion else {
      throw fields.error(
        "version",
        "unsupported trace version \(version); this crease reads version \(TraceHeader.currentVersion)")
    }
    var header = TraceHeader()
    header.device = try fields.optional("device").map { v throws(JSONValueError) in
      try fields.string(v, key: "device")
    }
    header.os = try fields.optional("os").map { v throws(JSONValueError) in try fields.string(v, key: "os") }
    if let streams = fields.optional("streams") {
      let streamFields = try fields.nested(streams, key: "streams")
      guard !fields.memberNameHoldsNUL(under: "streams") else {
        throw fields.error(
          "streams", "a stream name in 'streams' holds a NUL (\\u0000), which is not supported")
      }
      for name in streamFields.keys {
        let stream = try streamFields.nested(try streamFields.required(name), key: name)
        let fps = try stream.number(try stream.required("fps"), key: "fps")
        guard fps > 0 else {
          throw stream.error("fps", "'\(stream.qualified("fps"))' must be greater than 0")
        }
        header.nominalFrameRates[StreamName(rawValue: name)] = fps
      }
    }
    return header
  }

  private static func hinge(_ fields: JSONObjectReader) throws(JSONValueError) -> HingeDelivery? {
    switch fields.member("hinge") {
    case .absent: break
    case .null: return nil
    case .value(let value):
      throw fields.error(
        "hinge", "'hinge' may only be null (no hinge), not \(JSONObjectReader.typeName(value))")
    }
    let degrees = fields.member("angle")
    let radians = fields.member("angleRad")
    let status = fields.member("status")
    switch (degrees, radians, status) {
    case (.null, .absent, .null), (.absent, .null, .null): return nil
    case (.absent, .absent, _): throw fields.error(nil, "missing 'angle' (degrees) or 'angleRad' (radians)")
    case (.value, .value, _): throw fields.error("angleRad", "give 'angle' or 'angleRad', not both")
    default: break
    }
    let angle: HingeAngle
    if case .value(let value) = degrees {
      angle = .degrees(try fields.number(value, key: "angle"))
    } else if case .value(let value) = radians {
      let number = try fields.number(value, key: "angleRad")
      angle = .radians(number)
      // Finite in radians is not enough: 1e308 radians is infinite in degrees.
      guard angle.degrees.isFinite else {
        throw fields.error("angleRad", "'angleRad' \(number) is not a finite number of degrees")
      }
    } else {
      throw fields.error(
        degrees.isNull ? "angle" : "angleRad", "the angle may be null only together with 'status' (no hinge)")
    }
    guard case .value(let statusValue) = status else {
      throw fields.error(
        status.isNull ? "status" : nil, "'status' is missing or null while the angle is given")
    }
    let hingeStatus = try fields.name(
      statusValue, key: "status", as: HingeStatus.init(name:), allowed: HingeStatus.names)
    return HingeDelivery(angle: angle, status: hingeStatus)
  }

  private static func stream(_ fields: JSONObjectReader) throws(JSONValueError) -> StreamName {
    guard let value = fields.optional("stream") else { return .video }
    let name = try fields.string(value, key: "stream")
    guard !name.isEmpty else { throw fields.error("stream", "'stream' must not be empty") }
    return StreamName(rawValue: name)
  }

  private static func pts(_ fields: JSONObjectReader) throws(JSONValueError) -> PresentationTime {
    let value = try fields.required("pts")
    if json_object_get_type(value) == json_type_int {
      return PresentationTime(nanoseconds: try fields.integer(value, key: "pts"))
    }
    guard json_object_get_type(value) == json_type_object else {
      throw fields.error(
        "pts",
        "'pts' must be integer nanoseconds or a CMTime {\"value\":V,\"timescale\":S}, not "
          + JSONObjectReader.typeName(value))
    }
    let time = try fields.nested(value, key: "pts")
    let ticks = try time.integer(try time.required("value"), key: "value")
    let timescale = try time.integer(try time.required("timescale"), key: "timescale")
    guard timescale > 0, let scale = Int32(exactly: timescale) else {
      throw time.error("timescale", "'pts.timescale' must be between 1 and \(Int32.max) (\(timescale))")
    }
    guard let pts = PresentationTime(value: ticks, timescale: scale) else {
      throw time.error(
        "value", "'pts' is out of range: \(ticks)/\(timescale) s does not fit in 64-bit nanoseconds")
    }
    return pts
  }

  private static func camera(
    _ value: OpaquePointer, _ fields: JSONObjectReader, key: String
  ) throws(JSONValueError) -> Camera {
    try fields.name(value, key: key, as: Camera.init(name:), allowed: Camera.names)
  }

  private static func optionalCamera(_ fields: JSONObjectReader, key: String) throws(JSONValueError)
    -> Camera?
  {
    guard let value = fields.optional(key) else { return nil }
    return try camera(value, fields, key: key)
  }

  private static func direction(_ fields: JSONObjectReader) throws(JSONValueError) -> DirectionUpdate {
    let view = try fields.optional("view").map { v throws(JSONValueError) in
      ViewName(rawValue: try fields.string(v, key: "view"))
    }
    let (toward, innerFrontFirst) = try cameraList(fields, key: "toward")
    let (away, _) = try cameraList(fields, key: "away")
    if let both = toward.intersection(away).cameras.first {
      throw fields.error("away", "camera '\(both.name)' is listed both toward and away")
    }
    return DirectionUpdate(
      view: view ?? .main, toward: toward, away: away, innerFrontListedFirst: innerFrontFirst)
  }

  /// The cameras a list names, and whether it names `innerFront` before `outerFront` (the one
  /// order that decides anything, SPEC 4.7).
  private static func cameraList(_ fields: JSONObjectReader, key: String) throws(JSONValueError) -> (
    CameraSet, innerFrontFirst: Bool
  ) {
    let list = try fields.required(key)
    guard json_object_get_type(list) == json_type_array else {
      throw fields.error(
        key, "'\(key)' must be an array of camera names, not \(JSONObjectReader.typeName(list))")
    }
    var set = CameraSet()
    var innerFrontFirst = false
    for index in 0..<json_object_array_length(list) {
      guard let element = json_object_array_get_idx(list, index) else {
        throw fields.error(key, "'\(key)' must list camera names, not null")
      }
      let camera = try camera(element, fields, key: key)
      if camera == .innerFront && !set.contains(.outerFront) { innerFrontFirst = true }
      set.insert(CameraSet(camera))
    }
    return (set, innerFrontFirst)
  }

  // MARK: Unknown keys

  /// The keys each record kind defines besides `t` and `kind`.
  package static func knownKeys(_ kind: EventKind?) -> Set<String> {
    Set(TraceKey.defined(by: kind).map(\.rawValue))
  }

  private func collectUnknownKeys(kind: String, fields: JSONObjectReader) {
    let known = Self.knownKeys(EventKind(name: kind))
    for key in fields.keys where key != "t" && key != "kind" && !known.contains(key) {
      storedUnknownKeys.append(UnknownKey(name: key, column: fields.column(of: key)))
    }
  }
}

extension JSONObjectReader.Member {
  fileprivate var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}
