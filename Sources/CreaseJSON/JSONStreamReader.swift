import Crease
import CreaseSystem

/// Reads one JSON document from a byte source a piece at a time, so that a summary or a report
/// costs memory for what its reader keeps, not for the file: json-c builds the whole tree first,
/// and a 150 MB summary took over 2 GB that way.
///
/// The grammar is RFC 8259's, strict as json-c's strict mode is (no comments, no trailing
/// commas, no `NaN`), strings checked as UTF-8 as ``UTF8Check`` checks them, nesting at most
/// ``JSONNesting.maximumDepth`` deep. A reader walks the document with ``next()``, builds the
/// parts it keeps with ``document()`` and passes over the rest with ``skipValue()``; errors
/// name the line and column.
package final class JSONStreamReader {
  /// A piece of the document.
  package enum Token: Equatable {
    case beginObject
    case endObject
    case beginArray
    case endArray
    /// A member's name; its value follows.
    case key(String)
    case value(JSONDocument)
  }

  package let source: ByteSource
  // The state below is read and changed a byte at a time. Unchecked for exclusive access,
  // safe because only this class's own methods touch it, on one thread at a time (the reader
  // is not `Sendable`), and no access to it is open across a call that could come back into
  // the same reader: the one call out while `buffer` is open, `source.read(into:)`, goes to a
  // source that has no way to reach this reader, which its owner makes and never hands out
  // (`FleetReport.read`). Checked, the checks were 27 % of `crease report`'s instructions.
  // Tuning: inout-state.
  @exclusivity(unchecked) private var buffer = [UInt8](repeating: 0, count: 1 << 16)
  @exclusivity(unchecked) private var start = 0
  @exclusivity(unchecked) private var end = 0
  @exclusivity(unchecked) private var exhausted = false
  @exclusivity(unchecked) private var line = 1
  @exclusivity(unchecked) private var column = 1
  /// What each open object or array expects next.
  @exclusivity(unchecked) private var stack: [Expecting] = []
  @exclusivity(unchecked) private var finished = false
  /// Whether strings are gathered (not while a value is skipped).
  @exclusivity(unchecked) private var keepsStrings = true
  /// The bytes of the number or string being read, kept between them so that each reuses the
  /// storage: an array made for each was an allocation a number and a string.
  @exclusivity(unchecked) private var scratch: [UInt8] = []
  /// How many bytes of a skipped string are checked at a time.
  private static let skippedStringPiece = 1 << 16
  /// The largest scratch kept from one value to the next, in bytes: a summary's numbers and
  /// strings fit in far less, and a longer string's storage is let go with it.
  private static let keptScratchCapacity = 1 << 16

  private enum Expecting {
    case firstKeyOrEnd, colonValue, commaOrEndObject
    case firstValueOrEnd, commaOrEndArray
  }

  package init(source: ByteSource) { self.source = source }

  /// The next token, or `nil` after the whole document (and nothing but white space after it).
  /// - Complexity: O(*n*) in the token's length.
  package func next() throws -> Token? {
    try skipWhitespace()
    guard let expecting = stack.last else {
      guard !finished else {
        if try peek() != nil { throw error("invalid JSON: unexpected text after the document") }
        return nil
      }
      finished = true
      return try value()
    }
    switch expecting {
    case .firstKeyOrEnd, .commaOrEndObject:
      if try peek() == UInt8(ascii: "}") {
        try advance()
        stack.removeLast()
        return .endObject
      }
      if expecting == .commaOrEndObject {
        try expect(UInt8(ascii: ","), "',' or '}'")
        try skipWhitespace()
      }
      return try key()
    case .colonValue:
      try expect(UInt8(ascii: ":"), "':'")
      try skipWhitespace()
      stack[stack.count - 1] = .commaOrEndObject
      return try value()
    case .firstValueOrEnd, .commaOrEndArray:
      if try peek() == UInt8(ascii: "]") {
        try advance()
        stack.removeLast()
        return .endArray
      }
      if expecting == .commaOrEndArray {
        try expect(UInt8(ascii: ","), "',' or ']'")
        try skipWhitespace()
      }
      stack[stack.count - 1] = .commaOrEndArray
      return try value()
    }
  }

  /// The value that starts at the next token, whole. For a part of bounded size: an element of
  /// an array, a member the reader keeps.
  package func document() throws -> JSONDocument {
    guard let token = try next() else { throw error("invalid JSON: the document ended early") }
    return try document(startingWith: token)
  }

  /// The value that `token`, just read, starts.
  package func document(startingWith token: Token) throws -> JSONDocument {
    switch token {
    case .value(let value): return value
    case .beginArray:
      var elements: [JSONDocument] = []
      while let token = try next(), token != .endArray { elements.append(try document(startingWith: token)) }
      return .array(elements)
    case .beginObject:
      var members: [JSONDocument.Member] = []
      while case .key(let key)? = try next() { members.append(.init(key, try document())) }
      return .object(members)
    case .key, .endArray, .endObject:
      throw error("invalid JSON: a value was expected")
    }
  }

  /// Passes over the value that starts at the next token without keeping it: its strings are
  /// checked but not gathered, so a megabyte of text costs no memory.
  package func skipValue() throws {
    let depth = stack.count
    keepsStrings = false
    defer { keepsStrings = true }
    repeat {
      guard try next() != nil else { throw error("invalid JSON: the document ended early") }
    } while stack.count > depth
  }

  /// A ``JSONFile/Error`` at the reader's place.
  package func error(_ message: String) -> JSONFile.Error {
    JSONFile.Error(path: source.name, line: line, column: column, message: message)
  }

  // MARK: Tokens

  private func key() throws -> Token {
    guard try peek() == UInt8(ascii: "\"") else {
      throw error("invalid JSON: quoted object property name expected")
    }
    let name = try string()
    stack[stack.count - 1] = .colonValue
    return .key(name)
  }

  private func value() throws -> Token {
    guard let byte = try peek() else { throw error("invalid JSON: the document ended early") }
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      guard stack.count < Int(JSONNesting.maximumDepth) else {
        throw error("invalid JSON: nested more than \(JSONNesting.maximumDepth) levels")
      }
      try advance()
      let isObject = byte == UInt8(ascii: "{")
      stack.append(isObject ? .firstKeyOrEnd : .firstValueOrEnd)
      return isObject ? .beginObject : .beginArray
    case UInt8(ascii: "\""):
      return .value(.string(try string()))
    case UInt8(ascii: "t") where try literal("true"): return .value(.bool(true))
    case UInt8(ascii: "f") where try literal("false"): return .value(.bool(false))
    case UInt8(ascii: "n") where try literal("null"): return .value(.null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .value(try number())
    default: throw error("invalid JSON: unexpected character")
    }
  }

  /// Whether the literal `word` is next; moves past it when it is.
  private func literal(_ word: StaticString) throws -> Bool {
    let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    for (index, expected) in bytes.enumerated() {
      guard try peek(at: index) == expected else { return false }
    }
    for _ in bytes { try advance() }
    return true
  }

  private func number() throws -> JSONDocument {
    var text = takeScratch()
    defer { giveBackScratch(text) }
    func digits() throws -> Int {
      var count = 0
      while let byte = try peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        text.append(byte)
        try advance()
        count += 1
      }
      return count
    }
    if try peek() == UInt8(ascii: "-") {
      text.append(UInt8(ascii: "-"))
      try advance()
    }
    let leadingZero = try peek() == UInt8(ascii: "0")
    let whole = try digits()
    guard whole > 0, !(leadingZero && whole > 1) else { throw error("invalid JSON: unexpected character") }
    var isInteger = true
    if try peek() == UInt8(ascii: ".") {
      text.append(UInt8(ascii: "."))
      try advance()
      guard try digits() > 0 else { throw error("invalid JSON: a digit was expected") }
      isInteger = false
    }
    if let byte = try peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
      text.append(byte)
      try advance()
      if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
        text.append(sign)
        try advance()
      }
      guard try digits() > 0 else { throw error("invalid JSON: a digit was expected") }
      isInteger = false
    }
    // An integer past 64 bits is still a number, as json-c's saturated one is: a reader that
    // wants an integer refuses it.
    if isInteger, let integer = Self.integer(text) { return .integer(integer) }
    guard let decimal = Double(String(decoding: text, as: UTF8.self)), decimal.isFinite else {
      throw error("invalid JSON: number out of range")
    }
    return .exact(decimal)
  }

  /// The value of an integer's text (an optional `-`, then digits), or `nil` past 64 bits: what
  /// `Int64(String)` gives for it, without the string.
  private static func integer(_ text: [UInt8]) -> Int64? {
    let negative = text.first == UInt8(ascii: "-")
    var value: Int64 = 0
    for digit in text.dropFirst(negative ? 1 : 0) {
      let (scaled, overflowScaling) = value.multipliedReportingOverflow(by: 10)
      // Each digit goes toward the number's sign, so that Int64.min, whose size is one past
      // Int64.max, fits.
      let step = Int64(digit &- UInt8(ascii: "0"))
      let (next, overflowAdding) =
        negative ? scaled.subtractingReportingOverflow(step) : scaled.addingReportingOverflow(step)
      guard !overflowScaling, !overflowAdding else { return nil }
      value = next
    }
    return value
  }

  /// The scratch bytes, empty, for a number or a string to gather its text in; given back after.
  private func takeScratch() -> [UInt8] {
    var bytes: [UInt8] = []
    swap(&bytes, &scratch)
    bytes.removeAll(keepingCapacity: true)
    return bytes
  }

  /// Keeps `bytes` as the scratch unless a long string grew it past ``keptScratchCapacity``:
  /// the reader then holds no more memory after that string than it did before it.
  private func giveBackScratch(_ bytes: [UInt8]) {
    if bytes.capacity <= Self.keptScratchCapacity { scratch = bytes }
  }

  private func string() throws -> String {
    try advance()  // the opening quote
    var bytes = takeScratch()
    defer { giveBackScratch(bytes) }
    while true {
      guard let byte = try peek() else { throw error("invalid JSON: unterminated string") }
      switch byte {
      case UInt8(ascii: "\""):
        try advance()
        let invalid = bytes.withUnsafeBytes { UTF8Check.firstInvalidOffset(in: $0) }
        guard invalid == nil else { throw error("invalid JSON: invalid utf-8 string") }
        return String(decoding: bytes, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try advance()
        try escape(into: &bytes)
      case 0..<0x20:
        throw error("invalid JSON: control character in a string")
      default:
        bytes.append(byte)
        try advance()
        if !keepsStrings && bytes.count >= Self.skippedStringPiece { try checkSkippedPiece(of: &bytes) }
      }
    }
  }

  /// Checks the bytes of a skipped string up to its last whole character and drops them.
  private func checkSkippedPiece(of bytes: inout [UInt8]) throws {
    // A character starts at a byte that is not a continuation byte (10xxxxxx).
    guard let cut = bytes.lastIndex(where: { $0 & 0xC0 != 0x80 }), cut > 0 else { return }
    let invalid = bytes.withUnsafeBytes {
      UTF8Check.firstInvalidOffset(in: UnsafeRawBufferPointer(rebasing: $0[..<cut]))
    }
    guard invalid == nil else { throw error("invalid JSON: invalid utf-8 string") }
    bytes.removeSubrange(..<cut)
  }

  /// Appends the character the escape after a backslash stands for, as UTF-8.
  private func escape(into bytes: inout [UInt8]) throws {
    guard let letter = try peek() else { throw error("invalid JSON: unterminated string") }
    try advance()
    if let character = JSONEscape.character(for: letter) {
      bytes.append(character)
      return
    }
    switch letter {
    case UInt8(ascii: "u"):
      let unit = try hexUnit()
      var value = UInt32(unit)
      if (0xD800..<0xDC00).contains(unit) {
        // A high surrogate pairs with the low one that must follow.
        guard try literal("\\u") else { throw error("invalid JSON: invalid utf-16 surrogate pair") }
        let low = try hexUnit()
        guard (0xDC00..<0xE000).contains(low) else {
          throw error("invalid JSON: invalid utf-16 surrogate pair")
        }
        value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      }
      guard let scalar = Unicode.Scalar(value) else {
        throw error("invalid JSON: invalid utf-16 surrogate pair")
      }
      bytes.append(contentsOf: String(Character(scalar)).utf8)
    default:
      throw error("invalid JSON: invalid escape")
    }
  }

  /// Four hex digits after `\\u`.
  private func hexUnit() throws -> UInt16 {
    var unit: UInt16 = 0
    for _ in 0..<4 {
      guard let byte = try peek(), let digit = Self.hexValue(byte) else {
        throw error("invalid JSON: invalid escape")
      }
      unit = unit << 4 | UInt16(digit)
      try advance()
    }
    return unit
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  // MARK: Bytes

  /// The byte `offset` places ahead, reading more of the source as needed; `nil` past the end.
  // Asked for every byte: a byte already read is taken inline, only reading more is a call.
  // Tuning: hot-inline.
  @inline(__always)
  private func peek(at offset: Int = 0) throws -> UInt8? {
    if start + offset < end { return buffer[start + offset] }
    return try peekReadingMore(at: offset)
  }

  /// ``peek(at:)`` past the bytes read so far.
  private func peekReadingMore(at offset: Int) throws -> UInt8? {
    while start + offset >= end {
      guard !exhausted else { return nil }
      try fill()
    }
    return buffer[start + offset]
  }

  /// Moves past one byte, keeping the line and column.
  @inline(__always)  // after every byte. Tuning: hot-inline.
  private func advance() throws {
    guard let byte = try peek() else { return }
    start += 1
    if byte == 0x0A {
      line += 1
      column = 1
    } else {
      column += 1
    }
  }

  private func expect(_ byte: UInt8, _ what: String) throws {
    guard try peek() == byte else { throw error("invalid JSON: \(what) expected") }
    try advance()
  }

  private func skipWhitespace() throws {
    while let byte = try peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      try advance()
    }
  }

  private func fill() throws {
    if start > 0 {
      // The rest moves to the front; the regions may overlap, which copyMemory allows. Safe
      // because `start <= end <= buffer.count`, which every step keeps.
      buffer.withUnsafeMutableBytes { bytes in
        bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + start, byteCount: end - start)
      }
      end -= start
      start = 0
    }
    if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
    let count = try buffer.withUnsafeMutableBytes { bytes in
      try source.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[end...]))
    }
    if count == 0 { exhausted = true } else { end += count }
  }
}
