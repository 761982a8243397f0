// Text helpers shared by every writer in the package: trace lines here, cues and summaries in
// CreaseIO. `package` access: one copy, not part of the public API.

/// Number rendering shared by every output format, byte for byte the same on every machine.
package enum NumberFormatting {
  /// Appends a decimal integer.
  @inlinable package static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
    if value < 0 { output.append(UInt8(ascii: "-")) }
    appendDigits(value.magnitude, to: &output)
  }

  /// Appends the decimal digits of `magnitude`, zero-padded on the left to `minimumCount`.
  @inlinable package static func appendDigits(
    _ magnitude: UInt64, to output: inout [UInt8], minimumCount: Int = 1
  ) {
    // Digits are written backwards into 24 bytes on the stack (UInt64 has at most 20), two at
    // a time from a table of pairs, then appended at once.
    let pairs: StaticString = """
      00010203040506070809101112131415161718192021222324252627282930313233343536373839\
      40414243444546474849505152535455565758596061626364656667686970717273747576777879\
      8081828384858687888990919293949596979899
      """
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { buffer in
      var index = 24
      var value = magnitude
      while value >= 100 {
        let pair = Int(value % 100) * 2
        value /= 100
        index -= 2
        buffer[index] = pairs.utf8Start[pair]
        buffer[index + 1] = pairs.utf8Start[pair + 1]
      }
      if value >= 10 {
        index -= 2
        buffer[index] = pairs.utf8Start[Int(value) * 2]
        buffer[index + 1] = pairs.utf8Start[Int(value) * 2 + 1]
      } else {
        index -= 1
        buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
      }
      while 24 - index < minimumCount {
        index -= 1
        buffer[index] = UInt8(ascii: "0")
      }
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
    }
  }

  /// Appends `value` rounded to 3 decimals (half away from zero), without trailing zeros but
  /// with at least one decimal, so `135` is `135.0` and `0.1234` is `0.123`.
  @inlinable package static func appendDecimal(_ value: Double, to output: inout [UInt8]) {
    let thousandths = (value * 1000).rounded(.toNearestOrAwayFromZero)
    guard let scaled = Int64(exactly: thousandths) else {
      // Outside ±9.2e15 no decimals are left to round: the shortest form that reads back as the
      // same double (`1e+20`), which Swift prints the same on every machine.
      output.append(contentsOf: value.description.utf8)
      return
    }
    if scaled < 0 { output.append(UInt8(ascii: "-")) }
    appendDigits(scaled.magnitude / 1000, to: &output)
    output.append(UInt8(ascii: "."))
    var fraction = scaled.magnitude % 1000
    var width = 3
    while width > 1 && fraction % 10 == 0 {
      fraction /= 10
      width -= 1
    }
    appendDigits(fraction, to: &output, minimumCount: width)
  }

  /// Appends nanoseconds as seconds with 9 decimals, exactly.
  @inlinable package static func appendSeconds(_ nanoseconds: Int64, to output: inout [UInt8]) {
    if nanoseconds < 0 { output.append(UInt8(ascii: "-")) }
    appendDigits(nanoseconds.magnitude / 1_000_000_000, to: &output)
    output.append(UInt8(ascii: "."))
    appendDigits(nanoseconds.magnitude % 1_000_000_000, to: &output, minimumCount: 9)
  }

  /// Appends nanoseconds as milliseconds with 3 decimals, exactly (truncated to microseconds).
  @inlinable package static func appendMilliseconds(_ nanoseconds: Int64, to output: inout [UInt8]) {
    if nanoseconds < 0 { output.append(UInt8(ascii: "-")) }
    appendDigits(nanoseconds.magnitude / 1_000_000, to: &output)
    output.append(UInt8(ascii: "."))
    appendDigits(nanoseconds.magnitude % 1_000_000 / 1000, to: &output, minimumCount: 3)
  }
}

/// JSON string literals.
package enum JSONString {
  /// Appends `text` as a quoted JSON string, escaping quotes, backslashes and control bytes.
  @inlinable package static func append(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var text = text
    // Names and most labels need no escape: their bytes go in at once.
    let plain = text.withUTF8 { bytes in
      guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
      else {
        return false
      }
      output.append(contentsOf: bytes)
      return true
    }
    if plain {
      output.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(#"\""#)
      case UInt8(ascii: "\\"): output.append(#"\\"#)
      case 0x0A: output.append(#"\n"#)
      case 0x0D: output.append(#"\r"#)
      case 0x09: output.append(#"\t"#)
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        output.append(#"\u00"#)
        output.append(hex[Int(byte >> 4)])
        output.append(hex[Int(byte & 0xF)])
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}

extension Array where Element == UInt8 {
  /// Appends `count` bytes from `start`.
  @inlinable package mutating func append(_ start: UnsafePointer<UInt8>, count: Int) {
    append(contentsOf: UnsafeBufferPointer(start: start, count: count))
  }

  /// Appends a literal's bytes with one copy (a `String.UTF8View` goes through a slower
  /// generic path).
  @inlinable package mutating func append(_ literal: StaticString) {
    append(literal.utf8Start, count: literal.utf8CodeUnitCount)
  }
}
