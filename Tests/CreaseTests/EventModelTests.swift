import Crease
import CreaseSynth
import CreaseTesting
import Testing

@Suite("Event model")
struct EventModelTests {
  @Test(
    "CMTime converts to nanoseconds exactly, rounding toward negative infinity",
    arguments: [
      (1, 600, 1_666_666),
      (1001, 30000, 33_366_666),
      (3003, 90000, 33_366_666),
      (90000, 90000, 1_000_000_000),
      (-1, 600, -1_666_667),
      (123_456_789, 1_000_000_000, 123_456_789),
      (Int64.max / 1_000_000_000, 1, Int64.max / 1_000_000_000 * 1_000_000_000),
    ] as [(Int64, Int32, Int64)])
  func cmTimeConversion(value: Int64, timescale: Int32, nanoseconds: Int64) {
    #expect(PresentationTime(value: value, timescale: timescale)?.nanoseconds == Nanoseconds(nanoseconds))
  }

  @Test("a CMTime out of the 64-bit nanosecond range or with a bad timescale is refused")
  func cmTimeOutOfRange() {
    #expect(PresentationTime(value: .max, timescale: 1) == nil)
    #expect(PresentationTime(value: .max, timescale: 600) == nil)
    #expect(PresentationTime(value: 1, timescale: 0) == nil)
    #expect(PresentationTime(value: 1, timescale: -600) == nil)
  }

  @Test("a long run of 600-timescale frames does not drift")
  func noDrift() {
    // 20 ticks of 1/600 s is 1/30 s; after 1,000,000 frames the time is exactly 33,333.333... s.
    let pts = PresentationTime(value: 20 * 1_000_000, timescale: 600)
    #expect(pts?.nanoseconds == Nanoseconds(33_333_333_333_333))
  }

  @Test("angles keep their unit and convert to degrees")
  func angles() {
    #expect(HingeAngle.degrees(90).degrees == 90)
    #expect(abs(HingeAngle.radians(.pi / 2).degrees - 90) < 1e-12)
    #expect(HingeAngle.radians(1).unit == .radians)
  }

  @Test("camera sets hold cameras in one byte")
  func cameraSets() {
    let set = CameraSet([.innerFront, .backWide, .innerFront])
    #expect(set.cameras == [.innerFront, .backWide])
    #expect(set.contains(.backWide))
    #expect(!set.contains(.outerFront))
    #expect(MemoryLayout<CameraSet>.size == 1)
    // Written as an app writes a direction update: cameras in an array literal.
    let update = DirectionUpdate(toward: [.outerFront], away: [.innerFront, .backWide])
    #expect(update.toward.cameras == [.outerFront] && update.away.cameras == [.innerFront, .backWide])
    let every: CameraSet = [
      .outerFront, .innerFront, .virtualFront, .backWide, .backUltraWide, .backTelephoto,
    ]
    #expect(every.cameras == Camera.allCases)
  }

  @Test("every enum round-trips through its trace name")
  func names() {
    for camera in Camera.allCases { #expect(Camera(name: camera.name) == camera) }
    for status in HingeStatus.allCases { #expect(HingeStatus(name: status.name) == status) }
    for reason in DropReason.allCases { #expect(DropReason(name: reason.name) == reason) }
    for display in Display.allCases { #expect(Display(name: display.name) == display) }
    for state in AppState.allCases { #expect(AppState(name: state.name) == state) }
    #expect(Camera(name: "front") == nil)
  }

  @Test("nanosecond arithmetic saturates instead of trapping")
  func saturation() {
    #expect(Nanoseconds.max + Nanoseconds(1) == .max)
    #expect(Nanoseconds.min - Nanoseconds(1) == .min)
    #expect(Nanoseconds.milliseconds(.max) == .max)
    #expect(Nanoseconds.milliseconds(50) == Nanoseconds(50_000_000))
  }
}

@Suite("Pipeline")
struct PipelineTests {
  @Test("a mark passes through as a cue at its own time; camera events emit nothing yet")
  func marks() throws {
    var engine = Engine(processor: Pipeline(configuration: .default), sourceCount: 1, reorderWindow: 0)
    try engine.push(Event(t: 5, .frame(Frame(pts: PresentationTime(nanoseconds: 5)))), from: 0)
    try engine.push(Event(t: 7, .mark(label: "open")), from: 0)
    engine.finish(source: 0)
    var cues: [Cue] = []
    engine.drainCues { cue, _ in cues.append(cue) }
    #expect(cues == [Cue(t: 7, since: 7, .mark(label: "open"))])
  }

  @Test("configuration validation names the offending key")
  func validation() {
    var configuration = Configuration.default
    #expect(throws: Never.self) { try configuration.validate() }
    configuration.hinge.boundaries = [Boundary(name: "flat", below: 150, above: 140)]
    #expect(throws: ConfigurationError.self) { try configuration.validate() }
    do {
      try configuration.validate()
    } catch {
      #expect(error.key == "hinge.boundaries[0].below")
    }
    configuration = .default
    configuration.hinge.progressMaxRateHz = .nan
    #expect(
      throws: ConfigurationError(
        key: "hinge.progressMaxRateHz", reason: "must be a finite number greater than 0")
    ) {
      try configuration.validate()
    }
    configuration = .default
    configuration.reorderWindow = Nanoseconds(-1)
    #expect(throws: ConfigurationError(key: "reorderWindowMs", reason: "must not be negative")) {
      try configuration.validate()
    }
  }
}

@Suite("CMTime to nanoseconds")
struct PresentationTimeConversionTests {
  /// The exact floor of value × 10⁹ / timescale, or `nil` when it does not fit: the reference,
  /// in 128 bits.
  static func reference(_ value: Int64, _ timescale: Int32) -> Int64? {
    let scaled = Int128(value) * 1_000_000_000
    var quotient = scaled / Int128(timescale)
    if scaled % Int128(timescale) != 0 && scaled < 0 { quotient -= 1 }
    return Int64(exactly: quotient)
  }

  @Test("matches 128-bit floor division for random and extreme values and timescales")
  func matchesReference() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    let values: [Int64] = [.min, .max, 0, -1, 1, .min + 1, .max - 1, 9_223_372_036, -9_223_372_037]
    let timescales: [Int32] = [1, 2, 3, 600, 1000, 30000, 44100, 90000, 999_999_999, .max]
    var pairs = values.flatMap { value in timescales.map { (value, $0) } }
    for _ in 0..<20_000 {
      let value = Int64(bitPattern: random.next()) >> Int64(random.next() % 64)
      pairs.append((value, Int32(truncatingIfNeeded: random.next() % UInt64(Int32.max)) + 1))
    }
    for (value, timescale) in pairs {
      let converted = PresentationTime(value: value, timescale: timescale)?.nanoseconds.rawValue
      #expect(
        converted == Self.reference(value, timescale), "value \(value), timescale \(timescale), seed \(seed)")
    }
  }
}

@Suite("Trace time at the edge: Duration and clock instants")
struct NanosecondsBridgeTests {
  @Test("Duration both ways, exact within the range and saturating outside it")
  func duration() {
    for value: Int64 in [0, 1, -1, 1_234_567_891, .max, .min] {
      #expect(Nanoseconds(Nanoseconds(value).duration) == Nanoseconds(value))
    }
    #expect(Nanoseconds(.seconds(Int64.max)) == .max)
    #expect(Nanoseconds(.seconds(Int64.min)) == .min)
  }

  @Test("an instant on a clock becomes trace time since an origin, and back")
  func instants() {
    let origin = CreaseTestClock.Instant(offset: .seconds(3))
    let later = origin.advanced(by: .milliseconds(150) + .nanoseconds(7))
    let t = Nanoseconds(at: later, since: origin)
    #expect(t == .milliseconds(150) + Nanoseconds(7))
    #expect(t.instant(since: origin) == later)
    #expect(Nanoseconds(at: origin, since: later) == Nanoseconds(-150_000_007))
  }
}
