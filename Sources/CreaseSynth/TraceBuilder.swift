import Crease

/// Collects a synthetic trace's events from several models, then puts them in time order
/// (stable, so events at one time keep the order they were added in).
struct TraceBuilder {
  var header = TraceHeader()
  private var events: [Event] = []
  var random: SynthRandom
  let options: SynthOptions
  /// Where the last hinge track left the hinge, where the next one starts unless told.
  var hingeAngle = 0.0

  init(options: SynthOptions) {
    self.options = options
    random = SynthRandom(seed: options.seed)
  }

  mutating func add(_ t: Int64, _ payload: Event.Payload) { events.append(Event(t: Nanoseconds(t), payload)) }

  /// Hinge deliveries following `plan` from `start` to `end`: a delivery rate around
  /// `--hinge-hz` (or the track's) with jitter and the occasional pause, sensor noise, and the
  /// status the system would report (rarely `unknown`), as `sensor`'s settings say.
  mutating func sampleHinge(
    _ plan: HingePlan, from start: Int64, to end: Int64, sensor: HingeTrack = HingeTrack()
  ) {
    let interval = 1e9 / (sensor.rateHz ?? options.hingeHz)
    var t = start
    while t <= end {
      let angle = ((plan.angle(at: t) + random.gaussian(sensor.noise)) * 100).rounded() / 100
      let status: HingeStatus =
        random.chance(sensor.unknownChance)
        ? .unknown : angle < 2 ? .closed : angle > 172 ? .fullyOpen : .partiallyOpen
      add(t, .hinge(HingeDelivery(angle: .degrees(Swift.max(angle, 0)), status: status)))
      let pause = random.chance(0.01) ? Double(random.integer(3...6)) : 1
      t += Int64((interval * pause * random.uniform(0.8...1.2)).rounded())
    }
  }

  /// The nominal frame duration at `fps`, in whole ns.
  static func frameDuration(fps: Int) -> Int64 { 1_000_000_000 / Int64(fps) }

  /// The longest a frame (2–6 ms) or a drop callback (1 ms after that) takes to arrive after its pts.
  static let latestArrival: Int64 = 7_000_000

  /// What becomes of a frame.
  enum FrameFate {
    /// It arrives.
    case delivered
    /// A dropped-frame callback comes instead, with the reason given (`nil`: none attached).
    case dropped(DropReason?)
  }

  /// Frames of `camera` whose pts fall in [`start`, `end`), on the `fps` grid, arriving 2 to
  /// 6 ms after their pts. `fate` may turn a frame into a dropped-frame callback.
  mutating func frames(
    camera: Camera?, fps: Int, from start: Int64, to end: Int64, stream: StreamName = .video,
    fate: (inout SynthRandom) -> FrameFate = { _ in .delivered }
  ) {
    let duration = Self.frameDuration(fps: fps)
    var index = (start + duration - 1) / duration
    while index * duration < end {
      let pts = index * duration
      let arrival = pts + random.integer(2_000_000...(Self.latestArrival - 1_000_000))
      if case .dropped(let reason) = fate(&random) {
        add(
          arrival + 1_000_000,
          .drop(Drop(stream: stream, pts: PresentationTime(nanoseconds: pts), reason: reason)))
      } else {
        add(arrival, .frame(Frame(stream: stream, pts: PresentationTime(nanoseconds: pts), camera: camera)))
      }
      index += 1
    }
  }

  /// The header and the events in time order, ending with an `end` event at `end`; what would
  /// arrive after it (a frame still in flight) was never recorded.
  func build(end: Int64) -> SyntheticTrace {
    let recorded = events.enumerated().filter { $0.element.t.rawValue <= end }
    let ordered = recorded.sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }
    return SyntheticTrace(header: header, events: ordered.map(\.element) + [Event(t: Nanoseconds(end), .end)])
  }
}

/// A generated trace: a header and its events in time order.
public struct SyntheticTrace: Sendable {
  public var header: TraceHeader
  public var events: [Event]
}
