import CreaseJSON
import CreaseSystem
import Testing

@Suite("JSON documents written a piece at a time")
struct JSONDocumentTests {
  /// A sink that keeps what it is given and the size of each write.
  final class CountingSink: ByteSink {
    var bytes: [UInt8] = []
    var writes: [Int] = []
    func write(_ bytes: UnsafeRawBufferPointer) throws {
      self.bytes.append(contentsOf: bytes)
      writes.append(bytes.count)
    }
    func flush() throws {}
  }

  /// A row as a report writes one: an object with a name, counts and a nested object.
  static func row(_ index: Int) -> JSONDocument {
    .object([
      .init("name", .string("trace \(index) \u{e9}\"")), .init("lines", .count(index * 7)),
      .init("gaps", .object([.init("unexplained", .count(index % 3))])),
      .init("latencies", .array([.integer(1), .decimal(2.5), .null])),
    ])
  }

  /// A document holding `rows` rows under `traces`, as an array or generated.
  static func report(rows: Int, generated: Bool) -> JSONDocument {
    let traces: JSONDocument =
      generated ? .generated(.init(count: rows) { row($0) }) : .array((0..<rows).map(row))
    return .object([.init("version", .count(2)), .init("traces", traces), .init("after", .bool(true))])
  }

  @Test("a generated array writes the bytes of the array of the same elements", arguments: [0, 1, 2, 40])
  func generatedAsArray(rows: Int) {
    let generated = Self.report(rows: rows, generated: true)
    #expect(generated.bytes == Self.report(rows: rows, generated: false).bytes)
    #expect(generated == Self.report(rows: rows, generated: true))
    #expect(generated.hashValue == Self.report(rows: rows, generated: true).hashValue)
    #expect(generated != Self.report(rows: rows + 1, generated: true))
  }

  @Test("written to a sink, a long document goes out in pieces of about 64 KiB, the same bytes")
  func writtenInPieces() throws {
    let document = Self.report(rows: 5_000, generated: true)
    let sink = CountingSink()
    try document.write(to: sink)
    #expect(sink.bytes == document.bytes)
    // Several pieces, none much past 64 KiB: a row at most beyond it.
    #expect(sink.writes.count > 3, "\(sink.writes)")
    #expect(sink.writes.allSatisfy { $0 < (1 << 16) + 512 }, "\(sink.writes.max() ?? 0)")
  }

  @Test("a short document is one write, ending with a newline")
  func shortDocumentOneWrite() throws {
    let sink = CountingSink()
    try JSONDocument.array([.integer(1), .string("a")]).write(to: sink)
    #expect(sink.writes.count == 1)
    #expect(String(decoding: sink.bytes, as: UTF8.self) == "[1, \"a\"]\n")
  }
}
