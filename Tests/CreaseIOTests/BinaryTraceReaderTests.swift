import Crease
import CreaseSynth
import Testing

@testable import CreaseIO

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
  @Test(
    "every stream name reads back as written, in any order",
    arguments: BinaryTraceFormat.readableVersions, 0..<8)
  func streamNames(version: UInt16, seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    // Few names in some runs (all remembered), all of them in others (more than it remembers).
    let names = Self.names.prefix(seed % 2 == 0 ? 3 : Self.names.count)
    var encoder = BinaryTraceEncoder(version: version)
    var bytes = encoder.fileHeader
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
      try encoder.encode(.event(event), into: &bytes)
    }
    #expect(try Self.events(in: bytes) == written, "version \(version), seed \(seed)")
  }

  /// The events of a binary trace, recording an issue at the first item that is not one.
  static func events(in bytes: [UInt8]) throws -> [Event] {
    let reader = BinaryTraceReader(source: MemorySource(bytes))
    var read: [Event] = []
    while true {
      let item = try reader.next()
      guard case .record(.event(let event)) = item else {
        if case .endOfInput = item {} else { Issue.record("item \(read.count + 1): \(item)") }
        return read
      }
      read.append(event)
    }
  }

  /// An input event on stream `name` at time 0: a record that is little more than its name.
  static func input(_ name: String) -> Event {
    Event(t: 0, .input(stream: StreamName(rawValue: name), camera: .backWide))
  }

  @Test("every stream the stages can track is numbered; past the table's room, names are spelled out")
  func moreNamesThanTheTableHolds() throws {
    var encoder = BinaryTraceEncoder()
    var bytes = encoder.fileHeader
    let room = StreamBudget.maximumStreams
    let count = room + 100
    // Every name once (spelled out), then each again in reverse: by number while the table had
    // room for it, spelled out again past that.
    for index in 0..<count { try encoder.encode(.event(Self.input("s\(index)")), into: &bytes) }
    var written = (0..<count).map { Self.input("s\($0)") }
    for index in (0..<count).reversed() {
      let before = bytes.count
      try encoder.encode(.event(Self.input("s\(index)")), into: &bytes)
      written.append(Self.input("s\(index)"))
      // Length, kind and camera, `t`, and a name number of at most three bytes; spelled out, a
      // 0, the name's length and at least two bytes of it.
      let numbered = bytes.count - before <= 6
      #expect(numbered == (index < room), "the name of stream \(index)")
    }
    #expect(try Self.events(in: bytes) == written)
  }

  @Test("the table holds at most 32 MiB of names, and a short name still joins after a long one did not")
  func nameBytesBound() throws {
    var encoder = BinaryTraceEncoder()
    var bytes = encoder.fileHeader
    // 55 names of 600,000 bytes fit in 32 MiB, the 56th does not; "tiny" fits after it.
    let long = (0..<57).map { String(repeating: "n", count: 599_990) + String(100_000_000 + $0) }
    let names = long + ["tiny"]
    for name in names { try encoder.encode(.event(Self.input(name)), into: &bytes) }
    var sizes: [Int] = []
    for name in names {
      let before = bytes.count
      try encoder.encode(.event(Self.input(name)), into: &bytes)
      sizes.append(bytes.count - before)
    }
    #expect(sizes.map { $0 <= 6 } == Array(repeating: true, count: 55) + [false, false, true])
    #expect(try Self.events(in: bytes) == (names + names).map { Self.input($0) })
  }

  @Test("a file written when the table stopped at 1,024 names, spelling later ones again, reads as written")
  func fileOfTheOldBound() throws {
    // Such a writer numbered the first 1,024 names and spelled every later one out each time,
    // which a table with more room takes in again: its numbers past 1,024 were never written.
    var encoder = BinaryTraceEncoder()
    var bytes = encoder.fileHeader
    var written: [Event] = []
    for index in 0..<1_024 {
      written.append(Self.input("s\(index)"))
      try encoder.encode(.event(written.last!), into: &bytes)
    }
    for _ in 0..<3 {
      // A name spelled out again, as a fresh encoder spells it; all times are 0, so `t` agrees.
      var fresh = BinaryTraceEncoder()
      written.append(Self.input("late"))
      try fresh.encode(.event(written.last!), into: &bytes)
    }
    written.append(Self.input("s7"))
    try encoder.encode(.event(written.last!), into: &bytes)
    #expect(try Self.events(in: bytes) == written)
  }

  @Test(
    "an empty stream name is refused even after names were remembered, and the table stays in step",
    arguments: BinaryTraceFormat.readableVersions)
  func emptyStreamName(version: UInt16) throws {
    var encoder = BinaryTraceEncoder(version: version)
    var bytes = encoder.fileHeader
    for stream: StreamName in ["video", "", "video", "front"] {
      try encoder.encode(
        .event(Event(t: 0, .frame(Frame(stream: stream, pts: PresentationTime(nanoseconds: 0))))),
        into: &bytes)
    }
    let reader = BinaryTraceReader(source: MemorySource(bytes))
    guard case .record = try reader.next() else { Issue.record("the first frame is good"); return }
    guard case .bad(_, let message) = try reader.next() else { Issue.record("the second is bad"); return }
    #expect(message == "'stream' must not be empty")
    for expected: StreamName in ["video", "front"] {
      guard case .record(.event(let event)) = try reader.next(), case .frame(let frame) = event.payload else {
        Issue.record("a frame on \(expected)")
        return
      }
      #expect(frame.stream == expected)
    }
  }

  /// An event of every kind, and a frame and an input on every camera, read back as written; the
  /// codes just past the last kind and camera are refused. The decoders are switches written
  /// apart from the encoder's, so this is what keeps the two directions in step.
  @Test(
    "every kind and camera reads back as written; the next codes are refused (streamEnd from version 2)",
    arguments: BinaryTraceFormat.readableVersions)
  func everyCode(version: UInt16) throws {
    var events = Camera.allCases.flatMap { camera in
      [
        Event(t: 1, .frame(Frame(pts: PresentationTime(nanoseconds: 1), camera: camera))),
        Event(t: 1, .input(stream: .video, camera: camera)),
      ]
    }
    events += [
      Event(t: 1, .hinge(HingeDelivery(angle: .degrees(90), status: .partiallyOpen))),
      Event(t: 1, .drop(Drop(pts: PresentationTime(nanoseconds: 2), reason: .outOfBuffers))),
      Event(t: 1, .drop(Drop(pts: PresentationTime(nanoseconds: 3), reason: nil))),
      Event(t: 1, .direction(DirectionUpdate(toward: CameraSet(.innerFront), away: CameraSet(.backWide)))),
      Event(
        t: 1,
        .direction(
          DirectionUpdate(
            toward: CameraSet([.innerFront, .outerFront]), away: CameraSet(), innerFrontListedFirst: true))),
      Event(t: 1, .display(DisplayChange(display: .outer, fullScreen: true))),
      Event(t: 1, .app(.background)),
      Event(t: 1, .session(SessionState(running: true, previewVisible: false))),
      Event(t: 1, .mark(label: "m")),
      Event(t: 1, .end),
    ]
    var encoder = BinaryTraceEncoder(version: version)
    let streamEnd = Event(t: 1, .streamEnd(stream: "video2"))
    if version == 1 {
      var unchanged = encoder.fileHeader
      #expect(throws: BinaryTraceEncoder.Unwritable.self) {
        try encoder.encode(.event(streamEnd), into: &unchanged)
      }
      #expect(unchanged == encoder.fileHeader, "nothing written")
    } else {
      events.append(streamEnd)
    }
    #expect(
      Set(events.map(\.payload.kind)) == Set(EventKind.allCases).subtracting(version == 1 ? [.streamEnd] : [])
    )
    var bytes = encoder.fileHeader
    for event in events { try encoder.encode(.event(event), into: &bytes) }
    // A record of the first kind unknown, then an input whose camera is 6: one past the last of
    // each.
    if version == 1 {
      bytes += [9, 0, 0, 0, 11] + [UInt8](repeating: 0, count: 8)
      bytes += [19, 0, 0, 0, 4] + [UInt8](repeating: 0, count: 8) + [5, 0, 0, 0] + Array("video".utf8) + [6]
    } else {
      bytes += [2, 12, 0]  // kind 12, the same t
      bytes += [3, 4 | 6 << 4, 0, 1]  // camera 6 packed with kind 4, the same t, name number 1
    }
    let reader = BinaryTraceReader(source: MemorySource(bytes))
    for event in events {
      guard case .record(.event(let read)) = try reader.next() else { Issue.record("\(event)"); return }
      #expect(read == event)
    }
    guard case .bad(_, let kindMessage) = try reader.next(),
      case .bad(_, let cameraMessage) = try reader.next()
    else { Issue.record("the last two records are bad"); return }
    #expect(kindMessage == "unknown record kind \(version == 1 ? 11 : 12)")
    #expect(cameraMessage == "unknown camera")
  }

  @Test("a frame that gives by number an empty name the table holds is refused as one that spells it")
  func emptyStreamNameByNumber() throws {
    var bytes = BinaryTraceEncoder().fileHeader
    bytes += [4, 2 | 8 << 4, 10, 0, 0]  // a frame at t 5 spelling out an empty name: number 1
    bytes += [4, 2 | 8 << 4, 0, 1, 0]  // a frame at t 5 on name number 1, pts 0
    bytes += [8, 9, 0, 5] + Array("after".utf8)  // a mark at t 5
    let reader = BinaryTraceReader(source: MemorySource(bytes))
    for _ in 0..<2 {
      guard case .bad(_, let message) = try reader.next() else { Issue.record("a frame read"); return }
      #expect(message == "'stream' must not be empty")
    }
    guard case .record(.event(let mark)) = try reader.next() else { Issue.record("no mark"); return }
    #expect(mark == Event(t: 5, .mark(label: "after")), "the table and the times stay in step")
  }

  /// Version 2 records damaged one way each, between two good marks: the first at t 10, the
  /// last 10 after the damaged record's `t` (most of which are 5 after the first's). The message,
  /// and the last mark's `t` when reading goes on past the damage.
  static let damagedVersion2Records: [(record: [UInt8], message: String, lastTime: Int64?)] = [
    ([2, 12, 10], "unknown record kind 12", 25),
    ([2, 9 | 1 << 4, 10], "unused bits set in kind byte 25", 25),
    ([3, 4, 10, 7], "name number 7 was not defined before", 25),
    ([4, 2 | 8 << 4, 10, 0, 0], "'stream' must not be empty", 25),
    ([3, 9, 21, 0], "'t' must not be negative (-1)", 9),
    (
      [3, 9, 0x85, 0x00],
      "the record's 't' cannot be read (a number is not in its shortest form); later times depend on it", nil
    ),
    (
      [2, 9, 0x85],
      "the record's 't' cannot be read (the record ends inside a field); later times depend on it", nil
    ),
    ([0x83, 0x00, 9, 10, 0], "a record length is not in its shortest form", nil),
    ([0xFF, 0xFF, 0xFF, 0x7F], "a record length of more than 3 bytes exceeds the 1048576-byte limit", nil),
  ]

  @Test(
    "a damaged version 2 record is reported; only an unreadable t or length stops the file",
    arguments: Self.damagedVersion2Records)
  func damagedVersion2(record: [UInt8], message: String, lastTime: Int64?) throws {
    var encoder = BinaryTraceEncoder()
    var bytes = encoder.fileHeader
    try encoder.encode(.event(Event(t: 10, .mark(label: "before"))), into: &bytes)
    let damagedAt = bytes.count
    bytes += record
    bytes += [4, 9, 20, 1, UInt8(ascii: "a")]  // a mark, 10 after the record before, labelled "a"
    let reader = BinaryTraceReader(source: MemorySource(bytes))
    guard case .record = try reader.next() else { Issue.record("the first mark is good"); return }
    guard case .bad(let column, let reported) = try reader.next() else { Issue.record("not bad"); return }
    #expect(reported == message)
    #expect(column == damagedAt + 1, "the damaged record's first byte")
    switch try reader.next() {
    case .record(.event(let event)):
      #expect(event == Event(t: Nanoseconds(lastTime ?? -1), .mark(label: "a")))
    case .endOfInput:
      #expect(lastTime == nil, "reading stopped at the damage")
    case let other:
      Issue.record("\(other)")
    }
  }

  @Test("a version 2 file that ends inside a record's length stops there")
  func endsInsideALength() throws {
    let reader = BinaryTraceReader(source: MemorySource(BinaryTraceFormat.fileHeader + [0x85]))
    guard case .bad(let column, let message) = try reader.next() else { Issue.record("not bad"); return }
    #expect(message == "truncated record: the file ends inside its length")
    #expect(column == BinaryTraceFormat.fileHeader.count + 1)
    guard case .endOfInput = try reader.next() else { Issue.record("reading goes on"); return }
  }

  /// The number `bytes` decode to, or the failure, with 8 readable bytes of `padding` past them
  /// as the reader keeps (a varint is loaded 8 bytes at a time); read as a name's number, with
  /// its own paths for two and three bytes, when `asNameNumber`.
  static func varint(
    _ bytes: [UInt8], asNameNumber: Bool = false, padding: UInt8 = 0xFF
  ) -> Result<UInt64, BodyReader.Failure> {
    let padded = bytes + [UInt8](repeating: padding, count: 8)
    return padded.withUnsafeBytes { buffer in
      var body = BodyReader(bytes: buffer.baseAddress!, position: 0, end: bytes.count)
      return Result { () throws(BodyReader.Failure) in
        let value = try body.varint(nameInline: asNameNumber)
        guard body.position == bytes.count else { throw BodyReader.Failure("read \(body.position) bytes") }
        return value
      }
    }
  }

  @Test(
    "varints of every length read back, as numbers and as names' numbers; longer forms and cut-off ones are refused",
    arguments: 0..<4, [false, true])
  func varints(seed: UInt64, asNameNumber: Bool) {
    var random = SplitMix64(seed: seed)
    // Each length's bounds, then seeded numbers of every width.
    var numbers: [UInt64] = [0, .max]
    for bits in stride(from: 7, to: 64, by: 7) { numbers += [1 << UInt64(bits) - 1, 1 << UInt64(bits)] }
    numbers += (0..<200).map { index in random.next() >> UInt64(index % 64) }
    for number in numbers {
      var encoded: [UInt8] = []
      BinaryTraceEncoder.putVarint(number, &encoded)
      guard case .success(let decoded) = Self.varint(encoded, asNameNumber: asNameNumber), decoded == number
      else {
        Issue.record(
          "seed \(seed): \(number) as \(encoded) reads back as \(Self.varint(encoded, asNameNumber: asNameNumber))"
        )
        continue
      }
      // Cut short, with what follows in the buffer a byte that ends a number or one that does not.
      for padding: UInt8 in [0xFF, 0x01] where encoded.count > 1 {
        let cut = Self.varint(Array(encoded.dropLast()), asNameNumber: asNameNumber, padding: padding)
        guard case .failure(let failure) = cut, failure.message == "the record ends inside a field" else {
          Issue.record("seed \(seed): \(number) cut short reads as \(cut) (padding \(padding))")
          continue
        }
      }
      if encoded.count < 10 {
        var longer = encoded
        longer[longer.count - 1] |= 0x80
        longer.append(0)
        guard case .failure(let failure) = Self.varint(longer, asNameNumber: asNameNumber) else {
          Issue.record("seed \(seed): \(number) in a longer form is not refused")
          continue
        }
        #expect(failure.message == "a number is not in its shortest form")
      }
    }
    guard
      case .failure(let tooWide) = Self.varint(
        [UInt8](repeating: 0xFF, count: 9) + [2], asNameNumber: asNameNumber)
    else {
      Issue.record("a number past 64 bits is not refused")
      return
    }
    #expect(tooWide.message == "a number does not fit in 64 bits")
  }
}
