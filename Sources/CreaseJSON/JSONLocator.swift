/// Finds where a key's value starts in a line of JSON, for error columns.
///
/// json-c reports where parsing failed but not where each member sits, so when a well-formed
/// line has a bad field, this scanner walks the raw bytes to the field. It runs only on the
/// error path.
package enum JSONLocator {
  /// The 1-based byte column of the value at `path` (object keys, outermost first; `key[i]` is
  /// element *i* of the array `key` holds), or of the deepest enclosing value found; 1 when
  /// nothing matches.
  package static func column(of path: [String], in line: UnsafeRawBufferPointer) -> Int {
    var scanner = Scanner(bytes: line)
    scanner.skipWhitespace()
    var found = scanner.offset
    for key in path {
      let start = scanner.offset
      if let valueStart = scanner.findMember(key) {
        found = valueStart
        continue
      }
      scanner.offset = start
      guard let (name, index) = arrayElement(key), let arrayStart = scanner.findMember(name) else { break }
      found = arrayStart
      guard let elementStart = scanner.findElement(index) else { break }
      found = elementStart
    }
    return found + 1
  }

  /// `key[i]` split into `key` and *i*.
  private static func arrayElement(_ key: String) -> (String, Int)? {
    guard key.last == "]", let open = key.lastIndex(of: "["),
      let index = Int(key[key.index(after: open)..<key.index(before: key.endIndex)])
    else { return nil }
    return (String(key[..<open]), index)
  }

  /// Whether a member name of the object at `path` holds an escaped NUL (`\u0000`). json-c keeps
  /// member names as C strings, which would cut such a name short, so a caller refuses it.
  package static func memberNameHoldsNUL(at path: [String], in line: UnsafeRawBufferPointer) -> Bool {
    var scanner = Scanner(bytes: line)
    scanner.offset = column(of: path, in: line) - 1
    guard scanner.current == UInt8(ascii: "{") else { return false }
    scanner.offset += 1
    while true {
      scanner.skipWhitespace()
      guard scanner.current == UInt8(ascii: "\"") else { return false }
      let nameStart = scanner.offset + 1
      scanner.skipString()
      if holdsEscapedNUL(line[nameStart..<max(nameStart, scanner.offset - 1)]) { return true }
      scanner.skipWhitespace()
      guard scanner.current == UInt8(ascii: ":") else { return false }
      scanner.offset += 1
      scanner.skipWhitespace()
      scanner.skipValue()
      scanner.skipWhitespace()
      guard scanner.current == UInt8(ascii: ",") else { return false }
      scanner.offset += 1
    }
  }

  /// Whether the raw bytes of a JSON string hold `\u0000`, escapes read in order.
  private static func holdsEscapedNUL(_ bytes: Slice<UnsafeRawBufferPointer>) -> Bool {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == UInt8(ascii: "\\") {
        let escape = bytes[(index + 1)..<min(index + 6, bytes.endIndex)]
        if escape.elementsEqual("u0000".utf8) { return true }
        index += 2
      } else {
        index += 1
      }
    }
    return false
  }

  /// Safe because every byte is read below `bytes.count` (``current`` is `nil` past it), of a
  /// line the caller lends for the call.
  private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
      while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
    }

    /// With `offset` at an object, returns where the value of its member named `key` starts,
    /// and moves there; `nil` when the object has no such member. Names are compared as json-c
    /// reads them (escapes decoded), and of several members with one name the last counts, the
    /// one json-c keeps.
    mutating func findMember(_ key: String) -> Int? {
      guard current == UInt8(ascii: "{") else { return nil }
      offset += 1
      var found: Int?
      while true {
        skipWhitespace()
        guard let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { break }
        let nameStart = offset + 1
        skipString()
        let name = Self.decoded(bytes[nameStart..<Swift.max(nameStart, offset - 1)])
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { break }
        offset += 1
        skipWhitespace()
        if name == key { found = offset }
        skipValue()
        skipWhitespace()
        guard current == UInt8(ascii: ",") else { break }
        offset += 1
      }
      if let found { offset = found }
      return found
    }

    /// The text of a JSON string's raw bytes, its escapes decoded (`\u0074` is `t`).
    static func decoded(_ raw: Slice<UnsafeRawBufferPointer>) -> String {
      guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
      var units: [UInt16] = []
      var index = raw.startIndex
      func hex(at start: Int) -> UInt16? {
        guard start + 4 <= raw.endIndex else { return nil }
        return UInt16(String(decoding: raw[start..<(start + 4)], as: UTF8.self), radix: 16)
      }
      while index < raw.endIndex {
        let byte = raw[index]
        guard byte == UInt8(ascii: "\\"), index + 1 < raw.endIndex else {
          // Plain bytes go through UTF-16 so that decoded escapes and text join in order.
          var end = index + 1
          while end < raw.endIndex, raw[end] != UInt8(ascii: "\\") { end += 1 }
          units += String(decoding: raw[index..<end], as: UTF8.self).utf16
          index = end
          continue
        }
        let escape = raw[index + 1]
        index += 2
        if let character = JSONEscape.character(for: escape) {
          units.append(UInt16(character))
        } else if escape == UInt8(ascii: "u"), let unit = hex(at: index) {
          units.append(unit)
          index += 4
        } else {
          units.append(UInt16(escape))
        }
      }
      return String(decoding: units, as: UTF16.self)
    }

    /// With `offset` at an array, returns where its element `index` starts, and moves there;
    /// `nil` when it has fewer elements.
    mutating func findElement(_ index: Int) -> Int? {
      guard current == UInt8(ascii: "[") else { return nil }
      offset += 1
      skipWhitespace()
      for _ in 0..<index {
        skipValue()
        skipWhitespace()
        guard current == UInt8(ascii: ",") else { return nil }
        offset += 1
        skipWhitespace()
      }
      return current == nil || current == UInt8(ascii: "]") ? nil : offset
    }

    /// Moves past a string starting at `offset`, escapes included.
    mutating func skipString() {
      guard let quote = current else { return }
      offset += 1
      while let byte = current {
        offset += 1
        if byte == UInt8(ascii: "\\") {
          offset += 1
        } else if byte == quote {
          return
        }
      }
    }

    /// Moves past one value: a string, a nested object or array, or a bare literal.
    mutating func skipValue() {
      var depth = 0
      while let byte = current {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
          skipString()
          if depth == 0 { return }
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if depth == 0 { return }
          depth -= 1
          if depth == 0 {
            offset += 1
            return
          }
        case UInt8(ascii: ","):
          if depth == 0 { return }
        default:
          break
        }
        offset += 1
      }
    }
  }
}
