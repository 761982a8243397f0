import Crease
import CreaseRecording
import CreaseSynth
import Testing

@testable import CreaseIO

/// The fast path against json-c, the reference: whatever the fast path accepts, json-c accepts
/// with the same values (compared through their descriptions, so -0.0 and 0.0 differ).
enum FastPathDifferential {
  /// json-c's verdict, and the unknown keys json-c lists for the line.
  static func reference(_ bytes: [UInt8]) -> (Result<TraceRecord, TraceLineError>, unknownKeys: [UnknownKey])
  {
    let parser = TraceParser(usesFastPath: false)
    parser.collectsUnknownKeys = true
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(TraceLineError) in try parser.parse(buffer) }
    }
    return (result, parser.unknownKeys)
  }

  /// The fast path's record, members of unknown keys skipped when `ignoringUnknownKeys` (a
  /// replay's parse) or left to json-c (`crease check`'s, which lists them).
  static func fast(_ bytes: [UInt8], ignoringUnknownKeys: Bool = false) -> TraceRecord? {
    bytes.withUnsafeBytes { ProvenLineParser().parse($0, ignoringUnknownKeys: ignoringUnknownKeys) }
  }

  /// The record the canonical template takes from `bytes` where a reader finds the line, in
  /// its buffer with zeros after it (``ZeroPaddedBytes``), right after the line or after its
  /// newline; `nil` when it leaves the line to the general path.
  static func fromZeroPaddedBuffer(
    _ bytes: [UInt8], newline: Bool, ignoringUnknownKeys: Bool
  ) -> TraceRecord? {
    let lent = bytes.count + (newline ? 1 : 0)
    let buffer = bytes + (newline ? [0x0A] : []) + [UInt8](repeating: 0, count: ZeroPaddedBytes.padding)
    return buffer.withUnsafeBytes { all in
      let padded = ZeroPaddedBytes(unsafeFollowedByZeros: UnsafeRawBufferPointer(rebasing: all[..<lent]))
      guard
        let (record, length) = ProvenLineParser().parseCanonicalPrefix(
          padded, ignoringUnknownKeys: ignoringUnknownKeys),
        length == bytes.count
      else { return nil }
      return record
    }
  }

  /// `nil` when the two agree, else what differs: whatever either parse of the fast path takes,
  /// json-c takes with the same values, and the parse that leaves unknown keys to json-c takes
  /// no line json-c lists one for. The template's copy that reads a zero-padded buffer without
  /// checking its count takes what the checked copy takes, with the same values.
  static func disagreement(_ bytes: [UInt8]) -> String? {
    for ignoringUnknownKeys in [false, true] {
      let checked = bytes.withUnsafeBytes {
        ProvenLineParser().parseCanonical($0, ignoringUnknownKeys: ignoringUnknownKeys)
      }
      for newline in [false, true] {
        let unchecked = fromZeroPaddedBuffer(
          bytes, newline: newline, ignoringUnknownKeys: ignoringUnknownKeys)
        guard String(describing: unchecked) == String(describing: checked) else {
          return "over zero-padded bytes (newline: \(newline)): \(String(describing: unchecked)), checked: "
            + String(describing: checked)
        }
      }
      guard let fast = fast(bytes, ignoringUnknownKeys: ignoringUnknownKeys) else { continue }
      let (expected, unknownKeys) = reference(bytes)
      switch expected {
      case .success(let record):
        // Taken without ignoring, a line has no unknown key: `crease check` lists none for it.
        guard unknownKeys.isEmpty || ignoringUnknownKeys else {
          return "json-c lists unknown keys \(unknownKeys.map(\.name))"
        }
        guard String(describing: record) == String(describing: fast) else {
          return "values differ: json-c \(record), fast \(fast)"
        }
      case .failure(let error):
        return "json-c refuses what the fast path accepted: \(error.message)"
      }
    }
    return nil
  }
}

@Suite("Fast JSON path: the same accepted set and values as json-c")
struct ProvenLineParserTests {
  static let canonical = [
    #"{"t":8608746,"kind":"frame","stream":"video","pts":33333333,"camera":"innerFront"}"#,
    #"{"t":17834370,"kind":"hinge","angle":90.67999992000001,"status":"partiallyOpen"}"#,
    #"{"t":26423467,"kind":"drop","stream":"video","pts":33333334,"reason":"frameWasLate"}"#,
    #"{"t":26423467,"kind":"drop","stream":"video","pts":33333334}"#,
    #"{"t":62789856,"kind":"mark","label":"m7"}"#,
    #"{"t":0,"kind":"hinge","angleRad":0.7,"status":"closed"}"#,
    #"{ "t" : 5 , "kind" : "hinge" , "angle" : -12 , "status" : "unknown" }"#,
    #"{"kind":"frame","pts":-5,"t":1}"#,
    #"{"t":7000000,"kind":"session","running":false,"previewVisible":false}"#,
    #"{"t":7,"kind":"session","running":true}"#,
    #"{"t":11965931026,"kind":"app","state":"foreground"}"#,
    #"{"t":11965931026,"kind":"display","display":"outer","fullScreen":true}"#,
    #"{"t":11965931026,"kind":"direction","view":"main","toward":["outerFront"],"away":["innerFront","backWide"]}"#,
    #"{ "t" : 3 , "kind" : "direction" , "toward" : [ "innerFront" , "outerFront" ] , "away" : [ ] }"#,
    #"{"t":11965931026,"kind":"input","stream":"video","camera":"virtualFront"}"#,
    #"{"t":9,"kind":"streamEnd","stream":"video2"}"#,
  ]

  @Test("every key the fast path takes, spelled in any place on the line, is one its kinds define")
  func keysFromOneTable() throws {
    let defined = Set([TraceKey.t, .kind] + ProvenLineParser.kinds.flatMap { TraceKey.defined(by: $0) })
    #expect(Set(ProvenLineParser.keys) == defined)
    #expect(!ProvenLineParser.kinds.contains(.end), "an end line is json-c's")
    // A mark whose label key comes first, then last (the word look-up and the byte-by-byte
    // fallback near the end of a line): both take the fast path.
    let parser = ProvenLineParser()
    for line in [#"{"label":"x","t":1,"kind":"mark"}"#, #"{"t":1,"kind":"mark","label":"x"}"#] {
      let record = Array(line.utf8).withUnsafeBytes { parser.parseMembers($0) }
      #expect(record == .event(Event(t: 1, .mark(label: "x"))), "\(line)")
    }
  }

  @Test("canonical lines take the fast path, with json-c's values", arguments: canonical)
  func canonicalLines(line: String) throws {
    let bytes = Array(line.utf8)
    #expect(FastPathDifferential.fast(bytes) != nil, "the fast path takes \(line)")
    #expect(FastPathDifferential.disagreement(bytes) == nil)
  }

  @Test("lines as TraceEncoder writes them take the canonical template, with the general path's values")
  func canonicalTemplate() throws {
    let events: [Event] = [
      Event(t: 17_834_370, .hinge(HingeDelivery(angle: .degrees(90.67999992000001), status: .partiallyOpen))),
      Event(t: 0, .hinge(HingeDelivery(angle: .degrees(-12), status: .unknown))),
      Event(
        t: 8_608_746,
        .frame(Frame(stream: .video, pts: PresentationTime(nanoseconds: 33_333_333), camera: .innerFront))),
      Event(t: 1, .frame(Frame(stream: "depth", pts: PresentationTime(nanoseconds: -5)))),
      Event(
        t: 26_423_467, .drop(Drop(pts: PresentationTime(nanoseconds: 33_333_334), reason: .frameWasLate))),
      Event(t: 26_423_468, .drop(Drop(pts: PresentationTime(nanoseconds: 33_333_335), reason: nil))),
      Event(t: 62_789_856, .mark(label: "m7")),
      Event(t: 9, .mark(label: "")),
    ]
    for event in events {
      var compact: [UInt8] = []
      TraceEncoder.encode(.event(event), into: &compact)
      compact.removeLast()  // the newline
      for line in [compact, Self.spacedAsJSONDumps(compact)] {
        let text = String(decoding: line, as: UTF8.self)
        let canonical = line.withUnsafeBytes { ProvenLineParser().parseCanonical($0) }
        let members = line.withUnsafeBytes { ProvenLineParser().parseMembers($0) }
        #expect(canonical == .event(event), "\(text)")
        #expect(canonical == members, "\(text)")
        #expect(FastPathDifferential.disagreement(line) == nil, "\(text)")
      }
    }
    // Lines spaced otherwise, reordered or in radians are the general path's.
    let otherwise =
      Self.canonical.suffix(3) + [
        #"{"t": 1,"kind": "mark","label": "spaced after colons only"}"#,
        #"{"t":1, "kind":"mark", "label":"spaced after commas only"}"#,
        #"{"t": 1, "kind": "frame", "stream": "video", "pts":2}"#,
        #"{"t": 1, "kind": "hinge", "angle": 90.5,  "status": "flat"}"#,
        #"{"t":  1, "kind": "mark", "label": "x"}"#,
        #"{ "t": 1, "kind": "mark", "label": "x"}"#,
      ]
    for line in otherwise {
      let bytes = Array(line.utf8)
      #expect(bytes.withUnsafeBytes { ProvenLineParser().parseCanonical($0) } == nil, "\(line)")
      #expect(FastPathDifferential.disagreement(bytes) == nil, "\(line)")
    }
  }

  /// `line` as Python's `json.dumps` spaces it by default: a space after every `:` and `,`
  /// outside strings.
  static func spacedAsJSONDumps(_ line: [UInt8]) -> [UInt8] {
    var spaced: [UInt8] = []
    var inString = false
    var escaped = false
    for byte in line {
      spaced.append(byte)
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",") {
        spaced.append(0x20)
      }
    }
    return spaced
  }

  @Test("a spaced line with members of unknown keys after its fields takes the spaced template")
  func spacedUnknownMembers() {
    let line = Array(
      #"{"t": 3, "kind": "frame", "stream": "video2", "pts": 4, "camera": "backWide", "seq": 7}"#.utf8)
    let record = line.withUnsafeBytes { ProvenLineParser().parseCanonical($0, ignoringUnknownKeys: true) }
    let frame = Frame(stream: "video2", pts: PresentationTime(nanoseconds: 4), camera: .backWide)
    #expect(record == .event(Event(t: 3, .frame(frame))))
    #expect(line.withUnsafeBytes { ProvenLineParser().parseCanonical($0) } == nil, "crease check's parse")
    #expect(FastPathDifferential.disagreement(line) == nil)
  }

  @Test(
    "every line json-c must decide is left to it, and what the fast path takes, json-c takes alike",
    arguments: [
      // Escapes, \u0000, surrogates, invalid UTF-8, control bytes.
      #"{"t":1,"kind":"mark","label":"a\nb"}"#, #"{"t":1,"kind":"mark","label":"\u0000"}"#,
      #"{"t":1,"kind":"mark","label":"\ud800"}"#, #"{"t":1,"kind":"mark","label":"\ud83d\ude00"}"#,
      "{\"t\":1,\"kind\":\"mark\",\"label\":\"caf\u{E9}\"}",
      "{\"t\":1,\"kind\":\"mark\",\"label\":\"a\u{1}\"}",
      // Numbers: negative zero, overflow, exponents, leading zeros, huge integers, fractions.
      #"{"t":1,"kind":"hinge","angle":-0,"status":"closed"}"#,
      #"{"t":1,"kind":"hinge","angle":-0.0,"status":"closed"}"#,
      #"{"t":1,"kind":"hinge","angle":1e400,"status":"closed"}"#,
      #"{"t":1,"kind":"hinge","angle":1e2,"status":"closed"}"#,
      #"{"t":1,"kind":"hinge","angle":01,"status":"closed"}"#,
      #"{"t":1,"kind":"hinge","angle":1.,"status":"closed"}"#,
      #"{"t":1,"kind":"hinge","angle":.5,"status":"closed"}"#,
      #"{"t":1,"kind":"hinge","angle":123456789012345678901234567890,"status":"closed"}"#,
      #"{"t":1,"kind":"hinge","angle":0.1000000000000000055511151231257827,"status":"closed"}"#,
      #"{"t":1,"kind":"hinge","angle":2.2250738585072011e-308,"status":"closed"}"#,
      #"{"t":99999999999999999999,"kind":"end"}"#, #"{"t":999999999999999999,"kind":"mark","label":"x"}"#,
      #"{"t":9223372036854775807,"kind":"mark","label":"x"}"#, #"{"t":-1,"kind":"mark","label":"x"}"#,
      // Duplicates, unknown keys, missing or mistyped fields, other kinds, nesting.
      #"{"t":1,"t":2,"kind":"mark","label":"x"}"#, #"{"t":1,"kind":"mark","label":"x","extra":1}"#,
      #"{"t":1,"kind":"hinge","angle":1,"angleRad":1,"status":"closed"}"#,
      #"{"t":1,"kind":"hinge","angle":1}"#, #"{"t":1,"kind":"frame","pts":"1"}"#,
      #"{"t":1,"kind":"frame","pts":1,"stream":""}"#, #"{"t":1,"kind":"frame","pts":1,"camera":"selfie"}"#,
      #"{"t":1,"kind":"frame","pts":{"value":1,"timescale":600}}"#, #"{"t":1,"kind":"end"}"#,
      #"{"t":1,"kind":"mark","label":"x","deep":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
      // Structure and whitespace: tabs, newlines, CR, NUL, trailing bytes, truncation.
      "{\"t\":1,\t\"kind\":\"mark\",\"label\":\"x\"}", "{\"t\":1,\r\"kind\":\"mark\",\"label\":\"x\"}",
      "{\"t\":1,\"kind\":\"mark\",\"label\":\"x\"}\u{0}", #"{"t":1,"kind":"mark","label":"x"} x"#,
      #"{"t":1,"kind":"mark","label":"x""#, #"{"t":1,"kind":"mark","label":"x",}"#, #"{"t":1 "kind":"mark"}"#,
      #"{"t":1,"kind":"mark","label":'x'}"#, #"{t:1,"kind":"mark","label":"x"}"#, "",
      // Context events: literals, lists and what json-c alone judges in them.
      #"{"t":1,"kind":"session","running":True}"#, #"{"t":1,"kind":"session","running":truex}"#,
      #"{"t":1,"kind":"session","running":1}"#, #"{"t":1,"kind":"session","running":null}"#,
      #"{"t":1,"kind":"session","previewVisible":true}"#,
      #"{"t":1,"kind":"session","running":true,"state":"x"}"#,
      #"{"t":1,"kind":"display","display":"outer"}"#,
      #"{"t":1,"kind":"display","display":"side","fullScreen":false}"#,
      #"{"t":1,"kind":"app","state":"asleep"}"#, #"{"t":1,"kind":"input","stream":"video"}"#,
      #"{"t":1,"kind":"direction","toward":["outerFront",],"away":[]}"#,
      #"{"t":1,"kind":"direction","toward":["outerFront"],"away":["outerFront"]}"#,
      #"{"t":1,"kind":"direction","toward":["outerFront","outerFront"],"away":[]}"#,
      #"{"t":1,"kind":"direction","toward":"outerFront","away":[]}"#,
      #"{"t":1,"kind":"direction","toward":[1],"away":[]}"#, #"{"t":1,"kind":"direction","toward":[]}"#,
      #"{"t":1,"kind":"direction","view":"","toward":[],"away":[]}"#,
      #"{"t":1,"kind":"direction","toward":[[]],"away":[]}"#,
      #"{"t":1,"kind":"direction","toward":[null],"away":[]}"#,
      "{\"t\":1,\"kind\":\"direction\",\"toward\":[\t],\"away\":[]}",
      #"{"t":1,"kind":"streamEnd","stream":""}"#,
      #"{"t":1,"kind":"streamEnd"}"#, #"{"t":1,"kind":"input","camera":"innerFront","pts":1}"#,
    ])
  func leftToJSONC(line: String) {
    #expect(FastPathDifferential.disagreement(Array(line.utf8)) == nil, "\(line)")
  }

  @Test(
    "members of keys no kind defines are skipped as json-c's path ignores them, after the template or among the members",
    arguments: [
      #","seq":7"#, #","note":"hand-held""#, #","note":"caméra""#, #","ok":true,"gone":null"#,
      #", "seq" : 12.5 , "tags" : [ "a" , "b" ]"#, #","clé":-3"#, #","format":"x""#,
    ])
  func unknownMembersSkipped(members: String) throws {
    let lines = [
      #"{"t":1,"kind":"frame","stream":"video2","pts":2\#(members)}"#,
      #"{"t":1,"kind":"hinge","angle":90.5,"status":"partiallyOpen"\#(members)}"#,
      #"{"t":1,"kind":"mark","label":"m"\#(members)}"#,
      #"{"kind":"session","running":true\#(members),"t":1}"#,
      #"{ "t" : 1 \#(members) , "kind" : "app" , "state" : "background" }"#,
    ]
    for line in lines {
      let bytes = Array(line.utf8)
      #expect(
        FastPathDifferential.fast(bytes, ignoringUnknownKeys: true) != nil, "the fast path takes \(line)")
      #expect(FastPathDifferential.fast(bytes) == nil, "crease check's parse leaves \(line) to json-c")
      #expect(FastPathDifferential.disagreement(bytes) == nil, "\(line)")
    }
  }

  @Test(
    "an unknown member the fast path cannot prove json-c reads the same is left to json-c",
    arguments: [
      // A key of the kind again (json-c keeps the last), an escape, an object, an exponent, a
      // key of another kind (left to json-c, which ignores it), ill-formed UTF-8.
      #","pts":3"#, #","note":"a\"b""#, #","extra":{}"#, #","seq":1e3"#, #","angle":5"#,
    ])
  func unknownMembersLeftToJSONC(members: String) {
    for bytes in [
      Array(#"{"t":1,"kind":"frame","stream":"video2","pts":2\#(members)}"#.utf8),
      Array(#"{"t":1,"kind":"frame","stream":"video2","pts":2,"note":""#.utf8) + [0xED, 0xA0, 0x80]
        + Array(#""}"#.utf8),
      Array(#"{"t":1,"kind":"frame","stream":"video2","pts":2,""#.utf8) + [0xC0, 0xAF] + Array(#"":1}"#.utf8),
    ] {
      let line = String(decoding: bytes, as: UTF8.self)
      #expect(FastPathDifferential.fast(bytes, ignoringUnknownKeys: true) == nil, "\(line)")
      #expect(FastPathDifferential.disagreement(bytes) == nil, "\(line)")
    }
  }

  /// Names and labels past ASCII, in two-, three- and four-byte sequences.
  static let wellFormedText = ["caméra", "前カメラ", "📷 front", "dépliée à moitié, caméra arrière"]

  @Test(
    "names and labels in well-formed UTF-8 take the fast path, in every kind and spelling, with json-c's values",
    arguments: wellFormedText)
  func wellFormedNamesAndLabels(text: String) throws {
    let lines = [
      #"{"t":1,"kind":"frame","stream":"\#(text)","pts":2}"#,
      #"{"t":1,"kind":"drop","stream":"\#(text)","pts":2,"reason":"frameWasLate"}"#,
      #"{"t":1,"kind":"mark","label":"\#(text)"}"#,
      #"{ "label" : "\#(text)" , "t" : 1 , "kind" : "mark" }"#,
      #"{"kind":"frame","pts":2,"t":1,"stream":"\#(text)"}"#,
      #"{"t":1,"kind":"streamEnd","stream":"\#(text)"}"#,
      #"{"t":1,"kind":"input","stream":"\#(text)","camera":"backWide"}"#,
      #"{"t":1,"kind":"direction","view":"\#(text)","toward":["backWide"],"away":[]}"#,
    ]
    for line in lines {
      let bytes = Array(line.utf8)
      #expect(FastPathDifferential.fast(bytes) != nil, "the fast path takes \(line)")
      #expect(FastPathDifferential.disagreement(bytes) == nil, "\(line)")
    }
  }

  @Test(
    "ill-formed UTF-8 in a name or label is left to json-c's path, which refuses it",
    arguments: [
      [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80],
      [0xF5, 0x80, 0x80, 0x80],
      [0x63, 0x61, 0x6D, 0xC3],
    ] as [[UInt8]])
  func illFormedLeftToJSONC(sequence: [UInt8]) {
    for (before, after) in [
      (#"{"t":1,"kind":"frame","stream":""#, #"","pts":2}"#), (#"{"t":1,"kind":"mark","label":""#, #""}"#),
      (#"{"label":""#, #"","t":1,"kind":"mark"}"#),
    ] {
      let bytes = Array(before.utf8) + sequence + Array(after.utf8)
      #expect(FastPathDifferential.fast(bytes) == nil, "\(sequence) in \(before)")
      guard case .failure(let error) = FastPathDifferential.reference(bytes).0 else {
        Issue.record("json-c's path takes \(sequence)")
        continue
      }
      #expect(error.message.contains("utf-8"), "\(error.message)")
    }
  }

  @Test(
    "decimals read exactly as json-c's strtod reads them, on both sides of the exact fast path",
    arguments: [
      "0.1", "0.5", "90.67999992000001", "9007199254740992.0", "9007199254740993.0", "900719925474099.3",
      "123456789012345678.9", "1234567890123456789.0", "0.0000000000000000000001",
      "0.00000000000000000000001",
      "1.00000000000000011102230246251565", "179.99999999999997", "4503599627370497.5", "0.3",
      "2.2250738585072014", "5.0000000000000000001", "18014398509481986.0", "18014398509481990.0",
      "36028797018963971.0", "0.30000000000000004", "123.45678901234567", "1.7976931348623157",
      "99999999999999999.9", "0.1000000000000000055511151231257827",
    ])
  func decimals(text: String) throws {
    let bytes = Array(#"{"t":1,"kind":"hinge","angle":\#(text),"status":"closed"}"#.utf8)
    #expect(FastPathDifferential.fast(bytes) != nil, "the fast path takes \(text)")
    #expect(FastPathDifferential.disagreement(bytes) == nil, "\(text)")
  }

  @Test("seeded random decimals of 1 to 24 digits agree with json-c bit for bit", arguments: 0..<4)
  func randomDecimals(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<5000 {
      let integerDigits = Int(random.next() % 12)
      let fractionDigits = 1 + Int(random.next() % 24)
      var text = integerDigits == 0 ? "0" : String(1 + random.next() % 9)
      for _ in 0..<max(0, integerDigits - 1) { text += String(random.next() % 10) }
      text += "."
      for _ in 0..<fractionDigits { text += String(random.next() % 10) }
      if random.next() % 2 == 0 { text = "-" + text }
      let bytes = Array(#"{"t":1,"kind":"hinge","angle":\#(text),"status":"closed"}"#.utf8)
      #expect(FastPathDifferential.disagreement(bytes) == nil, "seed \(seed), angle \(text)")
    }
  }

  @Test(
    "seeded random decimals of 16 to 19 digits, the integer-division path, agree bit for bit",
    arguments: 0..<4)
  func longDecimals(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<5000 {
      let digits = 16 + Int(random.next() % 4)
      let integerDigits = 1 + Int(random.next() % UInt64(digits - 1))
      var text = String(1 + random.next() % 9)
      for index in 1..<digits {
        if index == integerDigits { text += "." }
        text += String(random.next() % 10)
      }
      let bytes = Array(#"{"t":1,"kind":"hinge","angle":\#(text),"status":"closed"}"#.utf8)
      #expect(FastPathDifferential.disagreement(bytes) == nil, "seed \(seed), angle \(text)")
    }
  }

  @Test("short decimals, read from one word, agree with json-c whatever ends them and wherever the line ends")
  func shortDecimals() {
    // An angle whose digits, point and ender lie in eight bytes is read from one word: every
    // split of up to eight digits around the point (none before or after it too), a leading
    // zero, each byte after it (enders, another point, an exponent, a digit past the word), and
    // the line's end at each distance, so the word sometimes does not fit.
    var random = SplitMix64(seed: 11)
    let afters = [
      ",\"status\":\"closed\"}", "}", " }", " ,\"status\":\"closed\"}", ".5}", "e2}", "E2}", "x}", "-}",
    ]
    var taken = 0
    for integerDigits in 0...8 {
      for fractionDigits in 0...(8 - integerDigits) {
        for leadingZero in [false, true] where integerDigits > 0 || !leadingZero {
          var text = ""
          for index in 0..<integerDigits {
            text +=
              index == 0 ? (leadingZero ? "0" : String(1 + random.next() % 9)) : String(random.next() % 10)
          }
          text += "."
          for _ in 0..<fractionDigits { text += String(random.next() % 10) }
          for after in afters {
            for cut in 0...after.count {
              let line = #"{"t":1,"kind":"hinge","angle":\#(text)\#(after.prefix(cut))"#
              let bytes = Array(line.utf8)
              if FastPathDifferential.fast(bytes) != nil { taken += 1 }
              #expect(FastPathDifferential.disagreement(bytes) == nil, "line \(line)")
            }
          }
        }
      }
    }
    #expect(taken > 20, "the well-formed ones take the fast path, so the check is not vacuous")
  }

  @Test("digit runs of every length, next to every byte, at every distance from the line's end, agree")
  func digitRuns() {
    var random = SplitMix64(seed: 8)
    // Digits are read eight at a time while eight bytes remain: runs of 1 to 21 digits, ended
    // by each kind of byte (ones that carry when 6 is added among them), near and far from the
    // end; by the template, and member by member, where a natural number is tried first.
    let enders: [String] = [
      "", "}", " }", ",\"camera\":\"innerFront\"}", "x}", ":}", "/}", "\u{FF}}", "\u{7F}}",
    ]
    var taken = 0
    for length in 1...21 {
      for ender in enders {
        for leadingZero in [false, true] {
          var digits = String(1 + random.next() % 9)
          for _ in 1..<length { digits += String(random.next() % 10) }
          if leadingZero { digits = "0" + digits.dropFirst() }
          for line in [
            #"{"t":\#(digits),"kind":"frame","pts":\#(digits)\#(ender)"#,
            #"{"t":1,"kind":"hinge","angle":\#(digits).\#(digits)\#(ender.isEmpty ? "" : #","status":"closed"}"#)"#,
            #"{"t":1,"kind":"frame","stream":"video","pts":-\#(digits)\#(ender)"#,
            // Member by member, an integer where a decimal is wanted and `t` last.
            #"{"kind":"hinge","status":"closed","angle":\#(digits),"t":\#(digits)\#(ender)"#,
          ] {
            let bytes = Array(line.utf8)
            if FastPathDifferential.fast(bytes) != nil { taken += 1 }
            #expect(FastPathDifferential.disagreement(bytes) == nil, "seed 8, line \(line)")
          }
        }
      }
    }
    #expect(taken > 100, "most of these lines take the fast path, so the check is not vacuous")
  }

  @Test("strings of every length, with each byte a plain string may not hold at every place, agree")
  func stringBytes() {
    // Plain bytes are skipped eight at a time while eight remain: strings of 0 to 24 bytes,
    // each with one byte that ends or breaks the plain run (a quote, a backslash's escape, a
    // control byte, DEL, past ASCII) at every place, or none, near and far from the end.
    let breakers: [[UInt8]] = [
      [], Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\u0041"#.utf8), [0x22], [0x5C], [0x01], [0x1F],
      [0x7F],
      Array("é".utf8), [0xFF], [0x20], [0x7E],
    ]
    var taken = 0
    for length in 0...24 {
      for breaker in breakers {
        for place in 0...length where !(breaker.isEmpty && place > 0) {
          var text = Array("abcdefghijklmnopqrstuvwx".utf8.prefix(length))
          text.insert(contentsOf: breaker, at: place)
          let name = String(decoding: text, as: UTF8.self)
          for line in [
            #"{"t":1,"kind":"frame","stream":"\#(name)","pts":2}"#,
            #"{"t":1,"kind":"mark","label":"\#(name)"}"#,
            #"{"t":1,"kind":"mark","label":"\#(name)""#, #"{"kind":"mark","label":"\#(name)","t":1}"#,
          ] {
            var bytes = Array(line.utf8)
            // The bytes as made, not as `String` repairs them (a lone 0xFF).
            if let at = bytes.firstRange(of: Array(name.utf8)) { bytes.replaceSubrange(at, with: text) }
            if FastPathDifferential.fast(bytes) != nil { taken += 1 }
            #expect(
              FastPathDifferential.disagreement(bytes) == nil,
              "line \(String(decoding: bytes, as: UTF8.self))")
          }
        }
      }
    }
    #expect(taken > 500, "most of these lines take the fast path, so the check is not vacuous")
  }

  @Test("seeded mutations of canonical lines never make the two disagree", arguments: 0..<20)
  func mutations(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let alphabet =
      Array(#"{}[]:,"\ -+.eE0123456789tkindhgleaframpsucvo"#.utf8) + [0, 9, 10, 13, 0xC3, 0xE9, 0x7F]
    // Each line as written and spaced as `json.dumps` spaces it, so both templates meet mutants.
    let lines = Self.canonical.flatMap { [Array($0.utf8), Self.spacedAsJSONDumps(Array($0.utf8))] }
    var taken = 0
    for index in 0..<2000 {
      var bytes = lines[index % lines.count]
      for _ in 0..<(1 + random.next() % 3) {
        let position = Int(random.next() % UInt64(bytes.count + 1))
        switch random.next() % 3 {
        case 0 where position < bytes.count: bytes.remove(at: position)
        case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
        default:
          if position < bytes.count {
            bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
          }
        }
      }
      if FastPathDifferential.fast(bytes) != nil { taken += 1 }
      #expect(
        FastPathDifferential.disagreement(bytes) == nil,
        "seed \(seed), line \(String(decoding: bytes, as: UTF8.self))")
    }
    #expect(taken > 0, "seed \(seed): some mutants still take the fast path, so the check is not vacuous")
  }
}
