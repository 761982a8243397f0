extension ProvenLineParser {
  /// The keys the member-by-member path looks up as words: each known key of seven bytes or
  /// fewer with its closing quote as one little-endian word, grouped by first letter.
  ///
  /// One table, ``shared``, taken once a line: a static table is reached through its one-time
  /// initializer's check each time it is asked, and three static tables asked for each key
  /// cost a line of the bench trace with its keys sorted 145 instructions (3,089 → 2,944).
  /// Held by each parser instead, the table's arrays made every line of the bench trace cost 4
  /// more.
  struct KeyWords {
    /// The table.
    static let shared = KeyWords()

    /// A known key with its closing quote as a little-endian word, and the mask of its bytes.
    struct Word {
      let key: Key
      let pattern: UInt64
      let mask: UInt64
      /// The bytes the name and its quote take.
      let length: Int

      init(_ key: Key) {
        self.key = key
        let name = Array(key.rawValue.utf8)
        precondition(name.count < 8, "a key and its quote fit a word")
        length = name.count + 1
        self.pattern = KeyWords.word(name + [UInt8(ascii: "\"")])
        mask = length == 8 ? .max : (1 << (8 * length)) - 1
      }
    }

    /// The fast path's keys of seven bytes or fewer, sorted by first letter.
    let words = ProvenLineParser.keys.filter { $0.rawValue.utf8.count < 8 }
      .sorted { $0.rawValue.utf8.first! < $1.rawValue.utf8.first! }.map(Word.init)
    /// For each first byte, the range of ``words`` that start with it (empty for the rest).
    let byFirstByte: [Range<Int>]
    /// `angleRad` as a word, the one key of eight bytes.
    let angleRad = KeyWords.word(Array(TraceKey.angleRad.rawValue.utf8))

    init() {
      let words = words
      byFirstByte = (0..<256).map { byte in
        let matching = words.indices.filter { words[$0].key.rawValue.utf8.first == UInt8(byte) }
        return (matching.first ?? 0)..<((matching.last ?? -1) + 1)
      }
    }

    /// `bytes` (eight at most) as a little-endian word.
    static func word(_ bytes: [UInt8]) -> UInt64 {
      bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }
  }
}

extension ProvenLineParser.Scanner {
  /// A quoted member name this parser knows, looked up in `table`.
  ///
  /// A known name and its closing quote are matched as one little-endian word read past the
  /// opening quote (`angleRad`, a byte longer, with one more byte); near the end of a line,
  /// or for anything else, byte by byte.
  mutating func key(_ table: ProvenLineParser.KeyWords) -> ProvenLineParser.Key? {
    guard offset &+ 10 <= bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return keyByBytes() }
    let word = bytes.loadUnaligned(fromByteOffset: offset &+ 1, as: UInt64.self)
    for index in table.byFirstByte[Int(UInt8(truncatingIfNeeded: word))] {
      let known = table.words[index]
      if word & known.mask == known.pattern {
        offset &+= 1 &+ known.length
        return known.key
      }
    }
    // The one key of eight bytes: its closing quote is the ninth.
    if word == table.angleRad, bytes[offset &+ 9] == UInt8(ascii: "\"") {
      offset &+= 10
      return .angleRad
    }
    // Longer keys (`fullScreen`, `previewVisible`), of context events, by their bytes.
    return keyByBytes()
  }
}
