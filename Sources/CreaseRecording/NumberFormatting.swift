// Text helpers shared by every writer in the package: trace lines here, cues and summaries in
// CreaseIO. `package` access: one copy, not part of the public API.

/// Number rendering shared by every output format, byte for byte the same on every machine.
///
/// Each is ``UnsafeByteWriter``'s form appended to an array, for writers that are not on a hot
/// path.
package enum NumberFormatting {
  /// Appends a decimal integer.
  @inlinable package static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
    output.append(writingAtMost: UnsafeByteWriter.integerCapacity) { $0.writeInteger(value) }
  }

  /// Appends `value` rounded to 3 decimals (half away from zero), without trailing zeros but
  /// with at least one decimal, so `135` is `135.0` and `0.1234` is `0.123`.
  @inlinable package static func appendDecimal(_ value: Double, to output: inout [UInt8]) {
    output.append(writingAtMost: UnsafeByteWriter.decimalCapacity) { $0.writeDecimal(value) }
  }

  /// Appends nanoseconds as seconds with 9 decimals, exactly.
  @inlinable package static func appendSeconds(_ nanoseconds: Int64, to output: inout [UInt8]) {
    appendFixedPoint(
      nanoseconds.magnitude, negative: nanoseconds < 0, unit: 1_000_000_000, decimals: 9, to: &output)
  }

  /// Appends nanoseconds as milliseconds with 3 decimals, exactly (truncated to microseconds).
  @inlinable package static func appendMilliseconds(_ nanoseconds: Int64, to output: inout [UInt8]) {
    appendFixedPoint(
      nanoseconds.magnitude / 1000, negative: nanoseconds < 0, unit: 1000, decimals: 3, to: &output)
  }

  /// Appends `magnitude / unit` with `decimals` decimals, exactly, where `unit` is
  /// 10^`decimals`; `negative` writes a minus sign first, even when the result rounds to 0.
  @inlinable package static func appendFixedPoint(
    _ magnitude: UInt64, negative: Bool, unit: UInt64, decimals: Int, to output: inout [UInt8]
  ) {
    output.append(writingAtMost: 2 + UnsafeByteWriter.integerCapacity + decimals) { writer in
      if negative { writer.write(UInt8(ascii: "-")) }
      writer.writeDigits(magnitude / unit)
      writer.write(UInt8(ascii: "."))
      writer.writeDigits(magnitude % unit, minimumCount: decimals)
    }
  }
}

/// JSON string literals.
package enum JSONString {
  /// Appends `text` as a quoted JSON string, escaping quotes, backslashes and control bytes.
  @inlinable package static func append(_ text: String, to output: inout [UInt8]) {
    output.append(writingAtMost: UnsafeByteWriter.jsonStringCapacity(utf8Count: text.utf8.count)) {
      $0.writeJSONString(text)
    }
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
