import Crease

/// Writes trace records in the binary format, version 2 unless asked for version 1.
///
/// A version 2 record depends on those before it (its `t` is a difference, its names may be
/// numbers), so one encoder writes one file, from its ``fileHeader`` on, record by record.
///
/// ```swift
/// var encoder = BinaryTraceEncoder()
/// var bytes = encoder.fileHeader
/// encoder.encode(.event(Event(t: 0, .mark(label: "start"))), into: &bytes)
/// ```
public struct BinaryTraceEncoder {
  /// The format version written.
  public let version: UInt16
  /// The `t` of the last event written, which the next one's difference is from.
  private var previousTime: Int64 = 0
  /// The number of each name in the table the reader will build, from 1.
  private var nameNumbers: [String: UInt64] = [:]
  /// What that table holds, counted as the reader counts it (``BinaryNameTable``).
  private var nameRoom = StreamBudget()
  /// A record's body, kept to be reused: its length goes before it.
  private var body: [UInt8] = []
  /// The name the record being encoded added to the table, taken out again if it is refused.
  private var nameAdded: String?

  /// An encoder for a new file of `version` (one of ``BinaryTraceFormat/readableVersions``).
  public init(version: UInt16 = BinaryTraceFormat.version) {
    precondition(BinaryTraceFormat.readableVersions.contains(version), "no binary trace version \(version)")
    self.version = version
  }

  /// The bytes a file starts with: magic, version, reserved flags.
  public var fileHeader: [UInt8] { BinaryTraceFormat.fileHeader(version: version) }

  /// Why a record cannot be written in the encoder's version: a reader would refuse it.
  public struct Unwritable: Error, CustomStringConvertible {
    /// Which record could not be written, and why.
    public var description: String
  }

  /// Appends `record`, length prefix included, to `output`.
  /// - Throws: ``Unwritable`` when the record's body would be longer than
  ///   ``BinaryTraceFormat/maximumRecordLength``, or, in version 1, its header names more
  ///   streams than version 1 counts (65,535) or it is a `streamEnd`, which version 1 has no
  ///   kind for. `output` and the encoder are then as they were, so the records after it are
  ///   written as if it had never been offered.
  public mutating func encode(_ record: TraceRecord, into output: inout [UInt8]) throws(Unwritable) {
    if version == 1 { try Self.checkVersion1(record) }
    // Taken out while the encoding below changes the rest of `self`, and put back after.
    var body = self.body
    self.body = []
    body.removeAll(keepingCapacity: true)
    let (time, room) = (previousTime, nameRoom)
    nameAdded = nil
    switch (version, record) {
    case (1, _): Self.encodeVersion1(record, into: &body)
    case (_, .header(let header)): Self.encodeVersion2(header, into: &body)
    case (_, .event(let event)): encodeVersion2(event, into: &body)
    }
    defer { self.body = body }
    guard body.count <= BinaryTraceFormat.maximumRecordLength else {
      // Forgotten again: the reader never sees this record's time or a name it spells out.
      (previousTime, nameRoom) = (time, room)
      if let nameAdded { nameNumbers[nameAdded] = nil }
      throw Unwritable(
        description:
          "a record of \(body.count) bytes; the binary format reads at most \(BinaryTraceFormat.maximumRecordLength)"
      )
    }
    if version == 1 {
      Self.put(UInt32(body.count), &output)
    } else {
      Self.putVarint(UInt64(body.count), &output)
    }
    output += body
  }

  private mutating func encodeVersion2(_ event: Event, into output: inout [UInt8]) {
    func start(_ kind: EventKind, packing packed: UInt8 = 0) {
      output.append(BinaryTraceFormat.code(kind) | packed << 4)
      Self.putVarint(Self.zigzag(event.t.rawValue &- previousTime), &output)
      previousTime = event.t.rawValue
    }
    switch event.payload {
    case .hinge(let delivery):
      guard let delivery else {
        start(.hinge)
        return
      }
      let form: UInt8 = delivery.angle.unit == .degrees ? 1 : 2
      start(.hinge, packing: form | BinaryTraceFormat.code(delivery.status) << 2)
      Self.put(delivery.angle.value.bitPattern, &output)
    case .frame(let frame):
      let camera = frame.camera.map { BinaryTraceFormat.code($0) + 1 } ?? 0
      start(.frame, packing: camera | Self.nanosecondFlag(frame.pts))
      putName(frame.stream.rawValue, &output)
      Self.putVersion2(frame.pts, &output)
    case .drop(let drop):
      start(.drop, packing: BinaryTraceFormat.code(drop.reason) | Self.nanosecondFlag(drop.pts))
      putName(drop.stream.rawValue, &output)
      Self.putVersion2(drop.pts, &output)
    case .input(let stream, let camera):
      start(.input, packing: BinaryTraceFormat.code(camera))
      putName(stream.rawValue, &output)
    case .streamEnd(let stream):
      start(.streamEnd)
      putName(stream.rawValue, &output)
    case .direction(let update):
      start(.direction)
      putName(update.view.rawValue, &output)
      output.append(BinaryTraceFormat.towardByte(update))
      output.append(update.away.rawValue)
    case .display(let change):
      start(.display, packing: BinaryTraceFormat.code(change.display) | (change.fullScreen ? 0b10 : 0))
    case .app(let state):
      start(.app, packing: BinaryTraceFormat.code(state))
    case .session(let session):
      let preview: UInt8 = session.previewVisible.map { $0 ? 2 : 1 } ?? 0
      start(.session, packing: (session.running ? 1 : 0) | preview << 1)
    case .mark(let label):
      start(.mark)
      Self.putVersion2(label, &output)
    case .end:
      start(.end)
    }
  }

  private static func encodeVersion2(_ header: TraceHeader, into output: inout [UInt8]) {
    output.append(BinaryTraceFormat.headerCode)
    putVarint(UInt64(truncatingIfNeeded: header.version), &output)
    for text in [header.device, header.os] {
      output.append(text == nil ? 0 : 1)
      if let text { putVersion2(text, &output) }
    }
    let streams = header.nominalFrameRates.keys.sorted { $0.rawValue < $1.rawValue }
    putVarint(UInt64(streams.count), &output)
    for stream in streams {
      putVersion2(stream.rawValue, &output)
      put(header.nominalFrameRates[stream]!.bitPattern, &output)
    }
  }

  /// A name by its number when the table has it, else spelled out after a 0, joining the table
  /// while it has room (as ``BinaryNameTable`` does on reading).
  private mutating func putName(_ name: String, _ output: inout [UInt8]) {
    if let number = nameNumbers[name] {
      Self.putVarint(number, &output)
      return
    }
    output.append(0)
    Self.putVersion2(name, &output)
    if nameRoom.admit(StreamName(rawValue: name)) {
      nameNumbers[name] = UInt64(nameNumbers.count + 1)
      nameAdded = name
    }
  }

  /// Bit 3 of a frame's or drop's packed fields: its pts is a plain nanosecond count.
  private static func nanosecondFlag(_ pts: PresentationTime) -> UInt8 {
    pts.timescale == PresentationTime.nanosecondTimescale ? 0b1000 : 0
  }

  private static func putVersion2(_ pts: PresentationTime, _ output: inout [UInt8]) {
    putVarint(zigzag(pts.value), &output)
    if pts.timescale != PresentationTime.nanosecondTimescale { putVarint(UInt64(pts.timescale), &output) }
  }

  /// A string: its UTF-8 length as a varint, then its bytes.
  private static func putVersion2(_ text: String, _ output: inout [UInt8]) {
    putVarint(UInt64(text.utf8.count), &output)
    output.append(contentsOf: text.utf8)
  }

  /// An unsigned LEB128 number: seven bits a byte, the lowest first, in its shortest form.
  static func putVarint(_ value: UInt64, _ output: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    output.append(UInt8(rest))
  }

  /// The zigzag code of a signed number (0, 1, 2, 3, … for 0, −1, 1, −2, …), so that numbers
  /// near zero of either sign are short varints.
  static func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  static func put(_ value: UInt32, _ output: inout [UInt8]) {
    for index in 0..<4 { output.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
  }

  static func put(_ value: UInt64, _ output: inout [UInt8]) {
    for index in 0..<8 { output.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
  }
}
