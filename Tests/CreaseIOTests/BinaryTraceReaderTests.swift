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

  /// An event of every kind, and a frame and an input on every camera, read back as written; the
  /// codes just past the last kind and camera are refused. The decoders are switches written
  /// apart from the encoder's, so this is what keeps the two directions in step.
  @Test("every kind and camera reads back as written; the next codes are refused")
  func everyCode() throws {
    var events = Camera.allCases.flatMap { camera in
      [
        Event(t: 1, .frame(Frame(pts: PresentationTime(nanoseconds: 1), camera: camera))),
        Event(t: 1, .input(stream: .video, camera: camera)),
      ]
    }
    events += [
      Event(t: 1, .hinge(HingeDelivery(angle: .degrees(90), status: .partiallyOpen))),
      Event(t: 1, .drop(Drop(pts: PresentationTime(nanoseconds: 2), reason: .outOfBuffers))),
      Event(t: 1, .direction(DirectionUpdate(toward: CameraSet(.innerFront), away: CameraSet(.backWide)))),
      Event(t: 1, .display(DisplayChange(display: .outer, fullScreen: true))),
      Event(t: 1, .app(.background)),
      Event(t: 1, .session(SessionState(running: true, previewVisible: false))),
      Event(t: 1, .mark(label: "m")),
      Event(t: 1, .end),
    ]
    #expect(Set(events.map(\.payload.kind)) == Set(EventKind.allCases))
    var bytes = BinaryTraceFormat.fileHeader
    for event in events { BinaryTraceEncoder.encode(.event(event), into: &bytes) }
    // A record of kind 11, then an input whose camera byte is 6: one past the last of each.
    bytes += [9, 0, 0, 0, 11] + [UInt8](repeating: 0, count: 8)
    bytes += [19, 0, 0, 0, 4] + [UInt8](repeating: 0, count: 8) + [5, 0, 0, 0] + Array("video".utf8) + [6]
    let reader = BinaryTraceReader(source: MemorySource(bytes))
    for event in events {
      guard case .record(.event(let read)) = try reader.next() else { Issue.record("\(event)"); return }
      #expect(read == event)
    }
    guard case .bad(_, let kindMessage) = try reader.next(), case .bad(_, let cameraMessage) = try reader.next()
    else { Issue.record("the last two records are bad"); return }
    #expect(kindMessage == "unknown record kind 11")
    #expect(cameraMessage == "unknown camera")
  }
}
