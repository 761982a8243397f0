import CreaseIO
import Testing

/// Reads every line of `text`, fed `chunkSize` bytes per read, into strings.
func lines(_ text: String, chunkSize: Int = .max, limit: Int = 1 << 20, overflow: MemorySink? = nil) throws
  -> [String]
{
  let reader = LineReader(source: MemorySource(text, chunkSize: chunkSize), maximumLineLength: limit)
  var result: [String] = []
  while let line = try reader.next(overflow: overflow) {
    switch line {
    case .unsafeComplete(let bytes): result.append(String(decoding: bytes, as: UTF8.self))
    case .overlong(let length): result.append("<overlong \(length)>")
    }
  }
  return result
}

@Suite("Line reader")
struct LineReaderTests {
  @Test("lines split across reads come out whole", arguments: [1, 2, 3, 7, 64])
  func chunked(chunkSize: Int) throws {
    #expect(try lines("ab\ncde\n\nf", chunkSize: chunkSize) == ["ab", "cde", "", "f"])
  }

  @Test("CRLF line ends are accepted")
  func crlf() throws {
    #expect(try lines("a\r\nb\r\n") == ["a", "b"])
  }

  @Test("an overlong line is reported with its length and streamed whole to the overflow sink")
  func overlong() throws {
    let long = String(repeating: "x", count: 1000)
    let sink = MemorySink()
    #expect(
      try lines("a\n\(long)\nb\n", chunkSize: 7, limit: 100, overflow: sink) == ["a", "<overlong 1000>", "b"])
    #expect(sink.text == long)
  }

  @Test("an overlong last line without a newline ends the input cleanly")
  func overlongLast() throws {
    #expect(try lines("a\n" + String(repeating: "y", count: 500), limit: 100) == ["a", "<overlong 500>"])
  }

  @Test("line numbers count every line")
  func lineNumbers() throws {
    let reader = LineReader(source: MemorySource("a\n\nb\n"))
    _ = try reader.next()
    _ = try reader.next()
    _ = try reader.next()
    #expect(reader.lineNumber == 3)
    #expect(try reader.next() == nil)
  }
}
