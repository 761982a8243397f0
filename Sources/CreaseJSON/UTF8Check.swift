/// Finds the first byte that is not well-formed UTF-8, which json-c's own check lets through:
/// it checks the shape of each sequence but not its value, so a UTF-16 surrogate (`ED A0 80`),
/// an overlong form (`C0 AF`) or a code point past U+10FFFF (`F4 90 80 80`) passes it, and would
/// then be replaced by U+FFFD without a word.
package enum UTF8Check {
  /// The offset of the first byte of the first ill-formed sequence in `bytes`, or `nil` when
  /// all of it is well-formed.
  /// - Complexity: O(*n*); a single pass that stops at once on ASCII-only text's last byte.
  package static func firstInvalidOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let firstNonASCII = bytes.firstIndex(where: { $0 >= 0x80 }) else { return nil }
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes[firstNonASCII...].makeIterator()
    var offset = firstNonASCII
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }
}
