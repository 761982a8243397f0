import Crease
import CreaseSynth
import Testing

@testable import CreaseIO

@Suite("JSON Lines reader")
struct JSONLinesReaderTests {
  /// Each line of `text`, split at its newlines and parsed alone by a ``TraceParser``: what a
  /// reader must hand over, whatever it parses in its buffer first.
  static func linesParsedOneByOne(_ text: String) -> [(item: String, raw: [UInt8], terminator: String)] {
    var pieces = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    if pieces.last?.isEmpty == true { pieces.removeLast() }  // the newline that ends the text
    let parser = TraceParser()
    return pieces.map { piece in
      let endsWithCarriageReturn = piece.last == 0x0D
      let raw = endsWithCarriageReturn ? Array(piece.dropLast()) : piece
      let item: String
      if raw.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        item = "blank"
      } else {
        let parsed = raw.withUnsafeBytes { bytes in
          Result { () throws(TraceLineError) in try parser.parse(bytes) }
        }
        switch parsed {
        case .success(let record): item = "record \(record)"
        case .failure(let error): item = "bad \(error.column) \(error.message)"
        }
      }
      return (item, raw, endsWithCarriageReturn ? "\r\n" : "\n")
    }
  }

  /// Lines that begin as the canonical template does and then differ after its closing brace,
  /// where the reader's look at the buffer ends.
  static let nearlyCanonical = [
    #"{"t":5,"kind":"mark","label":"then a space"} "#,
    #"{"t":6,"kind":"mark","label":"then a tab"}"# + "\t",
    #"{"t":7,"kind":"mark","label":"then a brace"}}"#,
    #"{"t":8,"kind":"mark","label":"then text"}x"#,
    #"{"t":9,"kind":"hinge","angle":90.5,"status":"flat"},"#,
    #"{"t":10,"kind":"frame","stream":"video","pts":1}"# + "\r",
    #"{"t":11,"kind":"mark","label":"then a NUL"}"# + "\u{0}",
    #"{"t": 12, "kind": "mark", "label": "spaced, then a space"} "#,
    #"{"t": 13, "kind": "hinge", "angle": 90.5, "status": "flat"},"#,
    #"{"t": 14, "kind": "frame", "stream": "video", "pts": 1}"# + "\r",
  ]

  /// Lines spaced as Python's `json.dumps` spaces them, which the spaced template reads where
  /// they lie.
  static let spaced = [
    #"{"t": 1, "kind": "hinge", "angle": 90.5, "status": "partiallyOpen"}"#,
    #"{"t": 2, "kind": "frame", "stream": "video2", "pts": 3, "camera": "backWide"}"#,
    #"{"t": 3, "kind": "drop", "stream": "video", "pts": 4, "reason": "frameWasLate"}"#,
    #"{"t": 4, "kind": "mark", "label": "spaced"}"# + "\r",
  ]

  @Test(
    "a line parsed where it lies in the buffer is handed over as the line split at its newline, parsed alone",
    arguments: 0..<6)
  func parsedInPlace(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var text = ReadAheadReaderTests.mixedTrace(lines: 200)
    for line in Self.spaced + Self.nearlyCanonical { text += line + "\n" }
    text += #"{"t":15,"kind":"mark","label":"last, with no newline"}"#
    let chunkSize = 1 + Int(random.next() % 300)
    let reader = JSONLinesReader(source: MemorySource(text, chunkSize: chunkSize))
    let observed = ReadAheadReaderTests.observe(reader).items
    let expected = Self.linesParsedOneByOne(text)
    #expect(observed.count == expected.count + 1, "seed \(seed): every line, then the end")
    for (index, (line, want)) in zip(observed, expected).enumerated() {
      #expect(line.item == want.item, "seed \(seed), chunks of \(chunkSize), line \(index + 1)")
      #expect(line.raw == want.raw, "seed \(seed), line \(index + 1)")
      #expect(line.position == index + 1, "seed \(seed), line \(index + 1)")
      #expect(line.lineTerminator == want.terminator, "seed \(seed), line \(index + 1)")
    }
    // Not vacuous: the trace has canonical lines, and lines only nearly so are not records.
    #expect(expected.contains { $0.item.hasPrefix("record event(") })
    let spacedRecords = expected.dropLast(Self.nearlyCanonical.count + 1).suffix(Self.spaced.count)
    #expect(spacedRecords.allSatisfy { $0.item.hasPrefix("record event(") })
    #expect(expected.suffix(Self.nearlyCanonical.count + 1).filter { $0.item.hasPrefix("bad") }.count >= 4)
  }
}
