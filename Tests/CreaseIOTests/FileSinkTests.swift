import CreaseIO
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("file sink")
struct FileSinkTests {
  /// What `writes` put through a sink of `capacity` bytes into a pipe, read back after a flush.
  private func written(capacity: Int, _ writes: [String]) throws -> String {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    // The write end is closed here, once, so the read below sees its end: a sink that closed it
    // too would close it a second time, and tests run in parallel may have reused the number.
    let sink = FileSink(descriptor: ends[1], name: "pipe", capacity: capacity)
    for text in writes { try sink.write(text) }
    try sink.flush()
    close(ends[1])
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(ends[0], &chunk, chunk.count)
      guard count > 0 else { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test("blocks of every size, small ones buffered and large ones written through, come out in order")
  func order() throws {
    let capacity = 16
    var writes: [String] = []
    for length in [1, 3, 7, 8, 9, 15, 16, 17, 40, 2, 8, 1] {
      writes.append(String(repeating: String(UnicodeScalar(UInt8(97 + writes.count))), count: length))
    }
    #expect(try written(capacity: capacity, writes) == writes.joined())
  }

  @Test("a line-buffered sink holds nothing back between writes")
  func lineBuffered() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let sink = FileSink(descriptor: ends[1], name: "pipe", closesDescriptor: true, capacity: 64)
    sink.isLineBuffered = true
    try sink.write("one\n")
    var chunk = [UInt8](repeating: 0, count: 16)
    let count = read(ends[0], &chunk, chunk.count)
    #expect(String(decoding: chunk[..<max(count, 0)], as: UTF8.self) == "one\n")
  }
}
