import Crease
import Testing

@testable import CreaseIO

@Suite("reading ahead on a second thread")
struct ReadAheadReaderTests {
  /// What a reader says about one item, in a form that compares whole.
  struct Observation: Equatable, CustomStringConvertible {
    var item: String
    var raw: [UInt8]?
    var position: Int
    var bytesRead: Int
    var lineTerminator: String
    var unknownKeys: [UnknownKey]

    var description: String {
      "\(position): \(item) raw=\(raw.map { String(decoding: $0, as: UTF8.self) } ?? "nil")"
    }
  }

  /// Everything `reader` hands over, item by item, and the error it ends with, if any. With
  /// `takingEvents`, each event a reading-ahead reader offers whose `t` `admits` accepts is
  /// taken as a replay's fast loop takes it, and counted in `taken`; the rest come from `next()`.
  static func observe(
    _ reader: any RecordReader, takingEvents: Bool = false, admits: (Nanoseconds) -> Bool = { _ in true }
  ) -> (items: [Observation], error: String?, taken: Int) {
    var items: [Observation] = []
    var taken = 0
    while true {
      let item: TraceItem
      if takingEvents, let ahead = reader as? ReadAheadReader, let event = ahead.takeEvent(if: admits) {
        #expect(admits(event.t))
        item = .record(.event(event))
        taken += 1
      } else {
        do { item = try reader.next() } catch { return (items, "\(error)", taken) }
      }
      let summary: String
      switch item {
      case .record(let record): summary = "record \(record)"
      case .bad(let column, let message): summary = "bad \(column) \(message)"
      case .blank: summary = "blank"
      case .endOfInput: summary = "end"
      }
      let raw = reader.unsafeLine
      items.append(
        Observation(
          item: summary, raw: raw.map(Array.init), position: reader.position, bytesRead: reader.bytesRead,
          lineTerminator: reader.lineTerminator, unknownKeys: reader.unknownKeys))
      if case .endOfInput = item { return (items, nil, taken) }
    }
  }

  /// Expects `observed`, read ahead, to be `expected`, read directly, item for item, but for
  /// the bytes read: read ahead, they are the reader's once the item's batch was filled, so
  /// never behind the direct reader's, never going back, and the same once the reader ends.
  static func expectSameItems(
    _ observed: [Observation], _ expected: [Observation], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    func withoutBytesRead(_ items: [Observation]) -> [Observation] {
      items.map {
        var item = $0; item.bytesRead = 0; return item
      }
    }
    let (observedItems, expectedItems) = (withoutBytesRead(observed), withoutBytesRead(expected))
    let firstDifference = observedItems.indices.first {
      $0 >= expectedItems.count || observedItems[$0] != expectedItems[$0]
    }
    #expect(observed.count == expected.count, sourceLocation: sourceLocation)
    #expect(
      firstDifference == nil, "first difference at item \(firstDifference ?? -1)",
      sourceLocation: sourceLocation)
    let behind = observed.indices.first {
      $0 < expected.count && observed[$0].bytesRead < expected[$0].bytesRead
    }
    #expect(
      behind == nil, "read ahead, fewer bytes read at item \(behind ?? -1)", sourceLocation: sourceLocation)
    #expect(
      zip(observed, observed.dropFirst()).allSatisfy { $0.bytesRead <= $1.bytesRead },
      "the bytes read go back", sourceLocation: sourceLocation)
    #expect(observed.last?.bytesRead == expected.last?.bytesRead, sourceLocation: sourceLocation)
  }

  /// A JSON Lines trace of `count` lines, long enough to fill several batches, with every kind
  /// of item a reader hands over: records, blank lines, bad lines, CRLF endings, unknown keys.
  static func mixedTrace(lines count: Int) -> String {
    var text = #"{"kind":"header","format":"crease-trace","version":1,"streams":{"video":{"fps":30}}}"# + "\n"
    for index in 1..<count {
      let t = index * 1_000_000
      switch index % 9 {
      case 0: text += "\n"
      case 1:
        text += #"{"t":\#(t),"kind":"hinge","angle":\#(90 + index % 7).5,"status":"partiallyOpen"}"# + "\r\n"
      case 2: text += #"{"t":\#(t),"kind":"frame","stream":"video","pts":\#(t),"camera":"innerFront"}"# + "\n"
      case 3: text += #"{"t":\#(t),"kind":"mark","label":"m\#(index)","note":"unknown key"}"# + "\n"
      case 4: text += #"{"t":\#(t),"kind":"hinge","angle":"wide","status":"flat"}"# + "\n"
      case 5: text += "not json at all\n"
      case 6: text += #"{"t":\#(t), "kind": "mark", "label": "spaced \u00e9"}"# + "\n"
      default:
        text += #"{"t":\#(t),"kind":"drop","stream":"video","pts":\#(t),"reason":"frameWasLate"}"# + "\n"
      }
    }
    return text
  }

  @Test(
    "JSON Lines: every item, raw line, position, terminator and unknown key is handed over as read, the bytes read never behind",
    arguments: [1, 997, 1 << 20])
  func jsonLinesAcrossBatches(chunkSize: Int) {
    let text = Self.mixedTrace(lines: 3 * ReadAheadReader.batchSize + 17)
    let direct = JSONLinesReader(source: MemorySource(text, chunkSize: chunkSize))
    direct.collectsUnknownKeys = true
    let ahead = ReadAheadReader(JSONLinesReader(source: MemorySource(text, chunkSize: chunkSize)))
    ahead.collectsUnknownKeys = true
    let expected = Self.observe(direct)
    let observed = Self.observe(ahead)
    #expect(expected.items.count > 3 * ReadAheadReader.batchSize)
    #expect(expected.items.contains { $0.lineTerminator == "\r\n" })
    #expect(expected.items.contains { !$0.unknownKeys.isEmpty })
    #expect(observed.error == nil)
    Self.expectSameItems(observed.items, expected.items)
  }

  @Test(
    "an event taken straight from the batch is the item next() hands over, with its line and position; the rest, and an event not admitted, is left to next()",
    arguments: [false, true], [false, true])
  func eventsTakenDirectly(binary: Bool, refusingOddTimes: Bool) {
    let text = Self.mixedTrace(lines: 2 * ReadAheadReader.batchSize + 3) + #"{"t":1,"kind":"end"}"# + "\n"
    let converted = MemorySink()
    _ = try? TraceConverter.convert(
      MemorySource(text), to: converted, binary: BinaryTraceFormat.version, diagnostics: MemorySink())
    func open() -> any RecordReader {
      binary
        ? BinaryTraceReader(source: MemorySource(converted.bytes))
        : JSONLinesReader(source: MemorySource(text, chunkSize: 997))
    }
    let expected = Self.observe(open())
    // The trace's times are whole milliseconds: every other one refused, when refusing.
    let admits: (Nanoseconds) -> Bool = { t in !refusingOddTimes || (t.rawValue / 1_000_000) % 2 == 0 }
    let observed = Self.observe(ReadAheadReader(open()), takingEvents: true, admits: admits)
    let events = expected.items.filter { $0.item.hasPrefix("record event") && !$0.item.contains(".end") }
    var admitted = 0
    let direct = open()
    reading: while let item = try? direct.next() {
      switch item {
      case .record(.event(let event)) where !event.isEnd: admitted += admits(event.t) ? 1 : 0
      case .endOfInput: break reading
      default: continue
      }
    }
    #expect(refusingOddTimes ? admitted < events.count / 3 * 2 : admitted == events.count)
    // All admitted events but at most the first item of each batch after the first, which
    // next() fetches.
    let batches = (expected.items.count + ReadAheadReader.batchSize - 1) / ReadAheadReader.batchSize
    #expect(observed.taken >= admitted - (batches - 1))
    #expect(events.count > ReadAheadReader.batchSize)
    #expect(observed.error == nil)
    Self.expectSameItems(observed.items, expected.items)
  }

  @Test("without keeping lines, the same items, positions and terminators are handed over, and no line")
  func withoutLines() {
    let text = Self.mixedTrace(lines: 2 * ReadAheadReader.batchSize + 9)
    let expected = Self.observe(JSONLinesReader(source: MemorySource(text)))
    let observed = Self.observe(
      ReadAheadReader(JSONLinesReader(source: MemorySource(text)), keepingLines: false))
    #expect(observed.items.allSatisfy { $0.raw == nil })
    #expect(expected.items.contains { $0.raw != nil })
    var withoutLines = expected.items
    for index in withoutLines.indices { withoutLines[index].raw = nil }
    Self.expectSameItems(observed.items, withoutLines)
  }

  @Test("binary: the records, bad records and positions are handed over as read")
  func binaryAcrossBatches() throws {
    var encoder = BinaryTraceEncoder()
    var bytes = encoder.fileHeader
    for index in 0..<(2 * ReadAheadReader.batchSize + 5) {
      let t = Nanoseconds(Int64(index) * 1_000_000)
      let payload: Event.Payload =
        index % 2 == 0
        ? .hinge(HingeDelivery(angle: .degrees(Double(index % 180)), status: .partiallyOpen))
        : .mark(label: "label \(index)")
      try encoder.encode(.event(Event(t: t, payload)), into: &bytes)
    }
    bytes += [2, 0x0E, 0]  // a record of an unknown kind
    bytes += [9, 1]  // a truncated record: the last item
    let expected = Self.observe(BinaryTraceReader(source: MemorySource(bytes)))
    let observed = Self.observe(ReadAheadReader(BinaryTraceReader(source: MemorySource(bytes))))
    #expect(expected.items.filter { $0.item.hasPrefix("bad") }.count == 2)
    Self.expectSameItems(observed.items, expected.items)
  }

  /// A source that gives out some bytes and then fails, as a disk or a pipe can.
  final class FailingSource: ByteSource {
    struct Failure: Error, CustomStringConvertible {
      var description: String { "the disk went away" }
    }
    let name = "failing"
    private let inner: MemorySource
    private var left: Int

    init(_ text: String, failingAfter count: Int) {
      inner = MemorySource(text, chunkSize: 100)
      left = count
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      guard left > 0 else { throw Failure() }
      let read = try inner.read(
        into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, left)]))
      left -= read
      return read
    }
  }

  @Test("an error the reader throws is thrown after the same items, and reading then ends")
  func errorsArriveInPlace() throws {
    let text = Self.mixedTrace(lines: 2 * ReadAheadReader.batchSize)
    let failAt = text.utf8.count * 3 / 4
    let expected = Self.observe(JSONLinesReader(source: FailingSource(text, failingAfter: failAt)))
    let ahead = ReadAheadReader(JSONLinesReader(source: FailingSource(text, failingAfter: failAt)))
    let observed = Self.observe(ahead)
    #expect(expected.error == "the disk went away")
    #expect(observed.error == expected.error)
    Self.expectSameItems(observed.items, expected.items)
    #expect(expected.items.count > ReadAheadReader.batchSize)
    #expect(Self.observe(ahead).items.map(\.item) == ["end"])
  }

  /// A source that counts what was read from it.
  final class CountingSource: ByteSource {
    let name = "counting"
    private let inner: MemorySource
    var bytesGivenOut = 0

    init(_ text: String) { inner = MemorySource(text, chunkSize: 4096) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      let read = try inner.read(into: buffer)
      bytesGivenOut += read
      return read
    }
  }

  @Test("a caller that stops early ends the reading thread, which has read only a few batches ahead")
  func stoppingEarly() throws {
    let text = Self.mixedTrace(lines: 16 * ReadAheadReader.batchSize)
    let source = CountingSource(text)
    var ahead: ReadAheadReader? = ReadAheadReader(JSONLinesReader(source: source))
    for _ in 0..<10 { _ = try ahead!.next() }
    ahead = nil  // joins the reading thread
    #expect(source.bytesGivenOut < text.utf8.count / 2, "read ahead \(source.bytesGivenOut) bytes")
  }
}
