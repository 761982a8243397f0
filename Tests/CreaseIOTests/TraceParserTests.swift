import Crease
import CreaseIO
import Testing

/// Parses one line the way the replay does.
func parse(_ line: String) throws(TraceLineError) -> TraceRecord {
  let parser = TraceParser()
  let bytes = Array(line.utf8)
  let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
  defer { buffer.deallocate() }
  buffer.copyBytes(from: bytes)
  return try parser.parse(UnsafeRawBufferPointer(buffer))
}

/// The error a bad line gets.
func error(_ line: String) -> TraceLineError? {
  do {
    _ = try parse(line)
    return nil
  } catch {
    return error
  }
}

@Suite("Trace parser: every kind")
struct TraceParserKindTests {
  @Test("header with stream rates")
  func header() throws {
    let record = try parse(
      #"{"kind":"header","format":"crease-trace","version":1,"device":"iPhone Duo","os":"27.1","streams":{"video":{"fps":30}}}"#
    )
    #expect(
      record
        == .header(TraceHeader(device: "iPhone Duo", os: "27.1", nominalFrameRates: [.video: 30])))
  }

  @Test("hinge in degrees, in radians, and with no hinge")
  func hinge() throws {
    #expect(
      try parse(#"{"t":5,"kind":"hinge","angle":90.5,"status":"partiallyOpen"}"#)
        == .event(Event(t: 5, .hinge(HingeDelivery(angle: .degrees(90.5), status: .partiallyOpen)))))
    #expect(
      try parse(#"{"t":5,"kind":"hinge","angleRad":1,"status":"unknown"}"#)
        == .event(Event(t: 5, .hinge(HingeDelivery(angle: .radians(1), status: .unknown)))))
    #expect(
      try parse(#"{"t":5,"kind":"hinge","angle":null,"status":null}"#) == .event(Event(t: 5, .hinge(nil))))
    #expect(try parse(#"{"t":5,"kind":"hinge","hinge":null}"#) == .event(Event(t: 5, .hinge(nil))))
    #expect(
      try parse(#"{"t":5,"kind":"hinge","angle":359.5,"status":"fullyOpen"}"#)
        == .event(Event(t: 5, .hinge(HingeDelivery(angle: .degrees(359.5), status: .fullyOpen)))))
  }

  @Test("frame with integer and CMTime pts, default stream, optional camera")
  func frame() throws {
    #expect(
      try parse(#"{"t":1,"kind":"frame","pts":33333333}"#)
        == .event(Event(t: 1, .frame(Frame(pts: PresentationTime(nanoseconds: 33_333_333))))))
    #expect(
      try parse(
        #"{"t":1,"kind":"frame","stream":"aux","pts":{"value":1001,"timescale":30000},"camera":"innerFront"}"#
      )
        == .event(
          Event(
            t: 1,
            .frame(
              Frame(stream: "aux", pts: PresentationTime(value: 1001, timescale: 30000)!, camera: .innerFront)
            ))))
  }

  @Test("drop, input, direction, display, app, session, mark, streamEnd, end")
  func otherKinds() throws {
    #expect(
      try parse(#"{"t":2,"kind":"drop","stream":"video","pts":10,"reason":"outOfBuffers"}"#)
        == .event(Event(t: 2, .drop(Drop(pts: PresentationTime(nanoseconds: 10), reason: .outOfBuffers)))))
    // The didDrop attachment may be missing (SPEC 2): the drop is read, without a reason.
    #expect(
      try parse(#"{"t":2,"kind":"drop","stream":"video","pts":10}"#)
        == .event(Event(t: 2, .drop(Drop(pts: PresentationTime(nanoseconds: 10), reason: nil)))))
    #expect(
      try parse(#"{"t":2,"kind":"input","camera":"virtualFront"}"#)
        == .event(Event(t: 2, .input(stream: .video, camera: .virtualFront))))
    #expect(
      try parse(#"{"t":2,"kind":"direction","toward":["outerFront"],"away":["innerFront","backWide"]}"#)
        == .event(
          Event(
            t: 2,
            .direction(
              DirectionUpdate(toward: CameraSet(.outerFront), away: CameraSet([.innerFront, .backWide]))))))
    for (list, innerFrontFirst) in [
      (#"["innerFront","backWide","outerFront"]"#, true), (#"["outerFront","innerFront"]"#, false),
      (#"["innerFront"]"#, false),
    ] {
      guard
        case .event(let event) = try parse(#"{"t":2,"kind":"direction","toward":"# + list + #","away":[]}"#),
        case .direction(let update) = event.payload
      else {
        Issue.record("\(list): not a direction update")
        continue
      }
      #expect(update.innerFrontListedFirst == innerFrontFirst, "\(list)")
    }
    #expect(
      try parse(#"{"t":2,"kind":"display","display":"inner","fullScreen":true}"#)
        == .event(Event(t: 2, .display(DisplayChange(display: .inner, fullScreen: true)))))
    #expect(
      try parse(#"{"t":2,"kind":"app","state":"background"}"#) == .event(Event(t: 2, .app(.background))))
    #expect(
      try parse(#"{"t":2,"kind":"session","running":true,"previewVisible":false}"#)
        == .event(Event(t: 2, .session(SessionState(running: true, previewVisible: false)))))
    #expect(
      try parse(#"{"t":2,"kind":"session","running":false}"#)
        == .event(Event(t: 2, .session(SessionState(running: false, previewVisible: nil)))))
    #expect(
      try parse(#"{"t":2,"kind":"mark","label":"a \"b\""}"#) == .event(Event(t: 2, .mark(label: #"a "b""#))))
    #expect(
      try parse(#"{"t":8,"kind":"streamEnd","stream":"video2"}"#)
        == .event(Event(t: 8, .streamEnd(stream: "video2"))))
    #expect(try parse(#"{"t":8,"kind":"streamEnd"}"#) == .event(Event(t: 8, .streamEnd(stream: .video))))
    #expect(try parse(#"{"kind":"end","t":9}"#) == .event(Event(t: 9, .end)))
  }

  @Test("key order is free and whitespace is allowed")
  func keyOrder() throws {
    #expect(
      try parse(#"  { "label" : "x" , "kind":"mark", "t" : 0 }  "#) == .event(Event(t: 0, .mark(label: "x"))))
  }

  @Test("the largest t is accepted")
  func largestTime() throws {
    #expect(try parse(#"{"t":9223372036854775807,"kind":"end"}"#) == .event(Event(t: .max, .end)))
  }
}

@Suite("Trace parser: bad input")
struct TraceParserBadInputTests {
  @Test(
    "each bad line gets a message and the column of the problem",
    arguments: [
      (#"[1,2]"#, 1, "expected a JSON object"),
      (#"{"t":1,"kind":"mark","label":"x""#, 33, "incomplete"),
      (#"{"t":1,"kind":"mark","label":"x"} trailing"#, 35, "invalid JSON"),
      (#"{"t":1,"kind":"mark","label":"x"}{"t":2}"#, 34, "invalid JSON"),
      (#"{"t":1,"kind":"mark","label":"x",}"#, 34, "invalid JSON"),
      (#"{"kind":"mark","label":"x"}"#, 1, "missing 't'"),
      (#"{"t":1,"label":"x"}"#, 1, "missing 'kind'"),
      (#"{"t":"1","kind":"end"}"#, 6, "'t' must be an integer, not a string"),
      (#"{"t":1.5,"kind":"end"}"#, 6, "'t' must be an integer, not a fractional number"),
      (#"{"t":-1,"kind":"end"}"#, 6, "must not be negative"),
      (#"{"t":99999999999999999999,"kind":"end"}"#, 6, "out of range"),
      (#"{"t":9223372036854775808,"kind":"end"}"#, 6, "out of range"),
      (#"{"t":1,"kind":"hinge","angle":NaN,"status":"closed"}"#, 31, "finite"),
      (#"{"t":1,"kind":"hinge","angle":1e400,"status":"closed"}"#, 31, "finite"),
      (#"{"t":1,"kind":"hinge","angle":-Infinity,"status":"closed"}"#, 31, "finite"),
      (#"{"t":1,"kind":"hinge","angle":1,"status":"closd"}"#, 42, "Did you mean 'closed'?"),
      (#"{"t":1,"kind":"hinge","angle":1,"angleRad":1,"status":"closed"}"#, 44, "not both"),
      (#"{"t":1,"kind":"hinge","status":"closed"}"#, 1, "missing 'angle'"),
      (#"{"t":1,"kind":"hinge","angle":null,"status":"closed"}"#, 31, "null only together"),
      (#"{"t":1,"kind":"hinge","hinge":{}}"#, 31, "may only be null"),
      (#"{"t":1,"kind":"frmae","pts":1}"#, 15, "Did you mean 'frame'?"),
      (#"{"t":1,"kind":"frame","pts":"1"}"#, 29, "'pts' must be integer nanoseconds or a CMTime"),
      (#"{"t":1,"kind":"frame","pts":{"value":1,"timescale":0}}"#, 52, "'pts.timescale' must be between"),
      (#"{"t":1,"kind":"frame","pts":{"value":9223372036854775806,"timescale":1}}"#, 38, "out of range"),
      (#"{"t":1,"kind":"frame","pts":1,"camera":"selfie"}"#, 40, "unknown camera"),
      (#"{"t":1,"kind":"drop","pts":1,"reason":"late"}"#, 39, "unknown reason"),
      (
        #"{"t":1,"kind":"direction","toward":["outerFront"],"away":["outerFront"]}"#, 58,
        "both toward and away"
      ),
      (#"{"t":1,"kind":"direction","toward":"outerFront","away":[]}"#, 36, "must be an array"),
      (#"{"t":1,"kind":"display","display":"inner"}"#, 1, "missing 'fullScreen'"),
      (#"{"t":1,"kind":"session","running":"yes"}"#, 35, "must be true or false"),
      (#"{"kind":"header","format":"crease-trace","version":2}"#, 52, "unsupported trace version 2"),
      (#"{"kind":"header","format":"other","version":1}"#, 27, "unknown trace format"),
      (
        #"{"kind":"header","format":"crease-trace","version":1,"streams":{"video":{"fps":0}}}"#, 80,
        "'streams.video.fps'"
      ),
      ("\u{00}\u{01}binary", 1, "NUL byte at column 1"),
      ("{\"t\":1,\"kind\":\"mark\",\"label\":\"a\u{00}b\"}", 32, "NUL byte at column 32"),
      ("{\"t\":1,\"kind\":\"mark\",\"label\":\"a\"}\u{00}", 34, "NUL byte at column 34"),
      (
        #"{"kind":"header","format":"crease-trace","version":1,"streams":{"vide\u0000":{"fps":30}}}"#, 64,
        "holds a NUL"
      ),
      (#"{"t":1,"kind":"hinge","angle":1e999999,"status":"closed"}"#, 31, "finite"),
    ] as [(String, Int, String)])
  func badLine(line: String, column: Int, message: String) {
    let found = error(line)
    #expect(found?.message.contains(message) == true, "\(found?.message ?? "no error") for \(line)")
    #expect(found?.column == column, "column for \(line)")
  }

  @Test("numbers at the edge of 64 bits: exact where they fit, and integer literals as numbers")
  func edgeNumbers() throws {
    // json-c saturates integer literals beyond 64 bits; they are read back from the line.
    #expect(
      try parse(#"{"t":0,"kind":"hinge","angle":100000000000000000000,"status":"closed"}"#)
        == .event(Event(t: 0, .hinge(HingeDelivery(angle: .degrees(1e20), status: .closed)))))
    #expect(
      try parse(#"{"t":0,"kind":"hinge","angle":-18446744073709551617,"status":"closed"}"#)
        // The nearest double, -2^64.
        == .event(Event(t: 0, .hinge(HingeDelivery(angle: .degrees(-0x1p64), status: .closed))))
    )
    #expect(
      try parse(#"{"t":9223372036854775807,"kind":"frame","pts":-9223372036854775808}"#)
        == .event(Event(t: .max, .frame(Frame(pts: PresentationTime(nanoseconds: .min))))))
  }

  @Test("deep nesting is refused, not recursed into")
  func deepNesting() {
    let line = #"{"t":1,"kind":"mark","label":"x","deep":"# + String(repeating: "[", count: 100_000) + "}"
    #expect(
      error(line)?.message.contains("too deep") == true || error(line)?.message.contains("32 levels") == true)
  }

  @Test("invalid UTF-8 in a string is refused")
  func invalidUTF8() {
    let parser = TraceParser()
    let bytes: [UInt8] = Array(#"{"t":1,"kind":"mark","label":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
    #expect(throws: TraceLineError.self) { try bytes.withUnsafeBytes { try parser.parse($0) } }
  }

  @Test("unknown keys are listed with their columns when asked")
  func unknownKeys() throws {
    let parser = TraceParser()
    parser.collectsUnknownKeys = true
    let bytes = Array(#"{"t":1,"kind":"mark","label":"x","colour":"red"}"#.utf8)
    _ = try bytes.withUnsafeBytes { try parser.parse($0) }
    #expect(parser.unknownKeys == [UnknownKey(name: "colour", column: 43)])
  }

  @Test("a plain line after one with unknown keys lists none: the fast path reads it, and forgets the last")
  func unknownKeysForgotten() throws {
    let parser = TraceParser()
    parser.collectsUnknownKeys = true
    for (line, expected) in [
      (#"{"t":1,"kind":"mark","label":"x","colour":"red"}"#, ["colour"]),
      (#"{"t":2,"kind":"mark","label":"y"}"#, []),
      (#"{"t":3,"kind":"hinge","angle":90,"status":"closed","stream":"video"}"#, ["stream"]),
      (#"{ "t" : 4, "kind" : "hinge", "angle" : 90, "status" : "closed" }"#, []),
    ] {
      _ = try Array(line.utf8).withUnsafeBytes { try parser.parse($0) }
      #expect(parser.unknownKeys.map(\.name) == expected, "\(line)")
    }
    // A reader takes a line spelled as TraceEncoder writes it where it lies in its buffer.
    let reader = JSONLinesReader(
      source: MemorySource(
        Array(
          "{\"t\":5,\"kind\":\"mark\",\"label\":\"z\",\"n\":1}\n{\"t\":6,\"kind\":\"mark\",\"label\":\"w\"}\n"
            .utf8)))
    reader.collectsUnknownKeys = true
    _ = try reader.next()
    #expect(reader.unknownKeys.map(\.name) == ["n"])
    _ = try reader.next()
    #expect(reader.unknownKeys.isEmpty)
  }
}
