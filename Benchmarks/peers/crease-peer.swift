// crease-peer.swift: the C peer's program (crease-peer.c) in Swift, on the same plain records,
// to say what Swift itself costs on Crease's work once events are trivially copyable values.
//
// It does what the C peer does, rule for rule and in the same order: it reads binary trace
// version 2, orders events in the reorder window with the engine's bounds, fires timers from a
// heap indexed by dense tag, runs every rule of SPEC 4 (the hinge stage; frame gaps with held-gap
// confirmation, the rate estimate and its changes, causes, stalls, regressions; direction,
// mirroring, mask, accessory), and writes the same cue lines. Where Crease's engine moves an
// `Event` enum with strings through its ring and stages, this moves a plain record that points
// into the file, and names are numbers. `make bench` builds it with `swiftc -O` (what a release
// build passes, nothing more: no unchecked flag), checks its cue lines against crease's and
// prints it beside the C peer: the gap between the two is the language's, and the gap between
// it and Crease is the shape of Crease's values (Docs/BinaryTarget.md).
//
// Usage: crease-peer-swift TRACE.crtrace   (cue lines on standard output)
//
// The `// MARK:` sections name the parts of the benchmark's table, as in the C peer.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: Configuration (SPEC 4, the defaults; Crease's bounds)

let reorderWindow: Int64 = 50_000_000
let bufferLimit = 100_000
let bufferBytes: Int64 = 64 << 20
let debounce: Int64 = 50_000_000
let maxWait: Int64 = 150_000_000
let flatBelow = 135.0
let flatAbove = 145.0
let deadband = 7.5
let fullyOpenZone = 15.0
let settleDelay: Int64 = 300_000_000
let settleTolerance = 1.0
let progressFull = 165.0
let progressInterval: Int64 = 16_666_666  // 1/60 s in whole ns, truncated
let gapFactor = 1.5
let stallFactor = 3.0
let switchWindow: Int64 = 250_000_000
let maskMax: Int64 = 500_000_000
let cadenceWindow = 15
let cadenceMinimum = 3
let maximumHeldDrops = 4096
let maximumEarlyDeltas = 64
let nameTableLimit = 100_000  // the file's name table, as the stream budget
let nameTableBytes = 32 << 20
let maximumStreams = 100_000
let maximumStreamNameBytes = 32 << 20

func fail(_ message: String) -> Never {
  fputs("crease-peer-swift: \(message)\n", stderr)
  exit(1)
}

/// Trace time saturates at the ends of the range, as Crease's `Nanoseconds` does.
@inline(__always) func addTime(_ a: Int64, _ b: Int64) -> Int64 {
  let (sum, overflow) = a.addingReportingOverflow(b)
  return overflow ? (b > 0 ? .max : .min) : sum
}

@inline(__always) func subtractTime(_ a: Int64, _ b: Int64) -> Int64 {
  let (difference, overflow) = a.subtractingReportingOverflow(b)
  return overflow ? (b > 0 ? .min : .max) : difference
}

/// Rounded to the nearest, a tie away from zero, saturating; NaN is the largest.
@inline(__always) func roundTime(_ value: Double) -> Int64 {
  let rounded = value.rounded()
  if rounded >= 9.223372036854775807e18 || rounded.isNaN { return .max }
  if rounded <= -9.223372036854775807e18 { return .min }
  return Int64(rounded)
}

// MARK: Storage: the engine's and the stages' growable state (counted as other)

/// A growable array on one allocation, for the per-stream and per-timer state the stages change
/// for every event. An `Array` field of the replay is checked for uniqueness at each change
/// (`swift_isUniquelyReferenced`); this one is owned by the replay alone and never copied, so it
/// needs none. Every index is still checked against the count. The heap, its places and the
/// streams' state in `Array`s took 668 instructions an event, in slabs 579 (560 since).
struct Slab<Element> {
  private(set) var base = UnsafeMutablePointer<Element>.allocate(capacity: 16)
  private(set) var count = 0
  private var capacity = 16

  var indices: Range<Int> { 0..<count }
  var first: Element? { count > 0 ? base[0] : nil }

  subscript(index: Int) -> Element {
    @inline(__always) unsafeAddress {
      precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index out of range")
      return UnsafePointer(base + index)
    }
    @inline(__always) unsafeMutableAddress {
      precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index out of range")
      return base + index
    }
  }

  @inline(__always) mutating func append(_ element: Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  mutating func append(repeating element: Element, count added: Int) {
    for _ in 0..<added { append(element) }
  }

  @inline(__always) mutating func removeLast() -> Element {
    precondition(count > 0, "removeLast of an empty slab")
    count -= 1
    return (base + count).move()
  }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    (base, capacity) = (larger, capacity * 2)
  }
}

// MARK: Cues: writing the lines

/// The cue lines, gathered in a buffer written out when full.
struct Output {
  static let capacity = 1 << 16
  let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: Output.capacity)
  var used = 0
  let digitPairs = Output.pairs.utf8Start
  static let pairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  mutating func flush() {
    if used > 0 && fwrite(bytes, 1, used, stdout) != used { fail("cannot write") }
    used = 0
  }

  /// Room for `count` more bytes; every write asks first, so none runs past the buffer.
  @inline(__always)
  mutating func room(_ count: Int) {
    if used + count > Output.capacity {
      flush()
      if count > Output.capacity { fail("a cue line longer than the output buffer") }
    }
  }

  @inline(__always)
  mutating func put(_ source: UnsafeRawPointer, _ count: Int) {
    room(count)
    (bytes + used).update(from: source.assumingMemoryBound(to: UInt8.self), count: count)
    used += count
  }

  @inline(__always)
  mutating func put(_ literal: StaticString) { put(literal.utf8Start, literal.utf8CodeUnitCount) }

  /// `magnitude`'s digits in place, two a step from the end: its length is known first.
  mutating func put(digits value: UInt64) {
    var length = 1
    var power: UInt64 = 10
    while length < 20 && value >= power {
      length += 1
      if length < 20 { power &*= 10 }
    }
    room(length)
    var end = bytes + used + length
    var magnitude = value
    while magnitude >= 100 {
      let pair = Int(magnitude % 100) * 2
      end -= 2
      end[0] = digitPairs[pair]
      end[1] = digitPairs[pair + 1]
      magnitude /= 100
    }
    if magnitude >= 10 {
      (end - 2)[0] = digitPairs[Int(magnitude) * 2]
      (end - 1)[0] = digitPairs[Int(magnitude) * 2 + 1]
    } else {
      (end - 1)[0] = UInt8(ascii: "0") + UInt8(magnitude)
    }
    used += length
  }

  mutating func put(integer value: Int64) {
    if value < 0 { put("-") }
    put(digits: value.magnitude)
  }

  /// A decimal as Crease writes one: rounded to thousandths (a tie away from zero), at least one
  /// decimal, no trailing zeros; past 64-bit thousandths, the shortest form that reads back.
  mutating func put(decimal value: Double) {
    let scaled = (value * 1000).rounded()
    guard let thousandths = Int64(exactly: scaled) else {
      var text = value.description
      text.withUTF8 { put($0.baseAddress!, $0.count) }
      return
    }
    if thousandths < 0 { put("-") }
    put(digits: thousandths.magnitude / 1000)
    let fraction = Int(thousandths.magnitude % 1000)
    var text: (UInt8, UInt8, UInt8, UInt8) = (
      UInt8(ascii: "."), UInt8(truncatingIfNeeded: 48 + fraction / 100),
      UInt8(truncatingIfNeeded: 48 + fraction / 10 % 10), UInt8(truncatingIfNeeded: 48 + fraction % 10)
    )
    var length = 4
    if text.3 == UInt8(ascii: "0") { length = text.2 == UInt8(ascii: "0") ? 2 : 3 }
    withUnsafeBytes(of: &text) { put($0.baseAddress!, length) }
  }

  /// A JSON string: names and labels need no escape nearly always, and then go in at once.
  mutating func put(string start: UnsafePointer<UInt8>, _ length: Int) {
    put("\"")
    var plain = 0
    while plain < length && start[plain] >= 0x20 && start[plain] != 0x22 && start[plain] != 0x5C {
      plain += 1
    }
    put(start, plain)
    var index = plain
    while index < length {
      let byte = start[index]
      switch byte {
      case 0x22: put("\\\"")
      case 0x5C: put("\\\\")
      case 0x0A: put("\\n")
      case 0x0D: put("\\r")
      case 0x09: put("\\t")
      case 0..<0x20:
        let hex: StaticString = "0123456789abcdef"
        put("\\u00")
        put(hex.utf8Start + Int(byte >> 4), 1)
        put(hex.utf8Start + Int(byte & 15), 1)
      default:
        var single = byte
        put(&single, 1)
      }
      index += 1
    }
    put("\"")
  }

  /// `{"t":…,"since":…,"cue":"…"`: the start every cue line has; a `since` equal to `t` reuses
  /// its digits.
  mutating func begin(_ kind: CueKind, now: Int64, since: Int64) {
    room(64)  // so nothing is flushed between `t`'s digits and their copy
    put("{\"t\":")
    let digits = used
    put(integer: now)
    let length = used - digits
    put(",\"since\":")
    if since == now {
      (bytes + used).update(from: bytes + digits, count: length)
      used += length
    } else {
      put(integer: since)
    }
    put(",\"cue\":\"")
    put(kind.name)
    put("\"")
  }

  mutating func end() { put("}\n") }

  mutating func put(angle: Double) {
    put(",\"angle\":")
    put(decimal: angle)
  }
}

enum CueKind {
  case hingeInitial, hingeAvailable, hingeUnavailable, hingeStatus, regionsChanged, hingeThreshold,
    hingeMotion
  case hingeSettled, hingeProgress, cameraGap, cameraStall, cameraPTSRegression, cameraDirection
  case cameraMirroring, cameraMask, accessoryEligible, mark

  var name: StaticString {
    switch self {
    case .hingeInitial: "hinge.initial"
    case .hingeAvailable: "hinge.available"
    case .hingeUnavailable: "hinge.unavailable"
    case .hingeStatus: "hinge.status"
    case .regionsChanged: "regions.changed"
    case .hingeThreshold: "hinge.threshold"
    case .hingeMotion: "hinge.motion"
    case .hingeSettled: "hinge.settled"
    case .hingeProgress: "hinge.progress"
    case .cameraGap: "camera.gap"
    case .cameraStall: "camera.stall"
    case .cameraPTSRegression: "camera.ptsRegression"
    case .cameraDirection: "camera.direction"
    case .cameraMirroring: "camera.mirroring"
    case .cameraMask: "camera.mask"
    case .accessoryEligible: "accessory.eligible"
    case .mark: "mark"
    }
  }
}

func statusName(_ status: UInt8) -> StaticString {
  switch status {
  case 0: "\"closed\""
  case 1: "\"partiallyOpen\""
  case 2: "\"fullyOpen\""
  default: "\"unknown\""
  }
}

func cameraName(_ camera: Int8) -> StaticString {
  switch camera {
  case 0: "\"outerFront\""
  case 1: "\"innerFront\""
  case 2: "\"virtualFront\""
  case 3: "\"backWide\""
  case 4: "\"backUltraWide\""
  default: "\"backTelephoto\""
  }
}

func reasonName(_ reason: Int8) -> StaticString {
  switch reason {
  case 0: "\"frameWasLate\""
  case 1: "\"outOfBuffers\""
  default: "\"discontinuity\""
  }
}

// MARK: Events

enum Kind {
  static let header: UInt8 = 0
  static let hinge: UInt8 = 1
  static let frame: UInt8 = 2
  static let drop: UInt8 = 3
  static let input: UInt8 = 4
  static let direction: UInt8 = 5
  static let display: UInt8 = 6
  static let app: UInt8 = 7
  static let session: UInt8 = 8
  static let mark: UInt8 = 9
  static let end: UInt8 = 10
  static let streamEnd: UInt8 = 11
}

let closed: UInt8 = 0
let partiallyOpen: UInt8 = 1
let fullyOpen: UInt8 = 2
let unknown: UInt8 = 3
let noCamera: Int8 = -1
let outerFront: Int8 = 0
let innerFront: Int8 = 1
let virtualFront: Int8 = 2
let innerFrontListedFirst: UInt8 = 0x80

@inline(__always) func isFront(_ camera: Int8) -> Bool { camera >= outerFront && camera <= virtualFront }

/// A plain record in the reorder ring; a label is an offset into the mapped file. The kind byte
/// keeps the small fields the format packs in its high bits.
struct Event {
  var t: Int64 = 0
  var sequence: UInt64 = 0
  var pts: Int64 = 0
  var angle = 0.0  // degrees
  var label = 0
  var textBytes: UInt32 = 0  // the bytes of the event's name or label, as the engine counts them
  var name: UInt32 = 0  // the stream's or view's name number
  var kind: UInt8 = 0
  var fields: UInt8 = 0
  var toward: UInt8 = 0
  var away: UInt8 = 0
}

/// Every distinct name of the file, numbered as first met.
struct Name {
  var start: Int
  var length: Int
  var stream: Int32 = -1  // -1 none yet, -2 refused by the stream budget
  var declaredFPS = 0.0
  var isMain: Bool
}

struct Finding {
  var from: Int64 = 0
  var to: Int64 = 0
  var since: Int64 = 0
  var missing: Int64 = 0
  var regression = false
  var cause: UInt8 = 0
  var reason: Int8 = -1
}

let causeCameraSwitch: UInt8 = 0
let causeReportedDrop: UInt8 = 1
let causeUnexplained: UInt8 = 2

struct FrameMark {
  var t: Int64 = 0
  var pts: Int64 = 0
  var camera: Int8 = -1
}

struct EarlyDelta {
  var from: FrameMark
  var to: FrameMark
  var bridged: Bool
  var cause: UInt8
  var reason: Int8
}

struct DropReport {
  var pts: Int64
  var reason: Int8
}

enum StallState { case watching, silent, ended }

struct Stream {
  var name: UInt32
  // Frame gaps (SPEC 4.6).
  var running = false
  var hasNominal = false
  var declared = false
  var hasHeld = false
  var hasFaster = false
  var last = FrameMark()
  var nominal = 0.0
  var gapThreshold: Int64 = 0
  var fasterThreshold: Int64 = 0
  var stallDelay: Int64 = 0
  var nominalRounded: Int64 = 0
  var cadenceCount = 0
  var cadenceNext = 0
  var held = Finding()
  var heldDelta: Int64 = 0
  var heldAlike = 0
  var fasterDelta: Int64 = 0
  var drops: [DropReport] = []
  var early: [EarlyDelta] = []
  // Direction and mirroring (SPEC 4.7): -1 for none.
  var input = noCamera
  var constituent = noCamera
  var directionCamera = noCamera
  var directionUser: Int8 = 0
  var mirroringCamera = noCamera
  var mirroringValue: Int8 = 0
  // Mask (SPEC 4.8) and stall.
  var maskOn = false
  var maskCamera = noCamera
  var maskTime: Int64 = 0
  var stallState = StallState.watching
  var stallSince: Int64 = 0
  var latestInput: Int64? = nil

  init(name: UInt32) { self.name = name }
}

/// A direction update, kept as the current map of its view.
struct DirectionMap {
  var toward: UInt8
  var away: UInt8
  var view: UInt32
}

struct StatusChange {
  enum Kind { case none, initial, lost, committed }
  var kind = Kind.none
  var from: UInt8 = 0
  var to: UInt8 = 0
  var since: Int64 = 0
}

struct Timer {
  var due: Int64
  var order: UInt64
  var tag: Int

  @inline(__always) func firesBefore(_ other: Timer) -> Bool {
    due < other.due || (due == other.due && order < other.order)
  }
}

enum TimerTag {
  static let debounce = 0
  static let settle = 1
  static let progress = 2
  static let streams = 3
  @inline(__always) static func stall(_ stream: Int) -> Int { streams + 2 * stream }
  @inline(__always) static func mask(_ stream: Int) -> Int { streams + 2 * stream + 1 }
}

/// The whole replay: the file, the engine, the stages and the output, one value.
struct Replay {
  let bytes: UnsafePointer<UInt8>
  let end: Int
  var cursor = 12
  var output = Output()
  var now: Int64 = 0

  init(bytes: UnsafePointer<UInt8>, count: Int) {
    self.bytes = bytes
    end = count
    reserveTags(TimerTag.streams)
  }

  // MARK: Decoding binary version 2

  var names: [Name] = []
  var nameSlots: [UInt32] = []  // open addressing by the text's hash: name number + 1, 0 free
  var fileNames: [UInt32] = []  // the file's name table: name numbers
  var fileNameBytes = 0  // the bytes of the names in it
  var previousT: Int64 = 0

  func hash(_ start: Int, _ length: Int) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for index in start..<start + length { hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3 }
    return hash
  }

  mutating func intern(_ start: Int, _ length: Int) -> UInt32 {
    if names.count * 2 >= nameSlots.count {
      let count = nameSlots.isEmpty ? 64 : nameSlots.count * 2
      var slots = [UInt32](repeating: 0, count: count)
      for (number, name) in names.enumerated() {
        var slot = Int(hash(name.start, name.length) & UInt64(count - 1))
        while slots[slot] != 0 { slot = (slot + 1) & (count - 1) }
        slots[slot] = UInt32(number + 1)
      }
      nameSlots = slots
    }
    let mask = nameSlots.count - 1
    var slot = Int(hash(start, length) & UInt64(mask))
    while nameSlots[slot] != 0 {
      let name = names[Int(nameSlots[slot]) - 1]
      if name.length == length && memcmp(bytes + name.start, bytes + start, length) == 0 {
        return nameSlots[slot] - 1
      }
      slot = (slot + 1) & mask
    }
    let isMain = length == 4 && memcmp(bytes + start, "main", 4) == 0
    names.append(Name(start: start, length: length, isMain: isMain))
    nameSlots[slot] = UInt32(names.count)
    return UInt32(names.count - 1)
  }

  /// A varint near the end of the file, checked byte by byte.
  mutating func varintAtEnd() -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while shift < 64 {
      if cursor >= end { fail("a record ends inside a number") }
      let byte = bytes[cursor]
      cursor &+= 1
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
    fail("a number longer than 64 bits")
  }

  /// A varint, unrolled: away from the end of the file its ten bytes at most need no check.
  @inline(__always)
  mutating func varint() -> UInt64 {
    if end - cursor < 10 { return varintAtEnd() }
    let first = UInt64(bytes[cursor])
    if first < 0x80 {
      cursor &+= 1
      return first
    }
    var value = first & 0x7F
    var index = 1
    while index < 10 {
      let byte = UInt64(bytes[cursor &+ index])
      value |= (byte & 0x7F) << UInt64(7 &* index)
      if byte < 0x80 {
        cursor &+= index &+ 1
        return value
      }
      index &+= 1
    }
    fail("a number longer than 64 bits")
  }

  @inline(__always)
  mutating func zigzag() -> Int64 {
    let code = varint()
    return Int64(bitPattern: code >> 1) ^ (0 &- Int64(bitPattern: code & 1))
  }

  mutating func stringField() -> (start: Int, length: Int) {
    let count = varint()
    if count > UInt64(end - cursor) { fail("a string past the end of the file") }
    let start = cursor
    cursor += Int(count)
    return (start, Int(count))
  }

  /// A name: its number in the file's table, or spelled out (joining the table while it has room).
  @inline(__always)
  mutating func nameField() -> UInt32 {
    let number = varint()
    if number > 0 {
      if number > UInt64(fileNames.count) { fail("a name number the table does not have") }
      return fileNames[Int(number) - 1]
    }
    let (start, length) = stringField()
    let name = intern(start, length)
    if fileNames.count < nameTableLimit && length <= nameTableBytes - fileNameBytes {
      fileNames.append(name)
      fileNameBytes += length
    }
    return name
  }

  /// A CMTime in nanoseconds, rounded toward negative infinity.
  @inline(__always)
  mutating func ptsField(inNanoseconds: Bool) -> Int64 {
    let value = zigzag()
    if inNanoseconds { return value }
    return nanoseconds(value: value)
  }

  mutating func nanoseconds(value: Int64) -> Int64 {
    let timescale = Int64(bitPattern: varint())
    if timescale <= 0 || timescale > Int64(Int32.max) { fail("a timescale out of range") }
    let scaled = value.multipliedFullWidth(by: 1_000_000_000)
    let high = Int64(scaled.high)
    if high >= timescale || high < -timescale { fail("a pts past 64-bit nanoseconds") }
    var (quotient, remainder) = timescale.dividingFullWidth(scaled)
    if remainder != 0 && scaled.high < 0 { quotient -= 1 }
    return quotient
  }

  mutating func header() {
    _ = varint()  // version
    for _ in 0..<2 {  // device, os
      if cursor >= end { fail("a header ends early") }
      let present = bytes[cursor]
      cursor += 1
      if present != 0 { _ = stringField() }
    }
    let streams = varint()
    for _ in 0..<streams {
      let (start, length) = stringField()
      if end - cursor < 8 { fail("a header ends early") }
      let fps = UnsafeRawPointer(bytes + cursor).loadUnaligned(as: Double.self)
      cursor += 8
      declare(intern(start, length), fps: fps)
    }
  }

  /// Decodes the next event into `event`; `false` at the end of the file. A header is applied
  /// as read.
  @inline(__always)
  mutating func next(into event: UnsafeMutablePointer<Event>) -> Bool {
    while cursor < end {
      let length = varint()
      if length == 0 || length > UInt64(end - cursor) { fail("a record past the end of the file") }
      // Within the file, as checked: offsets in it wrap nowhere.
      let recordEnd = cursor &+ Int(length)
      let tag = bytes[cursor]
      cursor &+= 1
      let kind = tag & 0x0F
      if kind == Kind.header {
        header()
        if cursor != recordEnd { fail("a header with bytes left over") }
        continue
      }
      previousT &+= zigzag()
      if previousT < 0 { fail("a negative t") }
      event.pointee.t = previousT
      event.pointee.kind = kind
      event.pointee.fields = tag >> 4
      event.pointee.textBytes = 0
      switch kind {
      case Kind.hinge:
        if tag & 0x30 != 0 {
          if recordEnd - cursor < 8 { fail("a hinge record cut short") }
          var angle = UnsafeRawPointer(bytes + cursor).loadUnaligned(as: Double.self)
          cursor &+= 8
          if tag & 0x30 == 0x20 { angle *= 180 / Double.pi }
          event.pointee.angle = angle
        }
      case Kind.frame, Kind.drop:
        let name = nameField()
        event.pointee.name = name
        event.pointee.textBytes = UInt32(names[Int(name)].length)
        event.pointee.pts = ptsField(inNanoseconds: tag >> 7 != 0)
      case Kind.input, Kind.streamEnd:
        let name = nameField()
        event.pointee.name = name
        event.pointee.textBytes = UInt32(names[Int(name)].length)
      case Kind.direction:
        let name = nameField()
        event.pointee.name = name
        event.pointee.textBytes = UInt32(names[Int(name)].length)
        if recordEnd - cursor < 2 { fail("a direction record cut short") }
        event.pointee.toward = bytes[cursor]
        event.pointee.away = bytes[cursor + 1]
        cursor += 2
      case Kind.mark:
        let (start, length) = stringField()
        event.pointee.label = start
        event.pointee.textBytes = UInt32(length)
      case Kind.display, Kind.app, Kind.session, Kind.end:
        break
      default:
        fail("an unknown record kind")
      }
      if cursor != recordEnd { fail("a record with bytes left over, or cut short") }
      return true
    }
    return false
  }

  // MARK: Engine: timers in a heap by (due, order set), each found by its dense tag

  var heap = Slab<Timer>()
  var heapPlace = Slab<Int32>()  // by tag: the timer's index in the heap, -1 when not set
  var timerOrder: UInt64 = 0

  @inline(__always)
  mutating func heapPut(_ index: Int, _ timer: Timer) {
    heap[index] = timer
    heapPlace[timer.tag] = Int32(index)
  }

  mutating func siftUp(_ start: Int) {
    var index = start
    let timer = heap[index]
    while index > 0 && timer.firesBefore(heap[(index - 1) / 2]) {
      heapPut(index, heap[(index - 1) / 2])
      index = (index - 1) / 2
    }
    heapPut(index, timer)
  }

  mutating func siftDown(_ start: Int) {
    var index = start
    let timer = heap[index]
    while true {
      var child = 2 * index + 1
      if child >= heap.count { break }
      if child + 1 < heap.count && heap[child + 1].firesBefore(heap[child]) { child += 1 }
      if !heap[child].firesBefore(timer) { break }
      heapPut(index, heap[child])
      index = child
    }
    heapPut(index, timer)
  }

  mutating func reserveTags(_ tags: Int) {
    if heapPlace.count < tags {
      heapPlace.append(repeating: -1, count: tags - heapPlace.count)
    }
  }

  /// Sets (or re-sets) the timer `tag` due at `due`: it fires after every timer set before it
  /// for the same time.
  mutating func schedule(_ tag: Int, at due: Int64) {
    let timer = Timer(due: due, order: timerOrder, tag: tag)
    timerOrder &+= 1
    let place = Int(heapPlace[tag])
    if place < 0 {
      heap.append(timer)
      heapPlace[tag] = Int32(heap.count - 1)
      siftUp(heap.count - 1)
      return
    }
    let later = heap[place].firesBefore(timer)
    heapPut(place, timer)
    if later { siftDown(place) } else { siftUp(place) }
  }

  mutating func remove(at index: Int) {
    heapPlace[heap[index].tag] = -1
    let last = heap.removeLast()
    if index == heap.count { return }
    let earlier = last.firesBefore(heap[index])
    heapPut(index, last)
    if earlier { siftUp(index) } else { siftDown(index) }
  }

  @inline(__always)
  mutating func cancel(_ tag: Int) {
    let place = heapPlace[tag]
    if place >= 0 { remove(at: Int(place)) }
  }

  // MARK: Stages: the camera stage's state

  var streams = Slab<Stream>()
  var cadenceDeltas = Slab<Int64>()  // a stream's window at 15 × its number, and sorted beside
  var cadenceSorted = Slab<Int64>()
  var streamNameBytes = 0
  var mainMap: DirectionMap? = nil
  var otherMap: DirectionMap? = nil
  var severalOtherViews = false
  var latestDisplayEvent: Int64? = nil
  var latestClosedChange: Int64? = nil
  var displayOuter: Bool? = nil
  var sessionRunning: Bool? = nil
  var foreground = false
  var accessoryRunning = false
  var previewVisible = false
  var innerFullScreen = false
  var accessoryCommitted: UInt8? = nil
  var reportedEligible: Bool? = nil
  var earlyGaps: [Finding] = []
  var heldGapFound = Finding()
  var revealedFound = Finding()

  var currentMap: DirectionMap? {
    if let mainMap { return mainMap }
    return severalOtherViews ? nil : otherMap
  }

  /// 1 toward the person, 0 away, -1 unknown.
  func facing(of camera: Int8) -> Int8 {
    guard let map = currentMap else { return -1 }
    if map.toward & (1 << UInt8(camera)) != 0 { return 1 }
    if map.away & (1 << UInt8(camera)) != 0 { return 0 }
    return -1
  }

  func frontCameraTowardUser() -> Int8 {
    guard let map = currentMap else { return noCamera }
    if map.toward & (1 << UInt8(outerFront)) != 0 && map.toward & innerFrontListedFirst == 0 {
      return outerFront
    }
    return map.toward & (1 << UInt8(innerFront)) != 0 ? innerFront : noCamera
  }

  // MARK: Stages: hinge

  enum Availability { case awaitingLaunch, available, unavailable }
  enum Debounce { case awaiting, committed, window }
  enum Motion { case awaitingFirst, resting, moving }
  var availability = Availability.awaitingLaunch
  var debounceState = Debounce.awaiting
  var committed: UInt8 = 0
  var windowCommitted: UInt8 = 0
  var windowLatest: UInt8 = 0
  var windowSince: Int64 = 0
  var windowDeadline: Int64 = 0
  var sideKnown = false
  var sideAbove = false
  var motion = Motion.awaitingFirst
  var baseline = 0.0
  var extreme = 0.0
  var latestAngle = 0.0
  var armAngle = 0.0
  var opening = false
  var armTime: Int64 = 0
  var progressSent = false
  var progressSentThousandths: Int64 = 0
  var progressSentT: Int64 = 0
  var progressWaiting = false
  var progressPending = 0.0
  var progressPendingSince: Int64 = 0

  @inline(__always) static func thousandths(_ value: Double) -> Int64 { Int64((value * 1000).rounded()) }
  @inline(__always) static func progressValue(_ angle: Double) -> Double {
    min(max(angle / progressFull, 0), 1)
  }
  @inline(__always) static func inZone(_ angle: Double) -> Bool { abs(180 - angle) < fullyOpenZone }

  @inline(__always) func differsFromSent(_ value: Double) -> Bool {
    !progressSent || Self.thousandths(value) != progressSentThousandths
  }

  mutating func emitProgress(_ value: Double, since: Int64) {
    progressSent = true
    progressSentThousandths = Self.thousandths(value)
    progressSentT = now
    output.begin(.hingeProgress, now: now, since: since)
    output.put(",\"value\":")
    output.put(decimal: value)
    output.end()
  }

  mutating func motionCue(_ angle: Double) {
    output.begin(.hingeMotion, now: now, since: now)
    output.put(opening ? ",\"phase\":\"opening\"" : ",\"phase\":\"closing\"")
    output.put(angle: angle)
    output.end()
  }

  /// The hinge came to rest: the final progress, then the settle (SPEC 4.4, 4.5).
  mutating func settle(_ angle: Double, zoneField: StaticString, since: Int64) {
    cancel(TimerTag.settle)
    cancel(TimerTag.progress)
    progressWaiting = false
    let value = Self.progressValue(angle)
    if differsFromSent(value) { emitProgress(value, since: since) }
    output.begin(.hingeSettled, now: now, since: since)
    output.put(angle: angle)
    output.put(zoneField)
    output.end()
    motion = .resting
    baseline = angle
  }

  static func zoneField(of angle: Double) -> StaticString {
    if inZone(angle) { return ",\"zone\":\"fullyOpen\"" }
    return angle < deadband ? ",\"zone\":\"closed\"" : ",\"zone\":\"half\""
  }

  mutating func becomeUnavailable() -> StatusChange {
    if availability == .unavailable { return StatusChange() }
    availability = .unavailable
    output.begin(.hingeUnavailable, now: now, since: now)
    output.end()
    cancel(TimerTag.debounce)
    cancel(TimerTag.settle)
    cancel(TimerTag.progress)
    debounceState = .awaiting
    sideKnown = false
    motion = .awaitingFirst
    progressSent = false
    progressWaiting = false
    return StatusChange(kind: .lost)
  }

  @inline(__always)
  mutating func armDebounce() {
    let quiet = addTime(now, debounce)
    schedule(TimerTag.debounce, at: min(quiet, windowDeadline))
  }

  mutating func hinge(_ event: UnsafePointer<Event>) -> StatusChange {
    var change = StatusChange()
    if event.pointee.fields & 3 == 0 { return becomeUnavailable() }
    let angle = event.pointee.angle
    let status = event.pointee.fields >> 2
    switch debounceState {
    case .awaiting:
      debounceState = .committed
      committed = status
      change = StatusChange(kind: .initial, to: status)
      output.begin(availability == .unavailable ? .hingeAvailable : .hingeInitial, now: now, since: now)
      output.put(",\"status\":")
      output.put(statusName(status))
      output.put(angle: angle)
      output.end()
      availability = .available
    case .committed:
      if status != unknown && status != committed {
        debounceState = .window
        windowCommitted = committed
        windowLatest = status
        windowSince = now
        windowDeadline = addTime(now, maxWait)
        armDebounce()
      }
    case .window:
      if status != unknown && status != windowLatest {
        windowLatest = status
        armDebounce()
      }
    }
    // The flat boundary (SPEC 4.3).
    let above =
      sideKnown
      ? (angle >= flatAbove ? true : angle <= flatBelow ? false : sideAbove)
      : (angle <= flatBelow ? false : angle >= flatAbove ? true : angle >= (flatBelow + flatAbove) / 2)
    if !sideKnown || above != sideAbove {
      output.begin(.hingeThreshold, now: now, since: now)
      output.put(
        above ? ",\"boundary\":\"flat\",\"side\":\"above\"" : ",\"boundary\":\"flat\",\"side\":\"below\"")
      output.put(angle: angle)
      if !sideKnown { output.put(",\"initial\":true") }
      output.end()
      sideKnown = true
      sideAbove = above
    }
    // Motion and settle (SPEC 4.4).
    let zone = Self.inZone(angle)
    switch motion {
    case .awaitingFirst:
      motion = .resting
      baseline = angle
      return change
    case .resting:
      if zone || !(abs(angle - baseline) > deadband) { return change }
      opening = angle > baseline
      motion = .moving
      extreme = angle
      latestAngle = angle
      armAngle = angle
      armTime = now
      motionCue(angle)
      schedule(TimerTag.settle, at: addTime(now, settleDelay))
    case .moving:
      if zone && opening {
        settle(angle, zoneField: ",\"zone\":\"fullyOpen\"", since: now)
        return change
      }
      latestAngle = angle
      extreme = opening ? max(extreme, angle) : min(extreme, angle)
      if !zone && (opening ? extreme - angle : angle - extreme) > deadband {
        opening.toggle()
        extreme = angle
        motionCue(angle)
      }
      if abs(angle - armAngle) > settleTolerance {
        armAngle = angle
        armTime = now
        schedule(TimerTag.settle, at: addTime(now, settleDelay))
      }
    }
    // Progress while moving (SPEC 4.5): at most one an interval, the latest value no later
    // than an interval on.
    let value = Self.progressValue(angle)
    if progressWaiting {
      progressPending = value
      progressPendingSince = now
    } else if differsFromSent(value) {
      if !progressSent || !(subtractTime(now, progressSentT) < progressInterval) {
        emitProgress(value, since: now)
      } else {
        progressWaiting = true
        progressPending = value
        progressPendingSince = now
        schedule(TimerTag.progress, at: addTime(progressSentT, progressInterval))
      }
    }
    return change
  }

  mutating func hingeTimer(_ tag: Int) -> StatusChange {
    switch tag {
    case TimerTag.debounce:
      guard debounceState == .window else { return StatusChange() }
      debounceState = .committed
      let (from, to) = (windowCommitted, windowLatest)
      committed = to
      if to == from { return StatusChange() }
      output.begin(.hingeStatus, now: now, since: windowSince)
      output.put(",\"from\":")
      output.put(statusName(from))
      output.put(",\"to\":")
      output.put(statusName(to))
      output.end()
      output.begin(.regionsChanged, now: now, since: windowSince)
      output.put(to == partiallyOpen ? ",\"divisionActive\":true" : ",\"divisionActive\":false")
      output.end()
      if to == closed && motion == .moving {
        settle(latestAngle, zoneField: ",\"zone\":\"closed\"", since: windowSince)
      }
      return StatusChange(kind: .committed, from: from, to: to, since: windowSince)
    case TimerTag.settle:
      if motion == .moving { settle(latestAngle, zoneField: Self.zoneField(of: latestAngle), since: armTime) }
    default:
      guard progressWaiting else { break }
      progressWaiting = false
      if differsFromSent(progressPending) { emitProgress(progressPending, since: progressPendingSince) }
    }
    return StatusChange()
  }

  // MARK: Stages: camera: the frame gaps of a stream (SPEC 4.6)

  mutating func setNominal(_ index: Int, _ nominal: Double) {
    streams[index].hasNominal = true
    streams[index].nominal = nominal
    streams[index].gapThreshold = roundTime(nominal * gapFactor / 1)
    streams[index].fasterThreshold = roundTime(nominal * 1 / gapFactor)
    streams[index].stallDelay = roundTime(nominal * stallFactor / 1)
    streams[index].nominalRounded = roundTime(nominal)
  }

  mutating func resetCadence(_ index: Int, fps: Double) {
    streams[index].declared = fps > 0
    streams[index].hasNominal = false
    if fps > 0 { setNominal(index, 1e9 / fps) }
    for slot in index * cadenceWindow..<(index + 1) * cadenceWindow {
      cadenceDeltas[slot] = 0
      cadenceSorted[slot] = 0
    }
    streams[index].cadenceCount = 0
    streams[index].cadenceNext = 0
  }

  /// The rate estimate: the median of the last 15 deltas, once there are 3.
  mutating func observe(_ index: Int, _ delta: Int64) {
    if streams[index].declared || delta <= 0 { return }
    let base = index * cadenceWindow
    var count = streams[index].cadenceCount
    let next = streams[index].cadenceNext
    if count == cadenceWindow {
      let oldest = cadenceDeltas[base + next]
      var (low, high) = (0, count - 1)
      while low < high {
        let middle = (low + high) / 2
        if cadenceSorted[base + middle] < oldest { low = middle + 1 } else { high = middle }
      }
      while low + 1 < count {
        cadenceSorted[base + low] = cadenceSorted[base + low + 1]
        low += 1
      }
      count -= 1
    }
    cadenceDeltas[base + next] = delta
    var position = count
    while position > 0 && cadenceSorted[base + position - 1] > delta {
      cadenceSorted[base + position] = cadenceSorted[base + position - 1]
      position -= 1
    }
    cadenceSorted[base + position] = delta
    streams[index].cadenceNext = (next + 1) % cadenceWindow
    count += 1
    streams[index].cadenceCount = count
    if count >= cadenceMinimum {
      let nominal = Double(cadenceSorted[base + count / 2])
      if !streams[index].hasNominal || nominal != streams[index].nominal { setNominal(index, nominal) }
    }
  }

  mutating func adopt(_ index: Int, _ duration: Int64) {
    setNominal(index, Double(duration))
    for slot in index * cadenceWindow..<(index + 1) * cadenceWindow {
      cadenceDeltas[slot] = duration
      cadenceSorted[slot] = duration
    }
    streams[index].cadenceCount = cadenceWindow
  }

  @inline(__always) static func isAlike(_ delta: Int64, _ held: Int64) -> Bool {
    subtractTime(delta, held).magnitude <= held.magnitude / 4
  }

  static func missingFrames(_ nominal: Double, _ span: Int64) -> Int64 {
    let frames = (Double(span) / nominal).rounded()
    let whole: Int64 = frames < 9.2e18 ? (frames > -9.2e18 ? Int64(frames) : .min) : .max
    let missing = whole == .min ? .min : whole - 1
    return max(1, missing)
  }

  /// The cause of the gap between `last` and `current` (SPEC 4.6), and the drops' reason.
  func classify(_ index: Int, _ last: FrameMark, _ current: FrameMark) -> (cause: UInt8, reason: Int8) {
    if last.camera != noCamera && current.camera != noCamera && last.camera != current.camera {
      return (causeCameraSwitch, -1)
    }
    let start = subtractTime(last.t, switchWindow)
    func inWindow(_ time: Int64?) -> Bool { time.map { $0 >= start && $0 <= current.t } ?? false }
    if inWindow(streams[index].latestInput) || inWindow(latestDisplayEvent) || inWindow(latestClosedChange) {
      return (causeCameraSwitch, -1)
    }
    var drops = 0
    var counts = (0, 0, 0)
    var earliest: [(pts: Int64, arrival: Int)] = [(.max, .max), (.max, .max), (.max, .max)]
    for drop in streams[index].drops where drop.pts > last.pts && drop.pts < current.pts {
      let place = drops
      drops += 1
      guard drop.reason >= 0 else { continue }
      switch drop.reason {
      case 0: counts.0 += 1
      case 1: counts.1 += 1
      default: counts.2 += 1
      }
      if drop.pts < earliest[Int(drop.reason)].pts { earliest[Int(drop.reason)] = (drop.pts, place) }
    }
    if drops == 0 { return (causeUnexplained, -1) }
    var best: Int8 = -1
    for (candidate, count) in [counts.0, counts.1, counts.2].enumerated() where count > 0 {
      if best < 0 {
        best = Int8(candidate)
        continue
      }
      let bestCount = [counts.0, counts.1, counts.2][Int(best)]
      if count > bestCount
        || (count == bestCount && earliest[candidate] < earliest[Int(best)])
      {
        best = Int8(candidate)
      }
    }
    return (causeReportedDrop, best)
  }

  mutating func holdOrReport(
    _ index: Int, _ gap: Finding, bridged: Bool, delta: Int64, reveal: Bool, revealed: inout Bool
  ) {
    if gap.missing == 1 && !bridged {
      streams[index].hasHeld = true
      streams[index].held = gap
      streams[index].heldDelta = delta
      streams[index].heldAlike = 0
    } else if reveal {
      revealedFound = gap
      revealed = true
    } else {
      earlyGaps.append(gap)
    }
  }

  /// A held delta met by another alike delta; a pair confirms a rate change.
  @inline(__always)
  mutating func countAlike(_ index: Int) {
    streams[index].heldAlike += 1
    if streams[index].heldAlike < 2 { return }
    adopt(index, streams[index].heldDelta)
    streams[index].hasHeld = false
  }

  mutating func judgeEarlyDeltas(_ index: Int) {
    // Against the first estimate, though a rate change confirmed on the way adopts another.
    let nominal = streams[index].nominal
    let threshold = streams[index].gapThreshold
    let nominalRounded = streams[index].nominalRounded
    let early = streams[index].early
    streams[index].early.removeAll(keepingCapacity: true)
    var unused = false
    for delta in early {
      let length = delta.to.pts - delta.from.pts
      if streams[index].hasHeld {
        if !delta.bridged && Self.isAlike(length, streams[index].heldDelta) {
          countAlike(index)
          continue
        }
        streams[index].hasHeld = false
        earlyGaps.append(streams[index].held)
      }
      guard length > threshold else { continue }
      let due = addTime(delta.from.t, nominalRounded)
      let gap = Finding(
        from: delta.from.pts, to: delta.to.pts, since: min(due, delta.to.t),
        missing: Self.missingFrames(nominal, length), cause: delta.cause, reason: delta.reason)
      holdOrReport(index, gap, bridged: delta.bridged, delta: length, reveal: false, revealed: &unused)
    }
  }

  /// What a frame found: flags, the findings kept beside them.
  struct FrameAction {
    var heldGap = false
    var afterGap = false
    var revealed = false
    var earlyGaps = false
  }

  mutating func frameGaps(_ index: Int, pts: Int64, camera: Int8) -> FrameAction {
    var action = FrameAction()
    let current = FrameMark(t: now, pts: pts, camera: camera)
    defer {
      if !streams[index].drops.isEmpty { streams[index].drops.removeAll { $0.pts <= pts } }
    }
    guard streams[index].running else {
      streams[index].running = true
      streams[index].last = current
      return action
    }
    let last = streams[index].last
    streams[index].last = current
    guard pts > last.pts else {
      streams[index].hasFaster = false
      revealedFound = Finding(from: last.pts, to: pts, since: now, regression: true)
      action.revealed = true
      return action
    }
    let delta = pts - last.pts
    let bridged = streams[index].drops.contains { $0.pts > last.pts && $0.pts < pts }
    if streams[index].hasHeld {
      if !bridged && Self.isAlike(delta, streams[index].heldDelta) {
        countAlike(index)
        return action
      }
      streams[index].hasHeld = false
      heldGapFound = streams[index].held
      action.heldGap = true
    }
    guard streams[index].hasNominal else {
      // The first deltas, judged once an estimate exists.
      if !bridged { observe(index, delta) }
      if streams[index].early.count == maximumEarlyDeltas { streams[index].early.removeFirst() }
      let (cause, reason) = classify(index, last, current)
      streams[index].early.append(
        EarlyDelta(from: last, to: current, bridged: bridged, cause: cause, reason: reason))
      if streams[index].hasNominal {
        judgeEarlyDeltas(index)
        action.earlyGaps = !earlyGaps.isEmpty
      }
      return action
    }
    guard delta > streams[index].gapThreshold else {
      if bridged {
        streams[index].hasFaster = false
      } else {
        // A faster rate: two alike deltas below the nominal divided by the gap factor, the
        // nominal as it was before this delta was observed.
        let fasterThreshold = streams[index].fasterThreshold
        observe(index, delta)
        if !(delta < fasterThreshold) {
          streams[index].hasFaster = false
        } else if !streams[index].hasFaster || !Self.isAlike(delta, streams[index].fasterDelta) {
          streams[index].hasFaster = true
          streams[index].fasterDelta = delta
        } else {
          adopt(index, streams[index].fasterDelta)
          streams[index].hasFaster = false
        }
      }
      return action
    }
    streams[index].hasFaster = false
    action.afterGap = true
    let (cause, reason) = classify(index, last, current)
    let due = addTime(last.t, streams[index].nominalRounded)
    let gap = Finding(
      from: last.pts, to: pts, since: min(due, now),
      missing: Self.missingFrames(streams[index].nominal, delta),
      cause: cause, reason: reason)
    holdOrReport(index, gap, bridged: bridged, delta: delta, reveal: true, revealed: &action.revealed)
    return action
  }

  // MARK: Stages: camera: a stream's decision, mask, stall; the stage's events

  mutating func declare(_ name: UInt32, fps: Double) {
    names[Int(name)].declaredFPS = fps
    let stream = names[Int(name)].stream
    if stream >= 0 { resetCadence(Int(stream), fps: fps) }
  }

  /// The stream of `name`, made when first met; negative past the stream budget.
  mutating func stream(of name: UInt32) -> Int {
    let known = names[Int(name)].stream
    if known != -1 { return Int(known) }
    let length = names[Int(name)].length
    if streams.count >= maximumStreams || streamNameBytes + length > maximumStreamNameBytes {
      names[Int(name)].stream = -2
      return -2
    }
    streamNameBytes += length
    streams.append(Stream(name: name))
    cadenceDeltas.append(repeating: 0, count: cadenceWindow)
    cadenceSorted.append(repeating: 0, count: cadenceWindow)
    let index = streams.count - 1
    resetCadence(index, fps: names[Int(name)].declaredFPS)
    reserveTags(TimerTag.mask(index) + 1)
    names[Int(name)].stream = Int32(index)
    return index
  }

  mutating func streamField(_ index: Int) {
    output.put(",\"stream\":")
    let name = names[Int(streams[index].name)]
    output.put(string: bytes + name.start, name.length)
  }

  mutating func findingCue(_ index: Int, _ finding: Finding) {
    output.begin(finding.regression ? .cameraPTSRegression : .cameraGap, now: now, since: finding.since)
    streamField(index)
    output.put(",\"from\":")
    output.put(integer: finding.from)
    output.put(",\"to\":")
    output.put(integer: finding.to)
    if !finding.regression {
      output.put(",\"missing\":")
      output.put(integer: finding.missing)
      switch finding.cause {
      case causeCameraSwitch: output.put(",\"cause\":\"cameraSwitch\"")
      case causeReportedDrop: output.put(",\"cause\":\"reportedDrop\"")
      default: output.put(",\"cause\":\"unexplained\"")
      }
      if finding.reason >= 0 {
        output.put(",\"reason\":")
        output.put(reasonName(finding.reason))
      }
    }
    output.end()
  }

  /// The active camera (SPEC 4.7), and its facing: 1 toward the person, 0 away, -1 unknown.
  func activeCamera(_ index: Int) -> (camera: Int8, facing: Int8) {
    // Field by field: a copy of the whole stream would retain its arrays.
    let input = streams[index].input
    let constituent = streams[index].constituent
    if input == virtualFront {
      var camera = constituent
      if camera == noCamera { camera = frontCameraTowardUser() }
      if camera == noCamera { camera = virtualFront }
      // A virtual front camera follows the app between displays, so it faces the person.
      return (camera, isFront(camera) ? 1 : facing(of: camera))
    }
    let camera = input != noCamera ? input : constituent
    return (camera, camera == noCamera ? -1 : facing(of: camera))
  }

  /// A direction or mirroring cue up to its camera.
  mutating func beginCameraCue(_ kind: CueKind, _ index: Int, _ camera: Int8) {
    output.begin(kind, now: now, since: now)
    streamField(index)
    output.put(",\"camera\":")
    output.put(cameraName(camera))
  }

  /// The decision brought up to date: `camera.direction` and `camera.mirroring` when they change.
  mutating func decide(_ index: Int) {
    let (camera, facing) = activeCamera(index)
    if camera == noCamera { return }
    if facing >= 0 && (streams[index].directionCamera != camera || streams[index].directionUser != facing) {
      streams[index].directionCamera = camera
      streams[index].directionUser = facing
      beginCameraCue(.cameraDirection, index, camera)
      output.put(facing == 1 ? ",\"facing\":\"user\"" : ",\"facing\":\"away\"")
      output.end()
    }
    let mirrored: Int8 = facing >= 0 ? facing : (isFront(camera) ? 1 : 0)
    if streams[index].mirroringCamera == camera && streams[index].mirroringValue == mirrored { return }
    streams[index].mirroringCamera = camera
    streams[index].mirroringValue = mirrored
    beginCameraCue(.cameraMirroring, index, camera)
    output.put(mirrored == 1 ? ",\"mirrored\":true" : ",\"mirrored\":false")
    output.put(facing < 0 ? ",\"basis\":\"deviceType\"" : ",\"basis\":\"direction\"")
    output.end()
  }

  mutating func triggerMask(_ index: Int, reason: StaticString, since: Int64) {
    if streams[index].maskOn { return }
    streams[index].maskOn = true
    streams[index].maskTime = now
    streams[index].maskCamera = activeCamera(index).camera
    output.begin(.cameraMask, now: now, since: since)
    streamField(index)
    output.put(",\"on\":true,\"reason\":")
    output.put(reason)
    output.end()
    schedule(TimerTag.mask(index), at: addTime(now, maskMax))
  }

  mutating func maskOff(_ index: Int, since: Int64) {
    streams[index].maskOn = false
    output.begin(.cameraMask, now: now, since: since)
    streamField(index)
    output.put(",\"on\":false")
    output.end()
  }

  /// Silence begins: a stall is due a stall delay on, once the stream has a nominal.
  mutating func startSilence(_ index: Int) {
    guard streams[index].hasNominal else { return }
    streams[index].stallState = .silent
    streams[index].stallSince = now
    schedule(TimerTag.stall(index), at: addTime(now, streams[index].stallDelay))
  }

  mutating func endRun(_ index: Int) {
    streams[index].running = false
    streams[index].drops.removeAll(keepingCapacity: true)
    streams[index].hasFaster = false
    streams[index].early.removeAll(keepingCapacity: true)
    if streams[index].hasHeld {
      streams[index].hasHeld = false
      findingCue(index, streams[index].held)
    }
  }

  mutating func updateAccessory(since: Int64, startsReporting: Bool) {
    if !startsReporting && reportedEligible == nil { return }
    let open = accessoryCommitted == partiallyOpen || accessoryCommitted == fullyOpen
    let eligible = foreground && accessoryRunning && previewVisible && open && innerFullScreen
    if reportedEligible == eligible { return }
    reportedEligible = eligible
    output.begin(.accessoryEligible, now: now, since: since)
    if eligible {
      output.put(",\"eligible\":true,\"missing\":[]")
    } else {
      output.put(",\"eligible\":false,\"missing\":[")
      var separator = false
      for (met, name) in [
        (foreground, "\"foreground\"" as StaticString), (accessoryRunning, "\"session\""),
        (previewVisible, "\"preview\""), (open, "\"open\""), (innerFullScreen, "\"innerFullScreen\""),
      ] where !met {
        if separator { output.put(",") }
        output.put(name)
        separator = true
      }
      output.put("]")
    }
    output.end()
  }

  mutating func hingeChanged(_ change: StatusChange) {
    switch change.kind {
    case .none:
      return
    case .initial:
      accessoryCommitted = change.to
      updateAccessory(since: now, startsReporting: false)
    case .lost:
      accessoryCommitted = nil
      updateAccessory(since: now, startsReporting: false)
    case .committed:
      // A commit from `unknown` learns the status: no fold, so no mask and no switch cause.
      if change.from != unknown && (change.from == closed || change.to == closed) {
        latestClosedChange = change.since
        for index in streams.indices where streams[index].input == virtualFront {
          triggerMask(index, reason: "\"hinge\"", since: change.since)
        }
      }
      accessoryCommitted = change.to
      updateAccessory(since: change.since, startsReporting: false)
    }
  }

  mutating func frame(_ event: UnsafePointer<Event>) {
    let index = stream(of: event.pointee.name)
    if index < 0 { return }
    var camera = Int8(event.pointee.fields & 7) - 1
    // Under a `virtualFront` input a frame labelled `virtualFront` keeps the constituent known.
    if camera == virtualFront && streams[index].input == virtualFront { camera = streams[index].constituent }
    if camera != noCamera && camera != streams[index].constituent {
      streams[index].constituent = camera
      decide(index)
    }
    let found = frameGaps(index, pts: event.pointee.pts, camera: camera)
    if found.heldGap { findingCue(index, heldGapFound) }
    if streams[index].maskOn {
      let delivering = camera != noCamera ? camera : activeCamera(index).camera
      if found.afterGap || delivering != streams[index].maskCamera {
        cancel(TimerTag.mask(index))
        maskOff(index, since: now)
      }
    }
    if found.revealed { findingCue(index, revealedFound) }
    if sessionRunning == false {
      streams[index].stallState = .watching
    } else {
      startSilence(index)
    }
    if found.earlyGaps {
      for gap in earlyGaps { findingCue(index, gap) }
      earlyGaps.removeAll(keepingCapacity: true)
    }
  }

  mutating func drop(_ event: UnsafePointer<Event>) {
    let index = stream(of: event.pointee.name)
    if index < 0 { return }
    if streams[index].running && event.pointee.pts <= streams[index].last.pts { return }
    if streams[index].drops.count == maximumHeldDrops { streams[index].drops.removeFirst() }
    let reason = event.pointee.fields & 3
    streams[index].drops.append(DropReport(pts: event.pointee.pts, reason: reason == 3 ? -1 : Int8(reason)))
  }

  mutating func input(_ event: UnsafePointer<Event>) {
    let index = stream(of: event.pointee.name)
    if index < 0 { return }
    let camera = Int8(event.pointee.fields & 7)
    if streams[index].input != noCamera && streams[index].input != camera {
      triggerMask(index, reason: "\"input\"", since: now)
    }
    streams[index].latestInput = now
    streams[index].input = camera
    streams[index].constituent = noCamera
    decide(index)
  }

  mutating func direction(_ event: UnsafePointer<Event>) {
    let map = DirectionMap(toward: event.pointee.toward, away: event.pointee.away, view: event.pointee.name)
    if names[Int(event.pointee.name)].isMain {
      mainMap = map
    } else if otherMap == nil || otherMap!.view == event.pointee.name {
      otherMap = map
    } else {
      severalOtherViews = true
    }
    for index in streams.indices { decide(index) }
  }

  mutating func display(_ event: UnsafePointer<Event>) {
    let outer = event.pointee.fields & 1 != 0
    let fullScreen = event.pointee.fields & 2 != 0
    latestDisplayEvent = now
    if let displayOuter, displayOuter != outer {
      for index in streams.indices where streams[index].input == virtualFront {
        triggerMask(index, reason: "\"display\"", since: now)
      }
    }
    displayOuter = outer
    innerFullScreen = !outer && fullScreen
    updateAccessory(since: now, startsReporting: true)
  }

  mutating func session(_ event: UnsafePointer<Event>) {
    let running = event.pointee.fields & 1 != 0
    let visible = (event.pointee.fields >> 1) & 3
    let wasRunning = sessionRunning != false
    sessionRunning = running
    if running && !wasRunning {
      for index in streams.indices where streams[index].stallState != .ended { startSilence(index) }
    } else if !running {
      // Every stop ends a run of frames, a repeated one too, and a stopped session's silence
      // is no stall.
      for index in streams.indices {
        endRun(index)
        if streams[index].stallState == .silent { streams[index].stallState = .watching }
        cancel(TimerTag.stall(index))
      }
    }
    accessoryRunning = running
    if visible != 0 { previewVisible = visible == 2 }
    updateAccessory(since: now, startsReporting: true)
  }

  mutating func streamEnd(_ event: UnsafePointer<Event>) {
    let index = stream(of: event.pointee.name)
    if index < 0 { return }
    endRun(index)
    streams[index].stallState = .ended
    cancel(TimerTag.stall(index))
  }

  mutating func cameraTimer(_ tag: Int) {
    let index = (tag - TimerTag.streams) / 2
    if (tag - TimerTag.streams) % 2 == 0 {
      guard streams[index].stallState == .silent else { return }
      streams[index].stallState = .watching
      output.begin(.cameraStall, now: now, since: streams[index].stallSince)
      streamField(index)
      output.end()
    } else if streams[index].maskOn {
      maskOff(index, since: streams[index].maskTime)
    }
  }

  /// End of input: a gap still held for confirmation is reported, at the end.
  mutating func cameraFinish() {
    for index in streams.indices {
      streams[index].early.removeAll(keepingCapacity: true)
      if streams[index].hasHeld {
        streams[index].hasHeld = false
        findingCue(index, streams[index].held)
      }
    }
  }

  // MARK: Stages: the pipeline: an event or a timer to its stage

  mutating func processEvent(_ event: UnsafePointer<Event>) {
    switch event.pointee.kind {
    case Kind.hinge: hingeChanged(hinge(event))
    case Kind.frame: frame(event)
    case Kind.drop: drop(event)
    case Kind.input: input(event)
    case Kind.direction: direction(event)
    case Kind.display: display(event)
    case Kind.app:
      foreground = event.pointee.fields & 1 == 0
      updateAccessory(since: now, startsReporting: true)
    case Kind.session: session(event)
    case Kind.streamEnd: streamEnd(event)
    case Kind.mark:
      output.begin(.mark, now: now, since: event.pointee.t)
      output.put(",\"label\":")
      output.put(string: bytes + event.pointee.label, Int(event.pointee.textBytes))
      output.end()
    default: break
    }
  }

  mutating func fire(_ tag: Int) {
    if tag < TimerTag.streams { hingeChanged(hingeTimer(tag)) } else { cameraTimer(tag) }
  }

  // MARK: Engine: the reorder ring, the release line, timers before later events

  var ring = UnsafeMutablePointer<Event>.allocate(capacity: 1024)
  var ringMask = 1023
  var ringHead = 0
  var ringCount = 0
  var ringTextBytes: Int64 = 0

  mutating func fireTimers(dueBy limit: Int64) {
    while let first = heap.first, first.due <= limit {
      remove(at: 0)
      if first.due > now { now = first.due }
      fire(first.tag)
    }
  }

  @inline(__always)
  mutating func process(_ event: UnsafePointer<Event>) {
    // `t` is at least 0 (the decoder refuses a negative one): no overflow.
    if let first = heap.first, first.due <= event.pointee.t &- 1 { fireTimers(dueBy: event.pointee.t &- 1) }
    if event.pointee.t > now { now = event.pointee.t }
    processEvent(event)
  }

  mutating func growRing() {
    let capacity = (ringMask + 1) * 2
    let larger = UnsafeMutablePointer<Event>.allocate(capacity: capacity)
    for index in 0..<ringCount { larger[index] = ring[(ringHead + index) & ringMask] }
    ring.deallocate()
    ring = larger
    ringMask = capacity - 1
    ringHead = 0
  }

  /// The slot the next event is decoded into.
  @inline(__always)
  mutating func ringTail() -> UnsafeMutablePointer<Event> {
    if ringCount == ringMask + 1 { growRing() }
    return ring + ((ringHead &+ ringCount) & ringMask)
  }

  /// The ring's arithmetic wraps: its head and count are below its capacity (and the count not
  /// 0 here), and its text bytes are the sum of its events' (as the C peer's, unchecked: with
  /// these checked the Swift peer took 579 instructions an event, with them wrapping 560).
  @inline(__always)
  mutating func processEarliest() {
    let event = ring + ringHead
    ringTextBytes &-= Int64(event.pointee.textBytes)
    ringHead = (ringHead &+ 1) & ringMask
    ringCount &-= 1
    process(event)
  }

  /// Takes in the event decoded at the tail, in its place by (t, arrival).
  @inline(__always)
  mutating func admitTail() {
    var index = ringCount
    ringCount &+= 1  // below the capacity: `ringTail()` made room
    let slot = ring + ((ringHead &+ index) & ringMask)
    ringTextBytes &+= Int64(slot.pointee.textBytes)
    let t = slot.pointee.t
    if index > 0 && ring[(ringHead &+ index &- 1) & ringMask].t > t {
      let moving = slot.pointee
      repeat {
        ring[(ringHead &+ index) & ringMask] = ring[(ringHead &+ index &- 1) & ringMask]
        index &-= 1
      } while index > 0 && ring[(ringHead &+ index &- 1) & ringMask].t > t
      ring[(ringHead &+ index) & ringMask] = moving
    }
  }

  @inline(__always)
  mutating func release(latest: Int64) {
    while ringCount > bufferLimit || ringTextBytes > bufferBytes { processEarliest() }
    let watermark = latest &- reorderWindow  // latest is at least 0: no overflow
    while ringCount > 0 && ring[ringHead].t <= watermark { processEarliest() }
    let limit = watermark &- 1
    if limit >= now, let first = heap.first, first.due <= limit { fireTimers(dueBy: limit) }
  }

  // MARK: Reading: the loop over the file's events

  mutating func run() {
    var sequence: UInt64 = 0
    var endTime: Int64? = nil
    var latest: Int64 = 0
    var hasLatest = false
    while true {
      let event = ringTail()
      guard next(into: event) else { break }
      if event.pointee.kind == Kind.end {
        endTime = event.pointee.t
        break
      }
      // Late: more than the window behind the largest t read, or behind processed time. Both
      // times are at least 0 (the decoder refuses a negative t): the difference fits.
      let t = event.pointee.t
      if (hasLatest && latest &- t > reorderWindow) || t < now { continue }
      event.pointee.sequence = sequence
      sequence &+= 1
      if !hasLatest || t > latest { latest = t }
      hasLatest = true
      admitTail()
      release(latest: latest)
    }
    // End of input: every buffered event in order; then, with an `end`, the timers due by it,
    // without one all but the stalls.
    while ringCount > 0 { processEarliest() }
    if let endTime {
      fireTimers(dueBy: endTime - 1)
      if endTime > now { now = endTime }
      cameraFinish()
      fireTimers(dueBy: endTime)
    } else {
      cameraFinish()
      for index in streams.indices { cancel(TimerTag.stall(index)) }
      fireTimers(dueBy: .max)
    }
    output.flush()
  }
}

func main() {
  let arguments = CommandLine.arguments
  if arguments.count != 2 { fail("usage: crease-peer-swift TRACE.crtrace") }
  let descriptor = open(arguments[1], O_RDONLY)
  var status = stat()
  if descriptor < 0 || fstat(descriptor, &status) != 0 { fail("cannot open the trace") }
  let size = Int(status.st_size)
  if size < 12 { fail("not a version 2 binary trace") }
  guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
    fail("cannot map the trace")
  }
  let bytes = UnsafePointer<UInt8>(mapped.assumingMemoryBound(to: UInt8.self))
  if memcmp(bytes, "CRTRACE", 8) != 0 || bytes[8] != 2 || bytes[9] != 0 {
    fail("not a version 2 binary trace")
  }
  var replay = Replay(bytes: bytes, count: size)
  replay.run()
}

main()
