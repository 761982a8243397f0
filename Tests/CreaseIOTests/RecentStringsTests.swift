import Crease
import CreaseSynth
import Testing

@testable import CreaseIO

/// Long names and labels are made again from the reader's recent strings rather than allocated
/// each time: whatever comes and goes from that memory, every record reads as written.
@Suite("Recent strings: long names and labels read back as written")
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
    ]
  }()

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

  @Test("binary: every label and name reads back as written", arguments: 0..<6)
  func binary(seed: UInt64) throws {
    let reference = TraceParser(usesFastPath: false)
    var encoder = BinaryTraceEncoder()
    var bytes = encoder.fileHeader
    var written: [Event] = []
    for line in Self.lines(seed: seed, count: 400) {
      let record = try Array(line.utf8).withUnsafeBytes { try reference.parse($0) }
      guard case .event(let event) = record else { continue }
      written.append(event)
      try encoder.encode(record, into: &bytes)
    }
    #expect(try BinaryTraceReaderTests.events(in: bytes) == written, "seed \(seed)")
  }
}
