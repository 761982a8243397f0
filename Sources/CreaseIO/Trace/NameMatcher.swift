import Crease

/// Finds the case of a ``TraceNamed`` type that bytes on a line spell, without making a
/// `String` or comparing byte by byte.
///
/// Each name is kept as its length and a fingerprint of two words that, for a given length,
/// hold every byte of it (overlapping when shorter than 16), so a match is three comparisons;
/// and with its closing quote as a ``QuotedPrefix``, to match it where it starts on a line.
struct NameMatcher<Named: TraceNamed> {
  private struct Entry {
    var count: Int
    var fingerprint: Fingerprint
    /// The name and a closing quote.
    var quoted: QuotedPrefix
    var value: Named
  }

  private typealias Fingerprint = (head: UInt64, tail: UInt64)

  private let entries: [Entry]

  init() {
    entries = Named.allCases.map { value in
      var name = value.name
      return name.withUTF8 { bytes in
        precondition(
          bytes.count <= QuotedPrefix.longestName,
          "NameMatcher holds names of at most 15 bytes, not '\(value.name)'")
        return Entry(
          count: bytes.count, fingerprint: Self.fingerprint(UnsafeRawBufferPointer(bytes)),
          quoted: QuotedPrefix(UnsafeRawBufferPointer(bytes)), value: value)
      }
    }
  }

  /// The case `bytes` spell, or `nil`.
  /// - Complexity: O(*c*) in the number of cases (a handful).
  func callAsFunction(_ bytes: UnsafeRawBufferPointer) -> Named? {
    let fingerprint = Self.fingerprint(bytes)
    for entry in entries
    where entry.count == bytes.count && entry.fingerprint.head == fingerprint.head
      && entry.fingerprint.tail == fingerprint.tail
    {
      return entry.value
    }
    return nil
  }

  /// The case whose name and a closing quote `line`'s sixteen bytes start with, and the bytes
  /// they take; `nil` when none does.
  /// - Complexity: O(*c*) in the number of cases (a handful).
  // Inlined into the canonical template, once a name. Tuning: hot-inline.
  @inline(__always)
  func matchQuoted(_ line: LineWords) -> (value: Named, length: Int)? {
    // Unchecked: a name has at most 15 bytes.
    for entry in entries where entry.quoted.isPrefix(of: line) { return (entry.value, entry.count &+ 1) }
    return nil
  }

  /// Two words that together hold every byte of `bytes` when it has at most 16 (`(0, 0)` for
  /// longer ones, whose length no name has). Safe because each case loads only within
  /// `0..<count`: words of 8 or 4 bytes from 0 and from `count` less the word, single bytes
  /// below `count`.
  private static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> Fingerprint {
    let count = bytes.count
    switch count {
    case 8...16:
      return (
        bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      )
    case 4..<8:
      return (
        UInt64(bytes.loadUnaligned(as: UInt32.self)),
        UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
      )
    case 1..<4:
      return (UInt64(bytes[0]) | UInt64(bytes[count / 2]) << 8 | UInt64(bytes[count - 1]) << 16, 0)
    default:
      return (0, 0)
    }
  }
}
