// crease-peer.swift: the C peer's program (crease-peer.c) in Swift, on the same plain records,
// to say what Swift itself costs on Crease's work once events are trivially copyable values.
//
// It does what the C peer does, rule for rule and in the same order: it reads binary trace
// version 2, orders events in a 50 ms reorder ring, fires timers kept one slot per tag, runs the
// hinge stage and the camera stage's frame gaps, drops, stalls and mirroring decision, and writes
// the same cue lines. Where Crease's engine moves an `Event` enum with strings through a ring of
// 72-byte entries and a heap of timers, this moves a 64-byte record that points into the file,
// and names are stream numbers. `make bench` builds it with `swiftc -O` (what a release build
// passes, nothing more: no unchecked flag), checks its cue lines against Crease's and prints it
// beside the C peer: the Swift peer's total is what the plain-record change of
// Docs/BinaryTarget.md could reach at best.
//
// Usage: crease-peer-swift TRACE.crtrace   (cue lines on standard output)
//
// The `// MARK:` sections name the parts of the benchmark's table, as in the C peer.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: Configuration (SPEC 4, the defaults)

let reorderWindow: Int64 = 50_000_000
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
let maxStreams = 8
let maxNames = 1024

func fail(_ message: String) -> Never {
  fputs("crease-peer-swift: \(message)\n", stderr)
  exit(1)
}

// MARK: Cues: writing the lines

/// The cue lines, gathered in a buffer written out when full.
struct Output {
  static let capacity = 1 << 16
  let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: Output.capacity)
  var used = 0
  let digitPairs = (Output.pairs as StaticString).utf8Start
  static let pairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  mutating func flush() {
    if used > 0 && fwrite(bytes, 1, used, stdout) != used { fail("cannot write") }
    used = 0
  }

  @inline(__always)
  mutating func put(_ source: UnsafeRawPointer, _ count: Int) {
    if used + count > Output.capacity { flush() }
    (bytes + used).update(from: source.assumingMemoryBound(to: UInt8.self), count: count)
    used += count
  }

  @inline(__always)
  mutating func put(_ literal: StaticString) {
    put(literal.utf8Start, literal.utf8CodeUnitCount)
  }

  /// Two digits a step, from the end, as Crease does.
  mutating func put(integer value: Int64) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
      var at = 24
      var magnitude = value.magnitude
      while magnitude >= 100 {
        let pair = Int(magnitude % 100) * 2
        at -= 2
        digits[at] = digitPairs[pair]
        digits[at + 1] = digitPairs[pair + 1]
        magnitude /= 100
      }
      if magnitude >= 10 {
        at -= 2
        digits[at] = digitPairs[Int(magnitude) * 2]
        digits[at + 1] = digitPairs[Int(magnitude) * 2 + 1]
      } else {
        at -= 1
        digits[at] = UInt8(ascii: "0") + UInt8(magnitude)
      }
      if value < 0 {
        at -= 1
        digits[at] = UInt8(ascii: "-")
      }
      put(digits.baseAddress! + at, 24 - at)
    }
  }

  /// A decimal as Crease writes one: rounded to thousandths, at least one decimal, no trailing
  /// zeros.
  mutating func put(decimal value: Double) {
    var thousandths = Int64((value * 1000).rounded())
    if thousandths < 0 {
      put("-")
      thousandths = -thousandths
    }
    put(integer: thousandths / 1000)
    let fraction = Int(thousandths % 1000)
    var text: (UInt8, UInt8, UInt8, UInt8) = (
      UInt8(ascii: "."), UInt8(truncatingIfNeeded: 48 + fraction / 100),
      UInt8(truncatingIfNeeded: 48 + fraction / 10 % 10), UInt8(truncatingIfNeeded: 48 + fraction % 10)
    )
    var length = 4
    if text.3 == UInt8(ascii: "0") {
      length = text.2 == UInt8(ascii: "0") ? 2 : 3
    }
    withUnsafeBytes(of: &text) { put($0.baseAddress!, length) }
  }

  /// `{"t":…,"since":…,"cue":"…"`: the start every cue line has.
  mutating func begin(_ kind: CueKind, now: Int64, since: Int64) {
    put("{\"t\":")
    put(integer: now)
    put(",\"since\":")
    put(integer: since)
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
  case hingeInitial, hingeStatus, regionsChanged, hingeThreshold, hingeMotion, hingeSettled, hingeProgress
  case cameraGap, cameraStall, cameraMirroring, mark

  var name: StaticString {
    switch self {
    case .hingeInitial: "hinge.initial"
    case .hingeStatus: "hinge.status"
    case .regionsChanged: "regions.changed"
    case .hingeThreshold: "hinge.threshold"
    case .hingeMotion: "hinge.motion"
    case .hingeSettled: "hinge.settled"
    case .hingeProgress: "hinge.progress"
    case .cameraGap: "camera.gap"
    case .cameraStall: "camera.stall"
    case .cameraMirroring: "camera.mirroring"
    case .mark: "mark"
    }
  }
}

// MARK: Events

enum EventKind: UInt8 {
  case hinge = 1, frame, drop, input, direction, display, app, session, mark, end
}

enum Status: UInt8 {
  case closed, partiallyOpen, fullyOpen, unknown

  var name: StaticString {
    switch self {
    case .closed: "closed"
    case .partiallyOpen: "partiallyOpen"
    case .fullyOpen: "fullyOpen"
    case .unknown: "unknown"
    }
  }
}

func cameraName(_ number: UInt8) -> StaticString {
  switch number {
  case 1: "outerFront"
  case 2: "innerFront"
  case 3: "virtualFront"
  case 4: "backWide"
  case 5: "backUltraWide"
  default: "backTelephoto"
  }
}

/// A plain record: a label points into the file's bytes, a stream is a number.
struct Event {
  var t: Int64 = 0
  var sequence: UInt64 = 0
  var kind = EventKind.end
  var status = Status.closed
  var camera: UInt8 = 0  // camera + 1, 0 for none
  var reason: UInt8 = 0
  var hasHinge: UInt8 = 0
  var stream = 0
  var angle = 0.0
  var pts: Int64 = 0
  var label = 0  // offset in the file
  var labelLength = 0
}

// MARK: Decoding binary version 2

/// The file's bytes and the names and streams read from them.
struct Decoder {
  let bytes: UnsafePointer<UInt8>
  var cursor: Int
  let end: Int
  var names: [(start: Int, length: Int)] = []
  var previousT: Int64 = 0
  var nominalFPS = [Double](repeating: 0, count: maxStreams)
  var streamNames: [(start: Int, length: Int)] = []

  init(bytes: UnsafePointer<UInt8>, count: Int) {
    self.bytes = bytes
    cursor = 12
    end = count
    names.reserveCapacity(maxNames)
    streamNames.reserveCapacity(maxStreams)
  }

  @inline(__always)
  mutating func varint() -> UInt64 {
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

  @inline(__always)
  mutating func zigzag() -> Int64 {
    let code = varint()
    return Int64(bitPattern: code >> 1) ^ -Int64(bitPattern: code & 1)
  }

  mutating func streamIndex(start: Int, length: Int) -> Int {
    for (index, name) in streamNames.enumerated()
    where name.length == length && memcmp(bytes + name.start, bytes + start, length) == 0 {
      return index
    }
    if streamNames.count == maxStreams { fail("too many streams") }
    streamNames.append((start, length))
    nominalFPS[streamNames.count - 1] = 0
    return streamNames.count - 1
  }

  mutating func nameField() -> Int {
    let number = varint()
    if number > 0 {
      if number > UInt64(names.count) { fail("a name number the table does not have") }
      let name = names[Int(number) - 1]
      return streamIndex(start: name.start, length: name.length)
    }
    let length = varint()
    if length > UInt64(end - cursor) { fail("a name past the end") }
    let start = cursor
    cursor += Int(length)
    if names.count < maxNames { names.append((start, Int(length))) }
    return streamIndex(start: start, length: Int(length))
  }

  /// A CMTime in nanoseconds, rounded toward negative infinity.
  mutating func ptsField(inNanoseconds: Bool) -> Int64 {
    let value = zigzag()
    if inNanoseconds { return value }
    let timescale = Int64(bitPattern: varint())
    if timescale <= 0 { fail("a timescale of 0 or less") }
    let scaled = value.multipliedFullWidth(by: 1_000_000_000)
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
      if present != 0 { cursor += Int(varint()) }
    }
    let streams = varint()
    for _ in 0..<streams {
      let length = Int(varint())
      let start = cursor
      cursor += length
      let fps = UnsafeRawPointer(bytes + cursor).loadUnaligned(as: Double.self)
      cursor += 8
      nominalFPS[streamIndex(start: start, length: length)] = fps
    }
  }

  /// The next event, or `nil` at the end of the file.
  @inline(__always)
  mutating func next() -> Event? {
    while cursor < end {
      let length = Int(varint())
      let recordEnd = cursor + length
      if length == 0 || recordEnd > end { fail("a record past the end of the file") }
      let tag = bytes[cursor]
      cursor += 1
      guard let kind = EventKind(rawValue: tag & 0x0F) else {
        if tag & 0x0F != 0 { fail("an unknown record kind") }
        header()
        cursor = recordEnd
        continue
      }
      previousT &+= zigzag()
      var event = Event()
      event.t = previousT
      event.kind = kind
      switch kind {
      case .hinge:
        event.hasHinge = (tag >> 4) & 3
        event.status = Status(rawValue: tag >> 6)!
        if event.hasHinge != 0 {
          event.angle = UnsafeRawPointer(bytes + cursor).loadUnaligned(as: Double.self)
          cursor += 8
          if event.hasHinge == 2 { event.angle *= 180 / Double.pi }
        }
      case .frame:
        event.camera = (tag >> 4) & 7
        event.stream = nameField()
        event.pts = ptsField(inNanoseconds: tag >> 7 != 0)
      case .drop:
        event.reason = (tag >> 4) & 3
        event.stream = nameField()
        event.pts = ptsField(inNanoseconds: tag >> 7 != 0)
      case .input:
        event.camera = (tag >> 4) & 7
        event.stream = nameField()
      case .direction:
        _ = nameField()
        cursor += 2
      case .mark:
        event.labelLength = Int(varint())
        event.label = cursor
        cursor += event.labelLength
      case .display, .app, .session, .end:  // their fields are in the kind byte
        break
      }
      if cursor != recordEnd { fail("a record with bytes left over, or cut short") }
      return event
    }
    return nil
  }
}

// MARK: Engine: timers, one slot per tag, fired in due order, ties in the order set

enum TimerTag {
  static let debounce = 0
  static let settle = 1
  static let progress = 2
  static let stall = 3
  static let count = stall + maxStreams
}

struct Timers {
  var due = [Int64](repeating: 0, count: TimerTag.count)
  var order = [UInt64](repeating: 0, count: TimerTag.count)
  var set: UInt32 = 0  // a bit per tag
  var sequence: UInt64 = 0

  @inline(__always)
  mutating func schedule(_ tag: Int, at time: Int64) {
    due[tag] = time
    order[tag] = sequence
    sequence &+= 1
    set |= 1 << UInt32(tag)
  }

  @inline(__always)
  mutating func cancel(_ tag: Int) { set &= ~(1 << UInt32(tag)) }

  /// The tag of the timer due first, or `nil`.
  @inline(__always)
  func next() -> Int? {
    var best = -1
    var remaining = set
    while remaining != 0 {
      let tag = remaining.trailingZeroBitCount
      if best < 0 || due[tag] < due[best] || (due[tag] == due[best] && order[tag] < order[best]) {
        best = tag
      }
      remaining &= remaining &- 1
    }
    return best < 0 ? nil : best
  }
}

// MARK: Stages: hinge

enum MotionState { case awaitingFirst, resting, moving }

struct HingeStage {
  var seen = false
  var committed = Status.closed
  var windowOpen = false
  var windowCommitted = Status.closed
  var windowLatest = Status.closed
  var windowSince: Int64 = 0
  var windowDeadline: Int64 = 0
  var sideKnown = false
  var sideAbove = false
  var motion = MotionState.awaitingFirst
  var baseline = 0.0
  var extreme = 0.0
  var latestAngle = 0.0
  var armAngle = 0.0
  var opening = false
  var armTime: Int64 = 0
  var progressSentThousandths = Int64.min
  var progressSentT: Int64 = 0
  var progressWaiting = false
  var progressPending = 0.0
  var progressPendingSince: Int64 = 0

  static func thousandths(_ value: Double) -> Int64 { Int64((value * 1000).rounded()) }
  static func progressValue(_ angle: Double) -> Double { Swift.min(Swift.max(angle / progressFull, 0), 1) }
  static func inZone(_ angle: Double) -> Bool { abs(180 - angle) < fullyOpenZone }
  static func zone(of angle: Double) -> StaticString {
    inZone(angle) ? "fullyOpen" : angle < deadband ? "closed" : "half"
  }

  mutating func emitProgress(_ value: Double, since: Int64, now: Int64, output: inout Output) {
    progressSentThousandths = Self.thousandths(value)
    progressSentT = now
    output.begin(.hingeProgress, now: now, since: since)
    output.put(",\"value\":")
    output.put(decimal: value)
    output.end()
  }

  mutating func settle(
    _ angle: Double, zone: StaticString, since: Int64, now: Int64, timers: inout Timers, output: inout Output
  ) {
    timers.cancel(TimerTag.settle)
    timers.cancel(TimerTag.progress)
    progressWaiting = false
    let value = Self.progressValue(angle)
    if Self.thousandths(value) != progressSentThousandths {
      emitProgress(value, since: since, now: now, output: &output)
    }
    output.begin(.hingeSettled, now: now, since: since)
    output.put(angle: angle)
    output.put(",\"zone\":\"")
    output.put(zone)
    output.put("\"")
    output.end()
    motion = .resting
    baseline = angle
  }

  mutating func receive(_ event: Event, now: Int64, timers: inout Timers, output: inout Output) {
    guard event.hasHinge != 0 else { return }  // availability is not part of the peer's work
    let angle = event.angle
    let status = event.status
    if !seen {
      seen = true
      committed = status
      output.begin(.hingeInitial, now: now, since: now)
      output.put(",\"status\":\"")
      output.put(status.name)
      output.put("\"")
      output.put(angle: angle)
      output.end()
    } else if status != .unknown && status != (windowOpen ? windowLatest : committed) {
      if !windowOpen {
        windowOpen = true
        windowCommitted = committed
        windowSince = now
        windowDeadline = now + maxWait
      }
      windowLatest = status
      timers.schedule(TimerTag.debounce, at: Swift.min(now + debounce, windowDeadline))
    }
    // The flat boundary.
    let above =
      sideKnown
      ? (angle >= flatAbove ? true : angle <= flatBelow ? false : sideAbove)
      : angle >= (flatBelow + flatAbove) / 2
    if !sideKnown || above != sideAbove {
      output.begin(.hingeThreshold, now: now, since: now)
      output.put(",\"boundary\":\"flat\",\"side\":\"")
      if above { output.put("above") } else { output.put("below") }
      output.put("\"")
      output.put(angle: angle)
      if !sideKnown { output.put(",\"initial\":true") }
      output.end()
      sideKnown = true
      sideAbove = above
    }
    // Motion and settle.
    let zone = Self.inZone(angle)
    switch motion {
    case .awaitingFirst:
      motion = .resting
      baseline = angle
      return
    case .resting:
      if zone || abs(angle - baseline) <= deadband { return }
      opening = angle > baseline
      motion = .moving
      (extreme, latestAngle, armAngle) = (angle, angle, angle)
      armTime = now
      putMotion(angle, now: now, output: &output)
      timers.schedule(TimerTag.settle, at: now + settleDelay)
    case .moving:
      if zone && opening {
        settle(angle, zone: "fullyOpen", since: now, now: now, timers: &timers, output: &output)
        return
      }
      latestAngle = angle
      extreme = opening ? Swift.max(extreme, angle) : Swift.min(extreme, angle)
      if !zone && (opening ? extreme - angle : angle - extreme) > deadband {
        opening.toggle()
        extreme = angle
        putMotion(angle, now: now, output: &output)
      }
      if abs(angle - armAngle) > settleTolerance {
        armAngle = angle
        armTime = now
        timers.schedule(TimerTag.settle, at: now + settleDelay)
      }
    }
    // Progress, while moving: at most one an interval, the latest value no later than an
    // interval on.
    let value = Self.progressValue(angle)
    if progressWaiting {
      progressPending = value
      progressPendingSince = now
    } else if Self.thousandths(value) != progressSentThousandths {
      if progressSentThousandths == .min || now - progressSentT >= progressInterval {
        emitProgress(value, since: now, now: now, output: &output)
      } else {
        progressWaiting = true
        progressPending = value
        progressPendingSince = now
        timers.schedule(TimerTag.progress, at: progressSentT + progressInterval)
      }
    }
  }

  private func putMotion(_ angle: Double, now: Int64, output: inout Output) {
    output.begin(.hingeMotion, now: now, since: now)
    if opening { output.put(",\"phase\":\"opening\"") } else { output.put(",\"phase\":\"closing\"") }
    output.put(angle: angle)
    output.end()
  }

  mutating func fire(_ tag: Int, now: Int64, timers: inout Timers, output: inout Output) {
    switch tag {
    case TimerTag.debounce:
      windowOpen = false
      let (from, to) = (windowCommitted, windowLatest)
      committed = to
      if to == from { return }
      output.begin(.hingeStatus, now: now, since: windowSince)
      output.put(",\"from\":\"")
      output.put(from.name)
      output.put("\",\"to\":\"")
      output.put(to.name)
      output.put("\"")
      output.end()
      output.begin(.regionsChanged, now: now, since: windowSince)
      if to == .partiallyOpen {
        output.put(",\"divisionActive\":true")
      } else {
        output.put(",\"divisionActive\":false")
      }
      output.end()
      if to == .closed && motion == .moving {
        settle(latestAngle, zone: "closed", since: windowSince, now: now, timers: &timers, output: &output)
      }
    case TimerTag.settle:
      if motion == .moving {
        settle(
          latestAngle, zone: Self.zone(of: latestAngle), since: armTime, now: now, timers: &timers,
          output: &output)
      }
    default:  // progress
      progressWaiting = false
      if Self.thousandths(progressPending) != progressSentThousandths {
        emitProgress(progressPending, since: progressPendingSince, now: now, output: &output)
      }
    }
  }
}

// MARK: Stages: camera frame gaps, drops, stalls, the mirroring decision

struct StreamState {
  var hasFrame = false
  var decidedCamera: UInt8 = 0
  var pendingDrops = 0
  var nominal = 0.0
  var lastPTS: Int64 = 0
  var gapThreshold: Int64 = 0
  var stallAfter: Int64 = 0
}

struct CameraStage {
  static let dropsKept = 16
  var streams = [StreamState](repeating: StreamState(), count: maxStreams)
  /// The pts of each stream's pending drops, `dropsKept` a stream.
  let dropPTS = UnsafeMutablePointer<Int64>.allocate(capacity: maxStreams * CameraStage.dropsKept)
  let dropReasons = UnsafeMutablePointer<UInt8>.allocate(capacity: maxStreams * CameraStage.dropsKept)

  mutating func prepare(_ index: Int, nominalFPS: Double) {
    guard streams[index].nominal <= 0 else { return }
    let nominal = nominalFPS > 0 ? 1e9 / nominalFPS : 1e9 / 30
    streams[index].nominal = nominal
    streams[index].gapThreshold = Int64((gapFactor * nominal).rounded())
    streams[index].stallAfter = Int64((stallFactor * nominal).rounded())
  }

  func putStream(_ index: Int, decoder: borrowing Decoder, output: inout Output) {
    output.put(",\"stream\":\"")
    let name = decoder.streamNames[index]
    output.put(decoder.bytes + name.start, name.length)
  }

  mutating func frame(
    _ event: Event, now: Int64, decoder: borrowing Decoder, timers: inout Timers, output: inout Output
  ) {
    let index = event.stream
    prepare(index, nominalFPS: decoder.nominalFPS[index])
    if event.camera != 0 && event.camera != streams[index].decidedCamera {
      streams[index].decidedCamera = event.camera
      // Without a direction update the decision goes by the device type: a front camera mirrors.
      output.begin(.cameraMirroring, now: now, since: now)
      putStream(index, decoder: decoder, output: &output)
      output.put("\",\"camera\":\"")
      output.put(cameraName(event.camera))
      if event.camera <= 3 {
        output.put("\",\"mirrored\":true,\"basis\":\"deviceType\"")
      } else {
        output.put("\",\"mirrored\":false,\"basis\":\"deviceType\"")
      }
      output.end()
    }
    let stream = streams[index]
    let drops = dropPTS + index * Self.dropsKept
    if stream.hasFrame {
      let delta = event.pts - stream.lastPTS
      if delta > stream.gapThreshold {
        let missing = Int64((Double(delta) / stream.nominal).rounded()) - 1
        var bridged = false
        for position in 0..<stream.pendingDrops
        where drops[position] > stream.lastPTS && drops[position] < event.pts {
          bridged = true
        }
        output.begin(.cameraGap, now: now, since: now)
        putStream(index, decoder: decoder, output: &output)
        output.put("\",\"from\":")
        output.put(integer: stream.lastPTS)
        output.put(",\"to\":")
        output.put(integer: event.pts)
        output.put(",\"missing\":")
        output.put(integer: Swift.max(missing, 1))
        if bridged {
          output.put(",\"cause\":\"reportedDrop\"")
        } else {
          output.put(",\"cause\":\"unexplained\"")
        }
        output.end()
      }
    }
    // A drop is forgotten once a frame at or past its pts arrives.
    let reasons = dropReasons + index * Self.dropsKept
    var kept = 0
    for position in 0..<stream.pendingDrops where drops[position] > event.pts {
      drops[kept] = drops[position]
      reasons[kept] = reasons[position]
      kept += 1
    }
    streams[index].pendingDrops = kept
    streams[index].hasFrame = true
    streams[index].lastPTS = event.pts
    timers.schedule(TimerTag.stall + index, at: now + streams[index].stallAfter)
  }

  mutating func drop(_ event: Event) {
    let index = event.stream
    let pending = streams[index].pendingDrops
    guard pending < Self.dropsKept else { return }
    dropPTS[index * Self.dropsKept + pending] = event.pts
    dropReasons[index * Self.dropsKept + pending] = event.reason
    streams[index].pendingDrops = pending + 1
  }

  func stall(_ index: Int, now: Int64, decoder: borrowing Decoder, output: inout Output) {
    output.begin(.cameraStall, now: now, since: now)
    putStream(index, decoder: decoder, output: &output)
    output.put("\"")
    output.end()
  }
}

// MARK: Engine: the reorder ring, the watermark, timers before later events

struct Peer {
  static let ringSize = 1024
  var decoder: Decoder
  var output = Output()
  var timers = Timers()
  var hinge = HingeStage()
  var camera = CameraStage()
  var now: Int64 = 0
  let ring = UnsafeMutablePointer<Event>.allocate(capacity: Peer.ringSize)
  var ringHead = 0
  var ringCount = 0
  var latest = Int64.min

  init(decoder: Decoder) { self.decoder = decoder }

  mutating func fireTimers(before limit: Int64) {
    while let tag = timers.next(), timers.due[tag] < limit {
      timers.cancel(tag)
      now = timers.due[tag]
      if tag >= TimerTag.stall {
        camera.stall(tag - TimerTag.stall, now: now, decoder: decoder, output: &output)
      } else {
        hinge.fire(tag, now: now, timers: &timers, output: &output)
      }
    }
  }

  mutating func process(_ event: Event) {
    fireTimers(before: event.t)
    if event.t > now { now = event.t }
    switch event.kind {
    case .hinge: hinge.receive(event, now: now, timers: &timers, output: &output)
    case .frame: camera.frame(event, now: now, decoder: decoder, timers: &timers, output: &output)
    case .drop: camera.drop(event)
    case .mark:
      output.begin(.mark, now: now, since: now)
      output.put(",\"label\":\"")
      // Labels needing escapes are not the bench's.
      output.put(decoder.bytes + event.label, event.labelLength)
      output.put("\"")
      output.end()
    default: break
    }
  }

  @inline(__always)
  func slot(_ offset: Int) -> UnsafeMutablePointer<Event> {
    ring + ((ringHead &+ offset) & (Peer.ringSize - 1))
  }

  @inline(__always)
  mutating func processFirst() {
    process(ring[ringHead])
    ringHead = (ringHead + 1) & (Peer.ringSize - 1)
    ringCount -= 1
  }

  mutating func admit(_ event: Event) {
    if ringCount == Peer.ringSize { processFirst() }  // full: the earliest goes now
    var index = ringCount
    ringCount += 1
    slot(index).pointee = event
    while index > 0 {
      let (current, previous) = (slot(index), slot(index - 1))
      guard
        current.pointee.t < previous.pointee.t
          || (current.pointee.t == previous.pointee.t && current.pointee.sequence < previous.pointee.sequence)
      else { break }
      swap(&current.pointee, &previous.pointee)
      index -= 1
    }
    if event.t > latest { latest = event.t }
    let watermark = latest - reorderWindow
    while ringCount > 0 && ring[ringHead].t <= watermark { processFirst() }
    fireTimers(before: watermark)
  }
}

// MARK: Reading: the file, and the loop over its events

func main() {
  let arguments = CommandLine.arguments
  if arguments.count != 2 { fail("usage: crease-peer-swift TRACE.crtrace") }
  guard let file = fopen(arguments[1], "rb") else { fail("cannot open the trace") }
  fseek(file, 0, SEEK_END)
  let size = ftell(file)
  fseek(file, 0, SEEK_SET)
  let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
  if fread(bytes, 1, size, file) != size { fail("cannot read the trace") }
  fclose(file)
  if size < 12 || memcmp(bytes, "CRTRACE", 8) != 0 || bytes[8] != 2 || bytes[9] != 0 {
    fail("not a version 2 binary trace")
  }
  var peer = Peer(decoder: Decoder(bytes: bytes, count: size))
  var sequence: UInt64 = 0
  var endTime: Int64?
  while var event = peer.decoder.next() {
    event.sequence = sequence
    sequence += 1
    if event.kind == .end {
      endTime = event.t
      break
    }
    peer.admit(event)
  }
  // End of input: the buffered events in order, then the timers (with an `end`, those due by
  // it; without, all but the stalls).
  while peer.ringCount > 0 { peer.processFirst() }
  if let endTime {
    peer.fireTimers(before: endTime + 1)
  } else {
    for index in 0..<maxStreams { peer.timers.cancel(TimerTag.stall + index) }
    peer.fireTimers(before: .max)
  }
  peer.output.flush()
  bytes.deallocate()
}

main()
