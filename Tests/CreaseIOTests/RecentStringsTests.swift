import Crease
import CreaseSynth
import Testing

@testable import CreaseIO

/// Names and labels are made again from the reader's recent strings rather than made each
/// time: whatever comes and goes from that memory, every record reads as written.
@Suite("Recent strings: names and labels read back as written")
struct RecentStringsTests {
  /// Strings around the 15 bytes that live inline and the 256 that are remembered, more of them
  /// than are remembered, strings alike but for one byte (first, middle, last), and strings
  /// past ASCII.
  static let strings: [String] = {
    let long = String(repeating: "n", count: 256)
    return [
      "fifteen-bytes-1", "sixteen-bytes-12", "back-wide-camera-main", "back-wide-camera-maiN",
      "Back-wide-camera-main", "back-wide-cAmera-main", "turned to face the person",
      "fold-while-recording", long, String(long.dropLast()) + "m", long + "n", long + "o",
      "a label of thirty-two bytes long", "another label, of its own length", "caméra",
      "caméra arrière, grand angle", "caméra arrière, grand anglé", "前カメラ 📷",
    ] + shortStrings
  }()

  /// Short ASCII strings, which live inline and are remembered by their bytes packed into two
  /// words: more than are remembered, every length from 1 to 15, and strings alike but for one
  /// byte where the packing's two loads overlap (the middle of an 8- to 15-byte string, the
  /// middle of a 4- to 7-byte one) and where each begins and ends.
  static let shortStrings: [String] = {
    let lengths = (1...15).map { String("abcdefghijklmno".prefix($0)) }
    let alike = ["video2", "video3", "vidoe2", "Video2", "abcdefgh", "abcdefgH", "abcdXfgh", "Abcdefgh"]
    let overlapping = [
      "abcdefghijklm", "abcdefgXijklm", "abcdefghijklM", "abcde", "abXde", "abcdE", "abc", "abC",
    ]
    return lengths + alike + overlapping
  }()

  @Test("short strings: each read back as itself, in any order", arguments: 0..<6)
  func shortStrings(seed: UInt64) {
    let recent = RecentShortStrings()
    var random = SplitMix64(seed: seed)
    // Mostly a few strings again and again, as a trace's stream names come, now and then another.
    for _ in 0..<2_000 {
      let pool = random.next() % 4 == 0 ? Self.shortStrings : Array(Self.shortStrings.suffix(5))
      let string = pool[Int(random.next() % UInt64(pool.count))]
      let made = Array(string.utf8).withUnsafeBytes { recent.string(ascii: $0) }
      #expect(made == string, "seed \(seed)")
    }
    #expect(Array("".utf8).withUnsafeBytes { recent.string(ascii: $0) } == "")
  }

  /// Lines of every kind that carries a name or label, each string in a seeded order, spelled
  /// as the encoder writes them (the canonical template) or with their members in another order
  /// (the member-by-member path).
  static func lines(seed: UInt64, count: Int) -> [String] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { index in
      let text = strings[Int(random.next() % UInt64(strings.count))]
      let t = index * 1_000
      switch random.next() % 6 {
      case 0: return #"{"t":\#(t),"kind":"frame","stream":"\#(text)","pts":\#(t)}"#
      case 1: return #"{"kind":"drop","t":\#(t),"pts":\#(t),"stream":"\#(text)"}"#
      case 2: return #"{"t":\#(t),"kind":"mark","label":"\#(text)"}"#
      case 3: return #"{"kind":"mark","label":"\#(text)","t":\#(t)}"#
      case 4: return #"{"t":\#(t),"kind":"streamEnd","stream":"\#(text)"}"#
      default:
        return
          #"{"t":\#(t),"kind":"direction","view":"\#(text)","toward":["backWide"],"away":["innerFront"]}"#
      }
    }
  }

  @Test("JSON Lines: one parser's records are json-c's, line after line", arguments: 0..<6)
  func jsonLines(seed: UInt64) throws {
    let parser = TraceParser()
    let reference = TraceParser(usesFastPath: false)
    for line in Self.lines(seed: seed, count: 400) {
      let bytes = Array(line.utf8)
      let (fast, expected) = try bytes.withUnsafeBytes { buffer in
        (try parser.parse(buffer), try reference.parse(buffer))
      }
      #expect(fast == expected, "seed \(seed), line \(line)")
      #expect(FastPathDifferential.fast(bytes) != nil, "the fast path takes \(line)")
    }
  }

  @Test("JSON Lines: more streams than are remembered, in turn, read as json-c reads them", arguments: 0..<2)
  func manyStreamsInTurn(seed: UInt64) throws {
    let parser = TraceParser()
    let reference = TraceParser(usesFastPath: false)
    let streams = NamesByBytesTests.names
    var random = SplitMix64(seed: seed)
    // Three rounds, as streams deliver; now and then a line spelled member by member.
    for round in 0..<3 {
      for (index, name) in streams.enumerated() {
        let t = (round * streams.count + index) * 1_000
        let line =
          random.next() % 8 == 0
          ? #"{"kind":"frame","pts":\#(t),"t":\#(t),"stream":"\#(name)"}"#
          : #"{"t":\#(t),"kind":"frame","stream":"\#(name)","pts":\#(t)}"#
        let (fast, expected) = try Array(line.utf8).withUnsafeBytes { buffer in
          (try parser.parse(buffer), try reference.parse(buffer))
        }
        #expect(fast == expected, "seed \(seed), line \(line)")
      }
    }
  }

  @Test(
    "JSON Lines: a stream name made lately is taken where it lies only when its closing quote follows",
    arguments: 0..<4)
  func rememberedNamesInPlace(seed: UInt64) {
    let parser = TraceParser()
    let reference = TraceParser(usesFastPath: false)
    func expectSame(_ line: String) {
      let (fast, expected) = Array(line.utf8).withUnsafeBytes { buffer in
        (
          Result { () throws(TraceLineError) in try parser.parse(buffer) },
          Result { () throws(TraceLineError) in try reference.parse(buffer) }
        )
      }
      switch (fast, expected) {
      case (.success(let record), .success(let expectedRecord)):
        #expect(record == expectedRecord, "seed \(seed), line \(line)")
      case (.failure(let error), .failure(let expectedError)):
        #expect(error.message == expectedError.message, "seed \(seed), line \(line)")
      default:
        Issue.record("seed \(seed), line \(line): fast \(fast), json-c \(expected)")
      }
    }
    // The empty name first, while every slot still holds it: no stream is named so.
    expectSame(#"{"t":0,"kind":"frame","stream":"","pts":0}"#)
    var random = SplitMix64(seed: seed)
    // What may follow a name the parser remembers: its quote, or a byte that makes another
    // name or no JSON at all, with `,"pts":` right after it as though it had been the quote.
    let followers = [#"""#, "X", ",", "\\\"", " ", #"","#, ""]
    for index in 1..<3_000 {
      let name = Self.shortStrings[Int(random.next() % UInt64(Self.shortStrings.count))]
      let follower = random.next() % 3 == 0 ? followers[Int(random.next() % UInt64(followers.count))] : #"""#
      expectSame(#"{"t":\#(index),"kind":"frame","stream":"\#(name)\#(follower),"pts":\#(index)}"#)
    }
  }

  @Test(
    "binary: every label and name reads back as written, names spelled out (version 1) or numbered",
    arguments: 0..<6, BinaryTraceFormat.readableVersions)
  func binary(seed: UInt64, version: UInt16) throws {
    let reference = TraceParser(usesFastPath: false)
    var encoder = BinaryTraceEncoder(version: version)
    var bytes = encoder.fileHeader
    var written: [Event] = []
    for line in Self.lines(seed: seed, count: 400) {
      let record = try Array(line.utf8).withUnsafeBytes { try reference.parse($0) }
      guard case .event(let event) = record else { continue }
      // Version 1 has no kind for a stream's end.
      if version == 1, case .streamEnd = event.payload { continue }
      written.append(event)
      try encoder.encode(record, into: &bytes)
    }
    #expect(try BinaryTraceReaderTests.events(in: bytes) == written, "seed \(seed)")
  }

  @Test(
    "binary: more streams than are remembered, in turn, read back as written",
    arguments: BinaryTraceFormat.readableVersions)
  func manyStreamsInBinary(version: UInt16) throws {
    var encoder = BinaryTraceEncoder(version: version)
    var bytes = encoder.fileHeader
    var written: [Event] = []
    for round in 0..<3 {
      for (index, name) in NamesByBytesTests.names.enumerated() {
        let t = Nanoseconds(Int64((round * NamesByBytesTests.names.count + index) * 1_000))
        let frame = Frame(
          stream: StreamName(rawValue: name), pts: PresentationTime(nanoseconds: t.rawValue), camera: nil)
        written.append(Event(t: t, .frame(frame)))
        try encoder.encode(.event(written.last!), into: &bytes)
      }
    }
    #expect(try BinaryTraceReaderTests.events(in: bytes) == written)
  }
}
