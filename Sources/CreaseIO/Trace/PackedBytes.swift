/// A string's length and its first sixteen bytes in two words, the first byte in the lowest,
/// zero past the end: each word read in one load where there are eight bytes to load, four to
/// seven in two loads of four, fewer a byte at a time.
///
/// Up to 15 bytes it is the bytes themselves: two strings of at most 15 bytes are equal exactly
/// when their packed bytes are, and the bytes at a place on a line (``LineWords``) pack the
/// same once the string's length there is known. Longer, it tells most strings apart at once,
/// and a string that it does not is compared whole.
struct PackedBytes: Equatable {
  /// The longest string packed whole.
  static var longestWhole: Int { 15 }

  var count: Int
  var low: UInt64
  var high: UInt64

  /// The packed `bytes`. A second word of fewer than eight bytes is loaded from eight bytes
  /// that end with the last and shifted down, so no load reads past them.
  @inline(__always)
  init(_ bytes: UnsafeRawBufferPointer) {
    count = bytes.count
    switch count {
    case 16...:
      low = bytes.loadUnaligned(as: UInt64.self)
      high = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    case 9...:
      low = bytes.loadUnaligned(as: UInt64.self)
      high = bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) >> UInt64(8 &* (16 &- count))
    case 8:
      low = bytes.loadUnaligned(as: UInt64.self)
      high = 0
    case 4...:
      // Two loads of four that overlap inside the bytes; the bytes both hold are the same.
      low =
        UInt64(bytes.loadUnaligned(as: UInt32.self))
        | UInt64(bytes.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
        << UInt64(8 &* (count &- 4))
      high = 0
    default:
      low = 0
      for index in 0..<count { low |= UInt64(bytes[index]) << (8 &* UInt64(index)) }
      high = 0
    }
  }

  /// The first `count` of `line`'s sixteen bytes, at most ``longestWhole``, packed.
  @inline(__always)
  init(_ line: LineWords, count: Int) {
    assert(count <= Self.longestWhole, "a line's words hold sixteen bytes")
    self.count = count
    low = count >= 8 ? line.low : line.low & ((1 << UInt64(8 &* count)) &- 1)
    high = count <= 8 ? 0 : line.high & ((1 << UInt64(8 &* (count &- 8))) &- 1)
  }
}
