import CreaseJSON
import CreaseSystem
import Testing

@Suite("JSONStreamReader: numbers and strings as a summary's reader takes them")
struct JSONStreamReaderTests {
  /// The document `text` holds, read by the stream reader `chunkSize` bytes a read.
  static func read(_ text: String, chunkSize: Int = .max) throws -> JSONDocument {
    let reader = JSONStreamReader(source: MemorySource(text, chunkSize: chunkSize))
    let document = try reader.document()
    #expect(try reader.next() == nil)
    return document
  }

  /// What a number's spelling stands for: an integer while it fits in 64 bits, else the
  /// nearest `Double`, as `Int64(String)` and `Double(String)` give them.
  static func expected(_ spelled: String) -> JSONDocument {
    if !spelled.contains(where: { ".eE".contains($0) }), let integer = Int64(spelled) {
      return .integer(integer)
    }
    return .exact(Double(spelled)!)
  }

  @Test(
    "an integer is exact to the ends of 64 bits, and one past them is the nearest double",
    arguments: [
      "0", "-0", "7", "-42", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
      "-9223372036854775809", "18446744073709551616", "12345678901234567890123", "1.5", "-2e3",
      "6.02E+23", "1e-7",
    ])
  func numbers(spelled: String) throws {
    #expect(try Self.read(spelled) == Self.expected(spelled))
    #expect(try Self.read("[\(spelled)]", chunkSize: 1) == .array([Self.expected(spelled)]))
  }

  @Test("random integers read as Int64(String) reads them")
  func randomIntegers() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<2_000 {
      let length = Int.random(in: 1...21, using: &generator)
      let digits = String(
        (0..<length).map { index in
          Character(String(Int.random(in: (index == 0 && length > 1 ? 1 : 0)...9, using: &generator)))
        })
      let spelled = Bool.random(using: &generator) ? "-" + digits : digits
      #expect(try Self.read(spelled) == Self.expected(spelled), "seed \(seed): \(spelled)")
    }
  }

  @Test("strings and numbers in turn keep their own text, short, long, escaped or empty")
  func stringsAndNumbersInTurn() throws {
    let text = #"["a", 1, "a name past fifteen bytes long", -5, "", "\u00e9\n\"", 2.5, "b"]"#
    let expected: JSONDocument = .array([
      .string("a"), .integer(1), .string("a name past fifteen bytes long"), .integer(-5), .string(""),
      .string("é\n\""), .exact(2.5), .string("b"),
    ])
    #expect(try Self.read(text) == expected)
    #expect(try Self.read(text, chunkSize: 3) == expected)
  }

  @Test("a string longer than the kept scratch reads whole, and the values after it read as before")
  func longStringThenShortValues() throws {
    let long = String(repeating: "é", count: 50_000)
    let expected: JSONDocument = .array([.string(long), .string("x"), .integer(3), .string("y")])
    #expect(try Self.read(#"[""# + long + #"", "x", 3, "y"]"#, chunkSize: 4_096) == expected)
  }
}
