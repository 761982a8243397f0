import Crease

/// Collects what the models make of a synthetic trace, as producers of events rather than the
/// events themselves, so that a run of any length is generated as it is written
/// (``SyntheticEvents``).
///
/// The models call it in an order, each call drawing from one random stream (and a camera's
/// drop bursts going on from one call to the next): a producer starts from the state the calls
/// before it left. That state is found by running the producer before it to its end without
/// keeping its events, and only when something asks for it (the next producer, a model's own
/// draw), so a model whose last call is its longest (a hinge alone, for a day) starts writing
/// at once. Memory is the producers', a few hundred bytes each, whatever the run's length.
struct TraceBuilder {
  var header = TraceHeader()
  let options: SynthOptions
  /// Where the last hinge track left the hinge, where the next one starts unless told.
  var hingeAngle = 0.0
  /// The state the calls so far leave, but for ``pending``'s draws.
  private var settled: SynthState
  /// The last producer that draws, not yet run: ``settled`` is the state it starts from.
  private var pending: EventProducer?
  /// The producers made, in the order the models made them.
  private(set) var producers: [EventProducer] = []

  init(options: SynthOptions) {
    self.options = options
    settled = SynthState(random: SynthRandom(seed: options.seed))
  }

  /// The random stream as the calls so far leave it, for a model's own draws.
  var random: SynthRandom {
    mutating get {
      settle()
      return settled.random
    }
    _modify {
      settle()
      yield &settled.random
    }
  }

  /// Runs the pending producer to its end, so that ``settled`` is the state after it.
  private mutating func settle() {
    guard var producer = pending else { return }
    while producer.next() != nil {}
    settled = producer.state
    pending = nil
  }

  /// Makes `producer` the next, starting from the state the calls so far leave.
  private mutating func make(_ producer: EventProducer, draws: Bool) {
    producers.append(producer)
    if draws { pending = producer }
  }

  mutating func add(_ t: Int64, _ payload: Event.Payload) {
    make(EventProducer(.single(Event(t: Nanoseconds(t), payload)), state: settled), draws: false)
  }

  /// Hinge deliveries following `plan` from `start` to `end`: a delivery rate around
  /// `--hinge-hz` (or the track's) with jitter and the occasional pause, sensor noise, and the
  /// status the system would report (rarely `unknown`), as `sensor`'s settings say.
  mutating func sampleHinge(
    _ plan: HingePlan, from start: Int64, to end: Int64, sensor: HingeTrack = HingeTrack()
  ) {
    settle()
    let sampler = HingeSampler(
      plan: plan, t: start, end: end, interval: 1e9 / (sensor.rateHz ?? options.hingeHz),
      noise: sensor.noise, unknownChance: sensor.unknownChance)
    make(EventProducer(.hinge(sampler), state: settled), draws: true)
  }

  /// The nominal frame duration at `fps`, in whole ns.
  static func frameDuration(fps: Int) -> Int64 { 1_000_000_000 / Int64(fps) }

  /// The longest a frame (2–6 ms) or a drop callback (1 ms after that) takes to arrive after its pts.
  static let latestArrival: Int64 = 7_000_000
  /// The soonest a frame arrives after its pts.
  static let earliestArrival: Int64 = 2_000_000

  /// What becomes of a frame.
  enum FrameFate {
    /// It arrives.
    case delivered
    /// A dropped-frame callback comes instead, with the reason given (`nil`: none attached).
    case dropped(DropReason?)
  }

  /// Decides each frame's fate from the random stream and the burst of drops under way.
  typealias FateRule = @Sendable (inout SynthRandom, inout DropBurst) -> FrameFate

  /// Frames of `camera` whose pts fall in [`start`, `end`), on the `fps` grid, arriving 2 to
  /// 6 ms after their pts. `fate` may turn a frame into a dropped-frame callback; a burst of
  /// drops goes on from the previous call's when `continuingBurst`, else starts with none.
  mutating func frames(
    camera: Camera?, fps: Int, from start: Int64, to end: Int64, stream: StreamName = .video,
    fate: FateRule? = nil, continuingBurst: Bool = false
  ) {
    settle()
    var state = settled
    if !continuingBurst { state.burst = DropBurst() }
    let duration = Self.frameDuration(fps: fps)
    let sampler = FrameSampler(
      camera: camera, stream: stream, duration: duration, index: (start + duration - 1) / duration, end: end,
      fate: fate)
    settled = state
    make(EventProducer(.frames(sampler), state: state), draws: true)
  }

  /// The events in time order, ending with an `end` event at `end`; what would arrive after
  /// it (a frame still in flight) was never recorded.
  func events(end: Int64) -> SyntheticEvents { SyntheticEvents(producers: producers, end: end) }
}

/// The state the models' calls pass on, one to the next.
struct SynthState: Sendable {
  var random: SynthRandom
  /// The drops still to come of a burst, and their reason.
  var burst = DropBurst()
}

/// A burst of dropped frames under way: how many more, and why.
struct DropBurst: Sendable {
  var left = 0
  var reason: DropReason?
}

/// Events of one model call, made one at a time in time order (ties in the order made), from
/// the state the calls before it left.
struct EventProducer: Sendable {
  enum Source: Sendable {
    case single(Event)
    case hinge(HingeSampler)
    case frames(FrameSampler)
  }

  private var source: Source?
  /// The state its draws have reached; once it has ended, the state it leaves.
  private(set) var state: SynthState

  init(_ source: Source, state: SynthState) {
    self.source = source
    self.state = state
  }

  mutating func next() -> Event? {
    switch source {
    case .single(let event):
      source = nil
      return event
    case .hinge(var sampler):
      source = nil
      guard let event = sampler.next(&state) else { return nil }
      source = .hinge(sampler)
      return event
    case .frames(var sampler):
      source = nil
      guard let event = sampler.next(&state) else { return nil }
      source = .frames(sampler)
      return event
    case nil:
      return nil
    }
  }
}

/// Hinge deliveries from `t` to `end`, as ``TraceBuilder/sampleHinge(_:from:to:sensor:)`` says.
struct HingeSampler: Sendable {
  let plan: HingePlan
  var t: Int64
  let end: Int64
  let interval: Double
  let noise: Double
  let unknownChance: Double

  mutating func next(_ state: inout SynthState) -> Event? {
    guard t <= end else { return nil }
    let angle = ((plan.angle(at: t) + state.random.gaussian(noise)) * 100).rounded() / 100
    let status: HingeStatus =
      state.random.chance(unknownChance)
      ? .unknown : angle < 2 ? .closed : angle > 172 ? .fullyOpen : .partiallyOpen
    let event = Event(
      t: Nanoseconds(t), .hinge(HingeDelivery(angle: .degrees(Swift.max(angle, 0)), status: status)))
    let pause = state.random.chance(0.01) ? Double(state.random.integer(3...6)) : 1
    t += Int64((interval * pause * state.random.uniform(0.8...1.2)).rounded())
    return event
  }
}

/// Frames on a grid from `index` until a pts reaches `end`, as
/// ``TraceBuilder/frames(camera:fps:from:to:stream:fate:continuingBurst:)`` says, in the order
/// they arrive.
///
/// A frame arrives 2 to 6 ms after its pts and a drop callback a millisecond later, so a later
/// frame can arrive first: the few made and not yet due wait in `arrived`, sorted, and one is
/// due once no frame still to make can arrive before it (at the next pts plus 2 ms).
struct FrameSampler: Sendable {
  let camera: Camera?
  let stream: StreamName
  let duration: Int64
  var index: Int64
  let end: Int64
  let fate: TraceBuilder.FateRule?
  /// Made and not yet given, in arrival order (the order made on a tie).
  private var arrived: [Event] = []

  init(
    camera: Camera?, stream: StreamName, duration: Int64, index: Int64, end: Int64,
    fate: TraceBuilder.FateRule?
  ) {
    self.camera = camera
    self.stream = stream
    self.duration = duration
    self.index = index
    self.end = end
    self.fate = fate
  }

  mutating func next(_ state: inout SynthState) -> Event? {
    while index * duration < end {
      if let first = arrived.first, first.t.rawValue <= index * duration + TraceBuilder.earliestArrival {
        return arrived.removeFirst()
      }
      let pts = index * duration
      let arrival =
        pts + state.random.integer(TraceBuilder.earliestArrival...(TraceBuilder.latestArrival - 1_000_000))
      let event =
        if case .dropped(let reason) = fate?(&state.random, &state.burst) {
          Event(
            t: Nanoseconds(arrival + 1_000_000),
            .drop(Drop(stream: stream, pts: PresentationTime(nanoseconds: pts), reason: reason)))
        } else {
          Event(
            t: Nanoseconds(arrival),
            .frame(Frame(stream: stream, pts: PresentationTime(nanoseconds: pts), camera: camera)))
        }
      // After every event arrived at or before it: events at one `t` keep the order made.
      let place = arrived.lastIndex { $0.t <= event.t }.map { $0 + 1 } ?? 0
      arrived.insert(event, at: place)
      index += 1
    }
    return arrived.isEmpty ? nil : arrived.removeFirst()
  }
}

/// A synthetic trace's events, made as they are taken: the producers' events merged in time
/// order (a tie goes to the producer made first, as a stable sort of all events would order
/// them), those after `end` left out, and an `end` event at `end`.
public struct SyntheticEvents: Sequence, Sendable {
  let producers: [EventProducer]
  let end: Int64

  public func makeIterator() -> Iterator { Iterator(producers: producers, end: end) }

  /// Takes the earliest of the producers' next events.
  public struct Iterator: IteratorProtocol {
    private var producers: [EventProducer]
    /// Each producer's next event, taken from it and not yet given out.
    private var upcoming: [Event?]
    /// The producers with an event left, ordered by that event's `t` and then their place.
    private var merge = RunMerge()
    private let end: Int64
    private var ended = false

    init(producers: [EventProducer], end: Int64) {
      self.producers = producers
      self.end = end
      upcoming = []
      for index in producers.indices {
        upcoming.append(self.producers[index].next())
        if let event = upcoming[index] { merge.insert(run: index, time: event.t) }
      }
    }

    public mutating func next() -> Event? {
      guard let (t, producer) = merge.first, t.rawValue <= end else {
        if ended { return nil }
        ended = true
        merge.removeAll()
        return Event(t: Nanoseconds(end), .end)
      }
      let event = upcoming[producer].take()!
      upcoming[producer] = producers[producer].next()
      if let following = upcoming[producer] {
        merge.advanceFirst(to: following.t)
      } else {
        merge.removeFirst()
      }
      return event
    }
  }
}

/// A generated trace: a header and its events in time order.
public struct SyntheticTrace: Sendable {
  public var header: TraceHeader
  public var events: [Event]
}
