import Crease

/// Reads the fields of one record body, checking each; the version-specific decoders are in
/// `BodyReader+Version1.swift` and `BodyReader+Version2.swift`.
struct BodyReader {
  /// Why a record is bad; the reader reports it at the record's first byte and reads on with
  /// the next record, unless ``stopsReading``.
  struct Failure: Error {
    var message: String
    /// Whether nothing after this record can be read either.
    var stopsReading: Bool
    init(_ message: String, stopsReading: Bool = false) {
      self.message = message
      self.stopsReading = stopsReading
    }
  }

  /// The start of the reader's buffer; the record lies in `position..<end`. Safe because every
  /// read is preceded by ``need(_:)`` for its bytes, which keeps it inside the record, and the
  /// buffer is not touched by its reader while a record is decoded. The position's arithmetic
  /// wraps rather than checks: `position` and `end` are offsets in the buffer, and the position
  /// moves only past bytes ``need(_:)`` found in the record, so no sum or difference leaves the
  /// range (the checks cost about 10 instructions a record; callgrind, the day trace).
  ///
  /// A pointer, not a buffer pointer: a reader of three words, built for every record, and a
  /// buffer pointer made from the reader's own checked its base each time (callgrind, the day
  /// trace: 12 instructions an event, the decoding 7 of them).
  let bytes: UnsafeRawPointer
  var position: Int
  let end: Int

  @inline(__always)
  mutating func need(_ count: Int) throws(Failure) {
    guard end &- position >= count else { throw Failure("the record ends inside a field") }
  }

  @inline(__always)
  mutating func byte() throws(Failure) -> UInt8 {
    try need(1)
    defer { position &+= 1 }
    return bytes.load(fromByteOffset: position, as: UInt8.self)
  }

  mutating func flag() throws(Failure) -> Bool {
    let value = try byte()
    guard value <= 1 else { throw Failure("a flag must be 0 or 1, not \(value)") }
    return value == 1
  }

  /// A little-endian integer of `T`'s width, loaded in one go.
  @inline(__always)
  mutating func little<T: FixedWidthInteger>(_ type: T.Type) throws(Failure) -> T {
    let count = MemoryLayout<T>.size
    try need(count)
    let position = self.position
    self.position &+= count
    return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
  }

  /// A hinge record's angle is one. Tuning: hot-inline.
  @inline(__always)
  mutating func uint64() throws(Failure) -> UInt64 { try little(UInt64.self) }

  /// The string of the next `count` bytes, made by `recent` when given (a long one found again
  /// by its bytes). Once a mark. Tuning: hot-inline.
  @inline(__always)
  mutating func string(count: Int, madeBy recent: RecentStrings? = nil) throws(Failure) -> String {
    try need(count)
    defer { position += count }
    let slice = UnsafeRawBufferPointer(start: bytes + position, count: count)
    // A short one made lately needs no look at its bytes (a version 1 stream name, at every
    // frame); ASCII (stream names, most labels) needs no check; anything else is checked.
    if let recent, let known = recent.rememberedShort(slice) { return known }
    let isASCII = slice.allSatisfy { $0 < 0x80 }
    let made =
      if let recent { recent.string(slice, isASCII: isASCII) } else {
        isASCII ? String(ascii: slice) : String(wellFormed: slice)
      }
    guard let made else { throw Failure("a string is not valid UTF-8") }
    return made
  }

  /// A finite angle or frame rate, stored as its IEEE 754 bits.
  @inline(__always)
  mutating func finiteDouble(_ name: String) throws(Failure) -> Double {
    let value = Double(bitPattern: try uint64())
    guard value.isFinite else { throw Failure("'\(name)' must be a finite number") }
    return value
  }

  /// A hinge angle in the unit `form` names (1 degrees, 2 radians), refused unless it is a
  /// finite number of degrees: a radian value that is finite may not be once converted.
  @inline(__always)
  mutating func angle(form: UInt8) throws(Failure) -> HingeAngle {
    let value = try finiteDouble("angle")
    let angle: HingeAngle = form == 1 ? .degrees(value) : .radians(value)
    guard angle.degrees.isFinite else {
      throw Failure("'angle' \(value) radians is not a finite number of degrees")
    }
    return angle
  }

  /// A pts from its CMTime parts, refused when it does not fit 64-bit nanoseconds.
  func presentationTime(value: Int64, timescale: Int32) throws(Failure) -> PresentationTime {
    guard let pts = PresentationTime(value: value, timescale: timescale) else {
      throw Failure("'pts' \(value)/\(timescale) is out of range or has a bad timescale")
    }
    return pts
  }

  /// A header stream name and its rate, checked as JSON Lines checks them.
  func headerStream(_ text: String, fps: Double) throws(Failure) -> (StreamName, Double) {
    // JSON Lines cannot carry it (json-c cuts member names at a NUL): refused in both formats.
    guard !text.utf8.contains(0) else { throw Failure("a stream name in the header holds a NUL") }
    guard fps.isFinite, fps > 0 else {
      throw Failure("a stream's fps must be a finite number greater than 0")
    }
    return (StreamName(rawValue: text), fps)
  }

  /// Refuses a camera in both sets of a direction update, a bit past the last camera, or the
  /// order bit on a toward set without both front cameras.
  func directionUpdate(view: ViewName, toward: UInt8, away: UInt8) throws(Failure) -> DirectionUpdate {
    let innerFrontFirst = toward & BinaryTraceFormat.innerFrontListedFirst != 0
    let toward = CameraSet(rawValue: toward & ~BinaryTraceFormat.innerFrontListedFirst)
    let away = CameraSet(rawValue: away)
    guard toward.rawValue < 1 << Camera.allCases.count, away.rawValue < 1 << Camera.allCases.count,
      toward.intersection(away).isEmpty,
      !innerFrontFirst || toward.isSuperset(of: [CameraSet(.innerFront), CameraSet(.outerFront)])
    else { throw Failure("bad camera sets in a direction update") }
    return DirectionUpdate(view: view, toward: toward, away: away, innerFrontListedFirst: innerFrontFirst)
  }

  func decode<T>(_ name: String, _ code: UInt8, _ value: (UInt8) -> T?) throws(Failure) -> T {
    guard let decoded = value(code) else { throw Failure("unknown \(name) \(code)") }
    return decoded
  }
}
