import Crease
import CreaseIO
import CreaseSynth
import Testing

@Suite("binary trace reader")
struct BinaryTraceReaderTests {
  /// Stream names around the 16 bytes the reader remembers names by, names alike but for one
  /// byte (at the front, in the first word, in the second), and names that are not ASCII.
  static let names: [StreamName] = [
    "v", "video", "video2", "videO", "Video", "seven77", "eight888", "nine99999",
    "fifteen15151515", "sixteen161616161", "sixteen161616162", "seventeen17171717",
    "a stream name far longer than any word", "caméra", "📷 front",
  ]

  /// Frames, drops and inputs on the names in a seeded order, read back: every event's stream is
  /// the name it was written with, however the names come and go from the reader's memory.
  @Test("every stream name reads back as written, in any order", arguments: 0..<8)
  func streamNames(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    // Few names in some runs (all remembered), all of them in others (more than it remembers).
    let names = Self.names.prefix(seed % 2 == 0 ? 3 : Self.names.count)
    var bytes = BinaryTraceFormat.fileHeader
    var written: [Event] = []
    for index in 0..<600 {
      let stream = names[names.startIndex + Int(random.next() % UInt64(names.count))]
      let t = Nanoseconds(Int64(index) * 1_000_000)
      let pts = PresentationTime(nanoseconds: Int64(index) * 33_333_333)
      let event: Event
      switch random.next() % 3 {
      case 0: event = Event(t: t, .frame(Frame(stream: stream, pts: pts, camera: .innerFront)))
      case 1: event = Event(t: t, .drop(Drop(stream: stream, pts: pts, reason: .frameWasLate)))
      default: event = Event(t: t, .input(stream: stream, camera: .virtualFront))
      }
      written.append(event)
      var record: [UInt8] = []
      BinaryTraceEncoder.encode(.event(event), into: &record)
      bytes += record
    }
    let reader = BinaryTraceReader(source: MemorySource(bytes))
    var read: [Event] = []
    while true {
      let item = try reader.next()
      guard case .record(.event(let event)) = item else {
        if case .endOfInput = item {} else { Issue.record("seed \(seed): \(item)") }
        break
      }
      read.append(event)
    }
    #expect(read == written, "seed \(seed)")
  }

  @Test("an empty stream name is refused even after names were remembered")
  func emptyStreamName() throws {
    var bytes = BinaryTraceFormat.fileHeader
    for stream: StreamName in ["video", ""] {
      BinaryTraceEncoder.encode(
        .event(Event(t: 0, .frame(Frame(stream: stream, pts: PresentationTime(nanoseconds: 0))))),
        into: &bytes)
    }
    let reader = BinaryTraceReader(source: MemorySource(bytes))
    guard case .record = try reader.next() else { Issue.record("the first frame is good"); return }
    guard case .bad(_, let message) = try reader.next() else { Issue.record("the second is bad"); return }
    #expect(message == "'stream' must not be empty")
  }
}
