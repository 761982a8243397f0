import Crease
import CreaseIO

/// A plain list of frame timestamps, one a line: whole nanoseconds (`33366667`) or decimal
/// seconds (`0.033366667`, up to nine decimals, read exactly); `#` starts a comment, and blank
/// lines are skipped. What a camera's per-frame log or a script's dump gives.
public enum TimestampList {
  /// Each line's timestamp in nanoseconds, in line order.
  /// - Throws: an `InputError` with the line and column of the first line that is not one.
  public static func read(_ source: ByteSource) throws -> [Nanoseconds] {
    let reader = LineReader(source: source)
    var times: [Nanoseconds] = []
    var number = 0
    while let line = try reader.next() {
      number += 1
      guard var text = line.bytes else {
        throw InputError(
          path: source.name, line: number, column: 1, message: "the line is too long for a timestamp")
      }
      guard times.count < MovieTiming.mostSamples else {
        throw InputError(
          path: source.name, line: number, column: 1,
          message: "more than \(MovieTiming.mostSamples) timestamps, the most Crease imports from a file")
      }
      if let comment = text.firstIndex(of: UInt8(ascii: "#")) { text.removeSubrange(comment...) }
      let start = text.firstIndex { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D } ?? text.endIndex
      let end = (text.lastIndex { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D } ?? -1) + 1
      guard start < end else { continue }
      guard let time = nanoseconds(text[start..<end]) else {
        throw InputError(
          path: source.name, line: number, column: start + 1,
          message: "'\(String(decoding: text[start..<end], as: UTF8.self))' is not a timestamp: "
            + "whole nanoseconds, or seconds with up to nine decimals")
      }
      times.append(time)
    }
    return times
  }

  /// Whole nanoseconds, or decimal seconds read digit by digit (no rounding through a double);
  /// `nil` for anything else or a time past 2⁶³ ns.
  static func nanoseconds(_ text: ArraySlice<UInt8>) -> Nanoseconds? {
    var digits = text
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    let point = digits.firstIndex(of: UInt8(ascii: "."))
    let whole = digits[..<(point ?? digits.endIndex)]
    let fraction = point.map { digits[(digits.index(after: $0))...] } ?? []
    guard !whole.isEmpty, fraction.count <= 9, point == nil || !fraction.isEmpty,
      (whole + fraction).allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    var value: Int64 = 0
    for digit in whole {
      let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = times.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
      guard !overflowTimes, !overflowSum else { return nil }
      value = sum
    }
    if point != nil {
      var nanos: Int64 = 0
      for index in 0..<9 {
        let digit =
          index < fraction.count ? Int64(fraction[fraction.startIndex + index] - UInt8(ascii: "0")) : 0
        nanos = nanos * 10 + digit
      }
      let (seconds, overflow) = value.multipliedReportingOverflow(by: 1_000_000_000)
      let (sum, overflowSum) = seconds.addingReportingOverflow(nanos)
      guard !overflow, !overflowSum else { return nil }
      value = sum
    }
    return Nanoseconds(negative ? -value : value)
  }
}
