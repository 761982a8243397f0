import Crease
import CreaseIO
import Testing

@Suite("binary trace encoder")
struct BinaryTraceEncoderTests {
  static func frame(_ t: Int64, on stream: String) -> Event {
    Event(
      t: Nanoseconds(t),
      .frame(Frame(stream: StreamName(rawValue: stream), pts: PresentationTime(nanoseconds: t))))
  }

  @Test(
    "a record too long for the format is refused, and the records after it read back as if it was never offered",
    arguments: BinaryTraceFormat.readableVersions)
  func refusesALongRecord(version: UInt16) throws {
    var encoder = BinaryTraceEncoder(version: version)
    var bytes = encoder.fileHeader
    try encoder.encode(.event(Self.frame(10, on: "video")), into: &bytes)
    let before = bytes
    // A new name and a later time, both of which the reader must never hear of.
    let long = Self.frame(100, on: String(repeating: "n", count: BinaryTraceFormat.maximumRecordLength))
    #expect(throws: BinaryTraceEncoder.Unwritable.self) { try encoder.encode(.event(long), into: &bytes) }
    #expect(bytes == before)
    let after = [Self.frame(50, on: "front"), Self.frame(60, on: "video"), Self.frame(70, on: "front")]
    for event in after { try encoder.encode(.event(event), into: &bytes) }
    #expect(try BinaryTraceReaderTests.events(in: bytes) == [Self.frame(10, on: "video")] + after)
  }

  @Test("a header of more than 65,535 streams is refused in version 1 and written in version 2")
  func manyStreams() throws {
    let header = TraceHeader(
      nominalFrameRates: Dictionary(
        uniqueKeysWithValues: (0...65_535).map { (StreamName(rawValue: "s\($0)"), 30.0) }))
    var version1 = BinaryTraceEncoder(version: 1)
    var bytes = version1.fileHeader
    #expect {
      try version1.encode(.header(header), into: &bytes)
    } throws: { error in
      "\(error)" == "a header of 65536 streams; binary version 1 holds at most 65535"
    }
    var version2 = BinaryTraceEncoder()
    bytes = version2.fileHeader
    try version2.encode(.header(header), into: &bytes)
    guard case .record(.header(let read)) = try BinaryTraceReader(source: MemorySource(bytes)).next() else {
      Issue.record("the header reads back")
      return
    }
    #expect(read == header)
  }
}
