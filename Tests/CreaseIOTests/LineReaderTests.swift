import Testing

@testable import CreaseIO

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

  @Test("the bytes it lends are followed by zeros, after every read and every overlong line")
  func zerosAfterTheBytes() throws {
    // The JSON Lines template reads past the buffered bytes without checking their count, and
    // relies on finding zeros there (`ZeroPaddedBytes`): a compaction, a short last read, an
    // overlong line skipped, and a buffer filled to its last byte (a line of the limit's
    // length) each leave other bytes behind the end.
    let text =
      "{\"t\":1}\n" + String(repeating: "x", count: 40) + "\nab\n" + String(repeating: "y", count: 16)
      + "\n" + String(repeating: "z", count: 300) + "\ncd"
    for limit in [16, 100, 1 << 20] {
      for chunkSize in [1, 3, 7, 16, 64, .max] {
        let reader = LineReader(source: MemorySource(text, chunkSize: chunkSize), maximumLineLength: limit)
        var reads = 0
        repeat {
          let buffered = reader.unsafeBuffered.bytes
          let after = UnsafeRawBufferPointer(
            start: buffered.baseAddress! + buffered.count, count: ZeroPaddedBytes.padding)
          #expect(
            after.allSatisfy { $0 == 0 }, "limit \(limit), chunks of \(chunkSize), after \(reads) lines")
          reads += 1
        } while try reader.next() != nil
        #expect(reads == 7, "every line was read (limit \(limit), chunks of \(chunkSize))")
      }
    }
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
