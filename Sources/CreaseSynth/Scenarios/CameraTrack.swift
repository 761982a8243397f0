import Crease

/// What the camera delivers in a user's segment: frames of one camera at a rate that may change,
/// switch gaps after which another constituent delivers, and drops with reasons.
public struct CameraTrack: Hashable, Sendable {
  /// The frame rate from a time on.
  public struct RateChange: Hashable, Sendable {
    /// Seconds from the segment's start.
    public var at: Double
    /// The new rate.
    public var fps: Int
    /// The rate `fps` from `at` seconds on.
    public init(at: Double, fps: Int) {
      self.at = at
      self.fps = fps
    }
  }

  /// A stretch with no frame and no drop callback: a virtual camera switching constituents.
  public struct Gap: Hashable, Sendable {
    /// Seconds from the segment's start.
    public var at: Double
    /// How long it lasts, in seconds.
    public var duration: Double
    /// The camera the frames after it carry; `nil` for the same one.
    public var then: Camera?
    /// A gap of `duration` seconds at `at`, after which `then` delivers.
    public init(at: Double, duration: Double, then: Camera? = nil) {
      self.at = at
      self.duration = duration
      self.then = then
    }
  }

  /// Dropped frames: how often, why, and in bursts how often.
  public struct Drops: Hashable, Sendable {
    /// One reason and its weight among the reasons.
    public struct Reason: Hashable, Sendable {
      /// The reason the callback carries; `nil` for a callback without one.
      public var reason: DropReason?
      /// Its share, relative to the other reasons' weights.
      public var weight: Double
      /// `reason` with `weight`.
      public init(_ reason: DropReason?, weight: Double) {
        self.reason = reason
        self.weight = weight
      }
    }

    /// How often a frame starts a drop.
    public var chance: Double
    /// The reasons drops carry, by weight.
    public var reasons: [Reason]
    /// How often one or two more drops with the same reason follow one.
    public var burstChance: Double

    /// Drops of `chance` a frame with `reasons`, followed by more `burstChance` of the time.
    public init(chance: Double, reasons: [Reason], burstChance: Double = 0) {
      self.chance = chance
      self.reasons = reasons
      self.burstChance = burstChance
    }

    /// A reason drawn by weight.
    func reason(_ random: inout SynthRandom) -> DropReason? {
      var roll = random.uniform(0...1) * reasons.reduce(0) { $0 + $1.weight }
      for candidate in reasons.dropLast() {
        if roll < candidate.weight { return candidate.reason }
        roll -= candidate.weight
      }
      return reasons.last?.reason
    }
  }

  /// The camera the frames carry.
  public var camera: Camera
  /// The camera the `input` event at the segment's start names; `nil` for ``camera``.
  public var input: Camera?
  /// The stream the frames belong to.
  public var stream: StreamName
  /// The frame rate at the start; `nil` for `--fps`.
  public var fps: Int?
  /// Changes of the frame rate, in time order.
  public var rates: [RateChange]
  /// Switch gaps, in time order.
  public var gaps: [Gap]
  /// Dropped frames; `nil` for none.
  public var drops: Drops?

  /// A camera track delivering frames of `camera`.
  public init(
    camera: Camera, input: Camera? = nil, stream: StreamName = .video, fps: Int? = nil,
    rates: [RateChange] = [], gaps: [Gap] = [], drops: Drops? = nil
  ) {
    self.camera = camera
    self.input = input
    self.stream = stream
    self.fps = fps
    self.rates = rates
    self.gaps = gaps
    self.drops = drops
  }

  /// What changes the delivery, at a time.
  private enum Change {
    case rate(Int)
    case gapStarts
    case gapEnds(then: Camera?)
  }

  func compose(_ b: inout TraceBuilder, from start: Int64, to end: Int64) {
    func time(_ seconds: Double) -> Int64 { start + Int64((seconds * 1e9).rounded()) }
    b.add(start, .input(stream: stream, camera: input ?? camera))
    var changes: [(t: Int64, change: Change)] = rates.map { (time($0.at), .rate($0.fps)) }
    for gap in gaps {
      changes.append((time(gap.at), .gapStarts))
      changes.append((time(gap.at + gap.duration), .gapEnds(then: gap.then)))
    }
    // Stable: a rate change and a gap at one time apply in the order listed.
    changes = changes.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(
      \.element)
    var (current, fps, gapsOpen, from) = (camera, self.fps ?? b.options.fps, 0, start)
    var fate: TraceBuilder.FateRule?
    if let drops {
      fate = { random, burst in
        if burst.left > 0 {
          burst.left -= 1
          return .dropped(burst.reason)
        }
        guard random.chance(drops.chance) else { return .delivered }
        burst.reason = drops.reason(&random)
        burst.left = random.chance(drops.burstChance) ? Int(random.integer(1...2)) : 0
        return .dropped(burst.reason)
      }
    }
    // Frames flow between the changes, unless a gap is open; a burst of drops goes on across
    // a rate change or a gap.
    var continuingBurst = false
    func deliver(until t: Int64) {
      let until = min(t, end)
      if gapsOpen == 0, until > from {
        b.frames(
          camera: current, fps: fps, from: from, to: until, stream: stream, fate: fate,
          continuingBurst: continuingBurst)
        continuingBurst = true
      }
      from = max(from, until)
    }
    for (t, change) in changes {
      deliver(until: t)
      switch change {
      case .rate(let rate): fps = rate
      case .gapStarts: gapsOpen += 1
      case .gapEnds(let then):
        gapsOpen -= 1
        current = then ?? current
      }
    }
    deliver(until: end)
  }
}
