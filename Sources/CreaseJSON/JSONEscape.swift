/// JSON's string escapes (RFC 8259, 7), for the readers that decode strings themselves.
enum JSONEscape {
  /// The byte a one-letter escape after a backslash stands for (`n` is a newline, `"` a quote),
  /// or `nil` for `u` (four hex digits follow) and for letters that are no escape.
  static func character(for letter: UInt8) -> UInt8? {
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    default: nil
    }
  }
}
