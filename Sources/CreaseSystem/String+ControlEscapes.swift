extension String {
  /// The text with every control character (C0, DEL and C1) written as an escape, `\n`, `\r`,
  /// `\t` or `\u001B`, so that input quoted in a message stays on its one line and cannot move
  /// the cursor or change the colours of a terminal.
  /// - Complexity: O(*n*) in the text's length; the text itself when it has nothing to escape.
  public var escapingControlCharacters: String {
    guard unicodeScalars.contains(where: \.isControlCharacter) else { return self }
    var escaped = ""
    escaped.reserveCapacity(utf8.count + 8)
    for scalar in unicodeScalars {
      switch scalar {
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      case "\t": escaped += "\\t"
      case _ where scalar.isControlCharacter:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}

extension Unicode.Scalar {
  /// Whether the scalar is a C0 or C1 control character or DEL.
  fileprivate var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
