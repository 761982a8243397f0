import Crease

/// Version 2 records (`Docs/BinaryTraceFormat.md`): a kind byte that carries the small fields,
/// `t` as the difference from the previous record's, names by their number in the file's table,
/// numbers as LEB128 varints.
extension BodyReader {
  /// Decodes a version 2 record. `previousTime` is the `t` the next record's difference is from;
  /// it moves to this record's `t` as soon as that is read, so a record found bad after its `t`
  /// does not shift the times of those after it.
  /// - Throws: a failure that stops the file (``Failure/stopsReading``) when `t` itself cannot
  ///   be read: every later `t` would be wrong.
  mutating func version2Record(
    previousTime: inout Int64, names: inout BinaryNameTable
  ) throws(Failure) -> TraceRecord {
    let tag = try byte()
    if tag == BinaryTraceFormat.headerCode { return .header(try version2Header()) }
    let difference: UInt64
    do { difference = try varint() } catch {
      throw Failure(
        "the record's 't' cannot be read (\(error.message)); later times depend on it", stopsReading: true)
    }
    let raw = previousTime &+ Self.unzigzag(difference)
    previousTime = raw
    let packed = tag >> 4
    // Switched on the kind's code, each case checking its own kind byte: a switch that made the
    // code an `EventKind` first, and then one on the kind, took two indirect jumps a record
    // (callgrind, the day trace: 6 instructions an event).
    switch tag & 0x0F {
    case BinaryTraceFormat.code(.hinge):
      let t = try Self.time(raw, kindByte: tag, of: .hinge)
      let form = packed & 0b11
      if form == 0 {
        guard packed == 0 else { throw Failure("a hinge record without an angle has a status") }
        return .event(Event(t: t, .hinge(nil)))
      }
      guard form <= 2 else { throw Failure("unknown angle unit \(form)") }
      let angle = try angle(form: form)
      let status = try decode("status", packed >> 2, BinaryTraceFormat.status)
      return .event(
        Event(
          t: t, .hinge(HingeDelivery(angle: angle, status: status))))
    case BinaryTraceFormat.code(.frame):
      let t = try Self.time(raw, kindByte: tag, of: .frame)
      let code = packed & 0b111
      let camera = code == 0 ? nil : BinaryTraceFormat.camera(code - 1)
      guard code == 0 || camera != nil else { throw Failure("unknown camera \(code - 1)") }
      let stream = try version2StreamName(&names)
      let pts = try version2PresentationTime(inNanoseconds: packed & 0b1000 != 0)
      return .event(Event(t: t, .frame(Frame(stream: stream, pts: pts, camera: camera))))
    case BinaryTraceFormat.code(.drop):
      let t = try Self.time(raw, kindByte: tag, of: .drop)
      let reason = try decode("reason", packed & 0b11, BinaryTraceFormat.reason)
      let stream = try version2StreamName(&names)
      let pts = try version2PresentationTime(inNanoseconds: packed & 0b1000 != 0)
      return .event(Event(t: t, .drop(Drop(stream: stream, pts: pts, reason: reason))))
    case BinaryTraceFormat.code(.input):
      let t = try Self.time(raw, kindByte: tag, of: .input)
      guard let camera = BinaryTraceFormat.camera(packed) else { throw Failure("unknown camera") }
      return .event(Event(t: t, .input(stream: try version2StreamName(&names), camera: camera)))
    case BinaryTraceFormat.code(.streamEnd):
      let t = try Self.time(raw, kindByte: tag, of: .streamEnd)
      return .event(Event(t: t, .streamEnd(stream: try version2StreamName(&names))))
    case BinaryTraceFormat.code(.direction):
      let t = try Self.time(raw, kindByte: tag, of: .direction)
      let view = ViewName(rawValue: try version2Name(&names))
      return .event(
        Event(t: t, .direction(try directionUpdate(view: view, toward: try byte(), away: try byte()))))
    case BinaryTraceFormat.code(.display):
      let t = try Self.time(raw, kindByte: tag, of: .display)
      let display = try decode("display", packed & 1, BinaryTraceFormat.display)
      return .event(Event(t: t, .display(DisplayChange(display: display, fullScreen: packed & 0b10 != 0))))
    case BinaryTraceFormat.code(.app):
      let t = try Self.time(raw, kindByte: tag, of: .app)
      return .event(Event(t: t, .app(try decode("state", packed, BinaryTraceFormat.appState))))
    case BinaryTraceFormat.code(.session):
      let t = try Self.time(raw, kindByte: tag, of: .session)
      let preview = packed >> 1
      guard preview <= 2 else { throw Failure("bad previewVisible \(preview)") }
      let state = SessionState(running: packed & 1 != 0, previewVisible: preview == 0 ? nil : preview == 2)
      return .event(Event(t: t, .session(state)))
    case BinaryTraceFormat.code(.mark):
      let t = try Self.time(raw, kindByte: tag, of: .mark)
      return .event(Event(t: t, .mark(label: try version2Label(names.labels))))
    case BinaryTraceFormat.code(.end):
      return .event(Event(t: try Self.time(raw, kindByte: tag, of: .end), .end))
    default:
      throw Failure("unknown record kind \(tag & 0x0F)")
    }
  }

  /// A record's `t`, after checking that its kind byte sets only the bits `kind` uses and that
  /// `t` is not negative: the checks and their order every kind shares.
  @inline(__always)
  private static func time(_ raw: Int64, kindByte tag: UInt8, of kind: EventKind) throws(Failure)
    -> Nanoseconds
  {
    guard (tag >> 4) & ~BinaryTraceFormat.packedBits(of: kind) == 0 else {
      throw Failure("unused bits set in kind byte \(tag)")
    }
    guard raw >= 0 else { throw Failure("'t' must not be negative (\(raw))") }
    return Nanoseconds(raw)
  }

  /// An unsigned LEB128 number: seven bits a byte, the lowest first, in its shortest form.
  ///
  /// Up to 8 bytes are decoded from one 8-byte load (the reader keeps padding past its buffer,
  /// so the load never leaves it, even at the record's end; bytes past the record are masked
  /// off): the first byte with its high bit clear ends the number, and the 7-bit groups are
  /// packed together in three steps. Byte by byte, the 4- and 5-byte numbers of a frame's `t`
  /// and pts cost 150 instructions an event. Each path checks its own length against the
  /// record's end, once: a check for one byte made first on every path as well cost 4
  /// instructions an event.
  ///
  /// With `nameInline`, numbers of two and of three bytes are read on paths of their own as
  /// well, for a name's number: a trace's names past the 127th have two bytes, and past the
  /// 16,383rd three (streams past them). Through the general path a frame cost 33 instructions
  /// more at 1,000 streams than at one, and 38 more at 100,000 (callgrind). Only names: two
  /// bytes taken apart in every number cost the day trace's `t` and pts more than they saved
  /// (18 instructions an event). A constant at each call.
  @inline(__always)
  mutating func varint(nameInline: Bool = false) throws(Failure) -> UInt64 {
    let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    if word & 0x80 == 0 {
      try need(1)
      position &+= 1
      return word & 0x7F
    }
    if nameInline && word & 0x8000 == 0 {
      try need(2)
      guard word & 0x7F00 != 0 else { throw Failure("a number is not in its shortest form") }
      position &+= 2
      return word & 0x7F | (word >> 1) & 0x3F80
    }
    if nameInline && word & 0x80_0000 == 0 {
      try need(3)
      guard word & 0x7F_0000 != 0 else { throw Failure("a number is not in its shortest form") }
      position &+= 3
      return word & 0x7F | (word >> 1) & 0x3F80 | (word >> 2) & 0x1F_C000
    }
    let stops = ~word & 0x8080_8080_8080_8080
    guard stops != 0 else { return try longVarint() }
    let count = (stops.trailingZeroBitCount + 1) / 8
    guard count <= end &- position else { throw Failure("the record ends inside a field") }
    // Ones up to and including the last byte's high bit: the number's bytes.
    let bytesOfNumber = word & (stops ^ (stops &- 1))
    guard bytesOfNumber >> (8 * (count - 1)) != 0 else {
      throw Failure("a number is not in its shortest form")
    }
    position &+= count
    var packed = bytesOfNumber & 0x7F7F_7F7F_7F7F_7F7F
    packed = (packed & 0x7F00_7F00_7F00_7F00) >> 1 | (packed & 0x007F_007F_007F_007F)
    packed = (packed & 0x3FFF_0000_3FFF_0000) >> 2 | (packed & 0x0000_3FFF_0000_3FFF)
    packed = (packed & 0x0FFF_FFFF_0000_0000) >> 4 | (packed & 0x0000_0000_0FFF_FFFF)
    return packed
  }

  /// A number of 9 or 10 bytes, byte by byte.
  private mutating func longVarint() throws(Failure) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      guard shift < 63 || next <= 1 else { throw Failure("a number does not fit in 64 bits") }
      value |= UInt64(next & 0x7F) << shift
      if next < 0x80 {
        guard next != 0 else { throw Failure("a number is not in its shortest form") }
        return value
      }
      shift += 7
    }
  }

  /// The signed number a zigzag code stands for (0, −1, 1, −2, … for 0, 1, 2, 3, …).
  static func unzigzag(_ code: UInt64) -> Int64 {
    Int64(bitPattern: (code >> 1) ^ (0 &- (code & 1)))
  }

  private mutating func version2Header() throws(Failure) -> TraceHeader {
    let version = try varint()
    guard version == TraceHeader.currentVersion else { throw Failure("unsupported trace version \(version)") }
    var header = TraceHeader(version: Int(version))
    header.device = try flag() ? try version2String() : nil
    header.os = try flag() ? try version2String() : nil
    for _ in 0..<(try varint()) {
      let text = try version2String()
      let (name, fps) = try headerStream(text, fps: Double(bitPattern: try uint64()))
      header.nominalFrameRates[name] = fps
    }
    return header
  }

  @inline(__always)  // into a name spelled out and the header, as it was once into a mark
  private mutating func version2String() throws(Failure) -> String {
    let count = try varint()
    guard count <= UInt64(end - position) else { throw Failure("the record ends inside a field") }
    return try string(count: Int(count))
  }

  /// A mark's label, a long ASCII one made by `recent`. A call, not inlined: marks are few, and
  /// inlined it cost the record's decoding 4 to 7 instructions an event.
  @inline(never)
  private mutating func version2Label(_ recent: RecentStrings) throws(Failure) -> String {
    let count = try varint()
    guard count <= UInt64(end - position) else { throw Failure("the record ends inside a field") }
    return try string(count: Int(count), madeBy: recent)
  }

  /// A name by its number in the table, or spelled out (number 0) and added to the table.
  @inline(__always)
  private mutating func version2Name(_ table: inout BinaryNameTable) throws(Failure) -> String {
    let number = try varint()
    if let name = table.name(numbered: number) { return name }
    return try version2NameNotInTable(number, &table)
  }

  /// The name of a record whose number `number` is not in the table: spelled out (number 0)
  /// and added to it, or refused. A call: a trace spells out once each name the table admits,
  /// and names past its budget are rare.
  private mutating func version2NameNotInTable(
    _ number: UInt64, _ table: inout BinaryNameTable
  ) throws(Failure) -> String {
    guard number == 0 else { throw Failure("name number \(number) was not defined before") }
    let name = try version2String()
    table.add(name)
    return name
  }

  // Inlined into the record's decoding, once a frame or drop, with the name's look-up in the
  // table (as a call, 63 instructions a frame). Tuning: hot-inline.
  @inline(__always)
  private mutating func version2StreamName(_ table: inout BinaryNameTable) throws(Failure) -> StreamName {
    let number = try varint(nameInline: true)
    // A numbered name is known not to be empty while the table numbers no empty name: asking
    // the text cost 2 instructions an event (callgrind, the day trace).
    if !table.numbersAnEmptyName, let name = table.name(numbered: number) {
      return StreamName(rawValue: name)
    }
    return try version2StreamNameChecked(number, &table)
  }

  /// A stream's name by its number, or spelled out, with its text checked.
  private mutating func version2StreamNameChecked(
    _ number: UInt64, _ table: inout BinaryNameTable
  ) throws(Failure) -> StreamName {
    let name: String
    if let numbered = table.name(numbered: number) {
      name = numbered
    } else {
      name = try version2NameNotInTable(number, &table)
    }
    guard !name.isEmpty else { throw Failure("'stream' must not be empty") }
    return StreamName(rawValue: name)
  }

  // Inlined into the record's decoding, once a frame or drop. Tuning: hot-inline.
  @inline(__always)
  private mutating func version2PresentationTime(inNanoseconds: Bool) throws(Failure) -> PresentationTime {
    let value = Self.unzigzag(try varint())
    if inNanoseconds { return PresentationTime(nanoseconds: value) }
    let timescale = try varint()
    guard timescale <= UInt64(Int32.max) else {
      throw Failure("'pts' \(value)/\(timescale) is out of range or has a bad timescale")
    }
    return try presentationTime(value: value, timescale: Int32(timescale))
  }
}
