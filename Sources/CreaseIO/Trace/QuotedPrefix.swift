/// A short name and the closing quote after it, packed into two words with a mask for each that
/// keeps only those bytes: the sixteen bytes at a place on a line (``LineWords``) are compared
/// with it in two masked comparisons, whatever its length, with no loop over its bytes and no
/// look for its end.
///
/// The JSON Lines parser matches a name where it lies with it: a status or a camera among a
/// type's names (``NameMatcher``), a stream name among those made lately
/// (``RecentShortStrings``).
struct QuotedPrefix {
  /// The longest name it holds: 15 bytes, 16 with the quote.
  static var longestName: Int { 15 }

  private var low: UInt64
  private var high: UInt64
  private var lowMask: UInt64
  private var highMask: UInt64

  /// The prefix of `name`, at most ``longestName`` bytes, and a quote. The empty name's is
  /// never matched, since no stream is named so and no type has an empty name: its mask keeps
  /// nothing, and its packed bytes are not zero.
  init(_ name: UnsafeRawBufferPointer) {
    precondition(name.count <= Self.longestName, "a quoted prefix holds at most 15 bytes and its quote")
    self.init(PackedBytes(name))
  }

  /// The prefix of a name of at most ``longestName`` bytes, packed, and a quote: the packed
  /// bytes and the quote after them, shifted into place (byte by byte, a stream name made
  /// again at every frame cost 109 instructions a frame; callgrind, 1,000 streams in turn).
  init(_ name: PackedBytes) {
    guard name.count > 0 else {
      (low, high, lowMask, highMask) = (1, 0, 0, 0)
      return
    }
    assert(name.count <= Self.longestName, "a quoted prefix holds at most 15 bytes and its quote")
    let quote = UInt64(UInt8(ascii: "\""))
    let count = name.count
    (low, high) =
      count < 8
      ? (name.low | quote << UInt64(8 &* count), 0)
      : (name.low, name.high | quote << UInt64(8 &* (count &- 8)))
    let quoted = count &+ 1
    lowMask = quoted >= 8 ? .max : (1 << UInt64(8 &* quoted)) &- 1
    highMask = quoted <= 8 ? 0 : quoted == 16 ? .max : (1 << UInt64(8 &* (quoted &- 8))) &- 1
  }

  /// Whether `line` starts with the name and its quote.
  @inline(__always)
  func isPrefix(of line: LineWords) -> Bool {
    line.low & lowMask == low && line.high & highMask == high
  }
}

/// The next sixteen bytes at a place on a line, as two words, the first byte in the lowest;
/// zero past the bytes there are. A name and its quote are never zero, so none that runs past
/// the end is found in them.
struct LineWords {
  /// Bytes 0 to 7.
  let low: UInt64
  /// Bytes 8 to 15.
  let high: UInt64

  /// The sixteen bytes `low` and `high` hold.
  @inline(__always)
  init(low: UInt64, high: UInt64) { (self.low, self.high) = (low, high) }

  /// The first sixteen of `bytes`, two loads when there are so many (nearly always: a name is
  /// followed by the rest of its line and the lines after it).
  @inline(__always)
  init(_ bytes: UnsafeRawBufferPointer) {
    if bytes.count >= 16 {
      low = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
      high = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    } else {
      (low, high) = Self.padded(bytes)
    }
  }

  /// Fewer than sixteen bytes, padded with zeros.
  private static func padded(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
    var words = (UInt64(0), UInt64(0))
    for (index, byte) in bytes.enumerated() {
      if index < 8 {
        words.0 |= UInt64(byte) << UInt64(8 &* index)
      } else {
        words.1 |= UInt64(byte) << UInt64(8 &* (index &- 8))
      }
    }
    return words
  }
}
