/// Writes bytes through a pointer into memory its owner reserved beforehand, checking each
/// write against the end of that memory.
///
/// An encoder that knows the largest size of what it writes (a cue line, say) reserves that
/// much once and then writes without an `Array`'s capacity and uniqueness checks on every
/// append. Each method says how many bytes it may write, so an owner can reserve enough; the
/// one check left, of the bytes about to be written against the end, stays on in a release
/// build: a capacity computed apart from the writing (a field added to one and not the other)
/// stops the program with a message instead of writing past the memory. The checks cost 17
/// instructions an event of the bench trace in either input format (callgrind), about 50 a
/// cue line; `WriteCapacityTests` keeps the capacities right.
///
/// Safe because every store goes through a method that first calls ``reserve(_:)`` for the
/// bytes it stores, so no store reaches ``end``; reads are of the caller's buffer within its
/// count, or of the digit table within its 200 bytes.
@usableFromInline package struct UnsafeByteWriter {
  /// Where the next byte goes.
  @usableFromInline package private(set) var cursor: UnsafeMutablePointer<UInt8>
  /// The end of the memory reserved: no byte is written at or after it.
  @usableFromInline let end: UnsafeMutablePointer<UInt8>

  /// A writer of at most `capacity` bytes from `start`.
  @inlinable package init(at start: UnsafeMutablePointer<UInt8>, capacity: Int) {
    cursor = start
    end = start + capacity
  }

  /// Stops the program unless `count` more bytes fit.
  @inlinable @inline(__always) func reserve(_ count: Int) {
    precondition(count <= end - cursor, "a writer was given less memory than it writes")
  }

  /// Writes one byte.
  @inlinable package mutating func write(_ byte: UInt8) {
    reserve(1)
    cursor.initialize(to: byte)
    cursor += 1
  }

  /// Writes a literal's bytes (`literal.utf8CodeUnitCount` of them).
  @inlinable @inline(__always) package mutating func write(_ literal: StaticString) {
    write(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// Writes `bytes` (`bytes.count` of them).
  ///
  /// Always inlined: a literal's length is then known where it is written, and only its case of
  /// the switch below is left. Tuning: hot-inline.
  @inlinable @inline(__always) package mutating func write(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    let count = bytes.count
    reserve(count)
    // Safe because the `count` bytes from `cursor` are reserved, and each load reads bytes
    // `0..<count` of `bytes` (the overlapping word loads start at 0 and at `count - 8` or
    // `count - 4`, which their case keeps at or above 0).
    let target = UnsafeMutableRawPointer(cursor)
    // Keys, names and short labels are a few bytes: two overlapping word copies beat a call
    // to memcpy.
    switch count {
    case 8...16:
      let head = base.loadUnaligned(as: UInt64.self)
      let tail = base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      target.storeBytes(of: head, as: UInt64.self)
      target.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
    case 4..<8:
      let head = base.loadUnaligned(as: UInt32.self)
      let tail = base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
      target.storeBytes(of: head, as: UInt32.self)
      target.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
    case 0..<4:
      for index in 0..<count {
        target.storeBytes(
          of: base.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self)
      }
    default:
      target.copyMemory(from: base, byteCount: count)
    }
    cursor += count
  }

  /// The most bytes ``writeInteger(_:)`` writes. Tuning: computed-constant.
  @inlinable package static var integerCapacity: Int { 20 }

  /// Writes a decimal integer (at most ``integerCapacity`` bytes).
  @inlinable package mutating func writeInteger(_ value: Int64) {
    if value < 0 { write(UInt8(ascii: "-")) }
    writeDigits(value.magnitude)
  }

  /// Writes the decimal digits of `magnitude`, zero-padded on the left to `minimumCount`
  /// (at most 20 bytes, or `minimumCount`).
  @inlinable package mutating func writeDigits(_ magnitude: UInt64, minimumCount: Int = 1) {
    let count = Swift.max(Self.decimalDigitCount(magnitude), minimumCount)
    reserve(count)
    // Written backwards from the end, two digits at a time from a table of pairs; the
    // padding zeros come first.
    let pairs: StaticString = """
      00010203040506070809101112131415161718192021222324252627282930313233343536373839\
      40414243444546474849505152535455565758596061626364656667686970717273747576777879\
      8081828384858687888990919293949596979899
      """
    // Safe because the digits are stored from `cursor + count` down to `cursor`, all reserved,
    // and each table offset is a pair index (0...99) times 2, within the table's 200 bytes.
    var end = cursor + count
    var value = magnitude
    let table = UnsafeRawPointer(pairs.utf8Start)
    // Four digits a step: one division by 10,000 and two pair copies of two bytes each
    // (callgrind: 113 instructions a 12-digit time, against 80 two digits a step).
    while value >= 10_000 {
      let quad = Int(truncatingIfNeeded: value % 10_000)
      value /= 10_000
      end -= 4
      let target = UnsafeMutableRawPointer(end)
      target.storeBytes(
        of: table.loadUnaligned(fromByteOffset: (quad / 100) &* 2, as: UInt16.self), as: UInt16.self)
      target.storeBytes(
        of: table.loadUnaligned(fromByteOffset: (quad % 100) &* 2, as: UInt16.self), toByteOffset: 2,
        as: UInt16.self)
    }
    while value >= 100 {
      let pair = Int(truncatingIfNeeded: value % 100) &* 2
      value /= 100
      end -= 2
      UnsafeMutableRawPointer(end).storeBytes(
        of: table.loadUnaligned(fromByteOffset: pair, as: UInt16.self), as: UInt16.self)
    }
    if value >= 10 {
      end -= 2
      UnsafeMutableRawPointer(end).storeBytes(
        of: table.loadUnaligned(fromByteOffset: Int(value) &* 2, as: UInt16.self), as: UInt16.self)
    } else {
      end -= 1
      end.initialize(to: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
    }
    while end > cursor {
      end -= 1
      end.initialize(to: UInt8(ascii: "0"))
    }
    cursor += count
  }

  /// How many decimal digits `value` has (1 for 0). Tuning: hot-inline.
  @inlinable @inline(__always) package static func decimalDigitCount(_ value: UInt64) -> Int {
    // log10(2) ≈ 1233/4096 turns the bit length into the digit count, or one less, which a
    // comparison with the power of ten settles.
    let estimate = ((64 &- value.leadingZeroBitCount) &* 1233) >> 12
    return value >= powerOfTen(estimate) ? estimate &+ 1 : Swift.max(estimate, 1)
  }

  /// 10 to the power `exponent`, 0 through 19 (a switch the compiler turns into a table).
  @inlinable @inline(__always) package static func powerOfTen(_ exponent: Int) -> UInt64 {
    switch exponent {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    case 8: 100_000_000
    case 9: 1_000_000_000
    case 10: 10_000_000_000
    case 11: 100_000_000_000
    case 12: 1_000_000_000_000
    case 13: 10_000_000_000_000
    case 14: 100_000_000_000_000
    case 15: 1_000_000_000_000_000
    case 16: 10_000_000_000_000_000
    case 17: 100_000_000_000_000_000
    case 18: 1_000_000_000_000_000_000
    default: 10_000_000_000_000_000_000
    }
  }

  /// The most bytes ``writeDecimal(_:)`` writes: a sign, 16 digits, a point and 3 decimals, or
  /// the longest shortest form of a double (`-1.7976931348623157e+308`).
  @inlinable package static var decimalCapacity: Int { 24 }

  /// Writes `value` rounded to 3 decimals (half away from zero), without trailing zeros but
  /// with at least one decimal, so `135` is `135.0` and `0.1234` is `0.123` (at most
  /// ``decimalCapacity`` bytes).
  @inlinable package mutating func writeDecimal(_ value: Double) {
    let thousandths = value * 1000
    // Rounded half away from zero by hand: `rounded(.toNearestOrAwayFromZero)` is a call to
    // libm's `round` (callgrind: about 25 instructions a number). In range (a NaN is not), the
    // conversion truncates toward zero and the part it dropped is exact: below 2^53 a double's
    // fraction is representable, and at or above it the double is whole.
    guard thousandths >= -0x1p63 && thousandths < 0x1p63 else {
      // Outside ±9.2e15 no decimals are left to round: the shortest form that reads back as the
      // same double (`1e+20`), which Swift prints the same on every machine.
      var text = value.description
      text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
      return
    }
    var scaled = Int64(thousandths)
    let dropped = thousandths - Double(scaled)
    // Unchecked: a double with a fraction is below 2^53, far from either end.
    if dropped >= 0.5 { scaled &+= 1 } else if dropped <= -0.5 { scaled &-= 1 }
    if scaled < 0 { write(UInt8(ascii: "-")) }
    // The number is written once, as a whole number of tenths, hundredths or thousandths (the
    // fewest that keep it exact), with a digit before the decimals at least; the point then
    // goes in before the decimals. Two calls, for the whole part and the decimals, cost about
    // 30 instructions a number more (callgrind, the day trace's angles).
    var digits = scaled.magnitude
    var decimals = 3
    while decimals > 1 && digits % 10 == 0 {
      digits /= 10
      decimals -= 1
    }
    writeDigits(digits, minimumCount: decimals &+ 1)
    reserve(1)
    // Safe because the `decimals` bytes before the cursor are digits just written (at least
    // `decimals + 1` were), and the byte at the cursor is reserved: each moves one place on,
    // the last first, and the point takes the place of the first.
    let point = cursor - decimals
    var index = decimals
    while index > 0 {
      point[index] = point[index &- 1]
      index &-= 1
    }
    point.initialize(to: UInt8(ascii: "."))
    cursor += 1
  }

  /// The most bytes ``writeJSONString(_:)`` writes for a text of `utf8Count` bytes: quotes,
  /// and six bytes (`\u001f`) for each byte at worst.
  @inlinable package static func jsonStringCapacity(utf8Count: Int) -> Int { utf8Count &* 6 &+ 2 }

  /// Writes `text` as a quoted JSON string, escaping quotes, backslashes and control bytes (at
  /// most ``jsonStringCapacity(utf8Count:)`` bytes).
  @inlinable package mutating func writeJSONString(_ text: String) {
    write(UInt8(ascii: "\""))
    // The UTF-8 view lends a native string's bytes where they are; `withUTF8`, which also
    // takes a bridged one, first made a mutable copy (callgrind: 40 instructions a label more).
    if text.utf8.withContiguousStorageIfAvailable({ writeJSONStringContents($0) }) == nil {
      var text = text
      text.withUTF8 { writeJSONStringContents($0) }
    }
    write(UInt8(ascii: "\""))
  }

  // Tuning: hot-inline.
  @inlinable @inline(__always) mutating func writeJSONStringContents(_ bytes: UnsafeBufferPointer<UInt8>) {
    // Names and most labels need no escape: their bytes go in at once.
    guard Self.needsEscape(bytes) else {
      write(UnsafeRawBufferPointer(bytes))
      return
    }
    for byte in bytes { writeEscaped(byte) }
  }

  /// Whether any of `bytes` is a control character, `"` or `\\`: eight bytes a step, each word
  /// tested at once (a byte at a time: about 6 instructions a byte).
  @inlinable @inline(__always) package static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    // High bits set when a byte of `word` is below `limit` (exact for "any", limit at most 128).
    func below(_ word: UInt64, _ limit: UInt8) -> UInt64 { (word &- ones &* UInt64(limit)) & ~word & highs }
    func special(_ word: UInt64) -> Bool {
      below(word, 0x20) | below(word ^ (ones &* 0x22), 1) | below(word ^ (ones &* 0x5C), 1) != 0
    }
    // Safe because each load reads within `0..<count`: words at `offset` while `offset + 8 <=
    // count`, then the last 4 bytes from `count - 4` when at least 4 remain, or single bytes.
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    var offset = 0
    while offset &+ 8 <= count {
      if special(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
      offset &+= 8
    }
    // The last one to seven bytes as one word, without a loop (labels are often that short):
    // two overlapping 4-byte loads, or the first, middle and last byte over spaces.
    let rest = count &- offset
    guard rest > 0 else { return false }
    let word: UInt64
    if rest >= 4 {
      word =
        UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        | UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)) << 32
    } else {
      word =
        0x2020_2020_2000_0000 | UInt64(base[offset]) | UInt64(base[offset &+ rest / 2]) << 8
        | UInt64(base[count &- 1]) << 16
    }
    return special(word)
  }

  @inlinable mutating func writeEscaped(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): write(#"\""#)
    case UInt8(ascii: "\\"): write(#"\\"#)
    case 0x0A: write(#"\n"#)
    case 0x0D: write(#"\r"#)
    case 0x09: write(#"\t"#)
    case 0..<0x20:
      // Safe because both indices are a nibble, within the 16 hex digits.
      let hex: StaticString = "0123456789abcdef"
      write(#"\u00"#)
      write(hex.utf8Start[Int(byte >> 4)])
      write(hex.utf8Start[Int(byte & 0xF)])
    default: write(byte)
    }
  }
}

extension Array where Element == UInt8 {
  /// Appends what `body` writes, at most `capacity` bytes, with one copy.
  ///
  /// For small things, such as a number, that have a writer's form: `body` writes into stack
  /// memory, which is then appended at once.
  @inlinable package mutating func append(
    writingAtMost capacity: Int, _ body: (inout UnsafeByteWriter) -> Void
  ) {
    // Safe because the writer is bounded by the scratch memory's capacity, so the bytes it
    // wrote, from the start to its cursor, are all in that memory and initialized.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
      var writer = UnsafeByteWriter(at: scratch.baseAddress!, capacity: capacity)
      body(&writer)
      append(
        contentsOf: UnsafeBufferPointer(
          start: scratch.baseAddress, count: writer.cursor - scratch.baseAddress!))
    }
  }
}
