/// How the hinge moves in a user's segment: where it starts, moves once through, moves over and
/// over until the segment ends, and how the sensor reports it.
public struct HingeTrack: Hashable, Sendable {
  /// One movement of a hand on the hinge; every movement is eased.
  public enum Move: Hashable, Sendable {
    /// Holds the hinge still for the seconds given.
    case rest(ScenarioValue)
    /// Opens it to an angle, over the seconds given.
    case open(to: ScenarioValue, over: ScenarioValue)
    /// Closes it to an angle, over the seconds given.
    case close(to: ScenarioValue, over: ScenarioValue)
    /// Drifts it to within `within` degrees of `around`, over the seconds given.
    case wobble(around: Double, within: Double, over: ScenarioValue)

    /// The least time the move takes, in seconds.
    public var shortest: Double {
      switch self {
      case .rest(let seconds), .open(_, let seconds), .close(_, let seconds), .wobble(_, _, let seconds):
        seconds.bounds.lowerBound
      }
    }

    func apply(to plan: inout HingePlan, _ random: inout SynthRandom) {
      switch self {
      case .rest(let seconds): plan.hold(seconds.drawSeconds(&random))
      case .open(let angle, let seconds), .close(let angle, let seconds):
        plan.move(to: angle.draw(&random), over: seconds.drawSeconds(&random))
      case .wobble(let around, let within, let seconds):
        plan.move(to: around + random.uniform(-within...within), over: seconds.drawSeconds(&random))
      }
    }
  }

  /// The starting angle; `nil` where the previous segment's hinge ended (0 at first).
  public var from: ScenarioValue?
  /// Moves made once, in order.
  public var moves: [Move]
  /// Moves made over and over after those, until the segment ends.
  public var repeating: [Move]
  /// The sensor noise's deviation, in degrees.
  public var noise: Double
  /// How often a delivery reports the status `unknown`.
  public var unknownChance: Double
  /// The mean delivery rate; `nil` for `--hinge-hz`.
  public var rateHz: Double?

  /// A hinge track; the sensor as the built-in models have it unless told.
  public init(
    from: ScenarioValue? = nil, moves: [Move] = [], repeating: [Move] = [], noise: Double = 0.25,
    unknownChance: Double = 0.004, rateHz: Double? = nil
  ) {
    self.from = from
    self.moves = moves
    self.repeating = repeating
    self.noise = noise
    self.unknownChance = unknownChance
    self.rateHz = rateHz
  }

  func compose(_ b: inout TraceBuilder, from start: Int64, to end: Int64) {
    var plan = HingePlan(start: start, angle: from?.draw(&b.random) ?? b.hingeAngle)
    for move in moves { move.apply(to: &plan, &b.random) }
    while !repeating.isEmpty, plan.time < end {
      let before = plan.time
      for move in repeating { move.apply(to: &plan, &b.random) }
      // A cycle that took no time would never reach the end (a file's check refuses it too).
      if plan.time == before { break }
    }
    b.sampleHinge(plan, from: start, to: end, sensor: self)
    b.hingeAngle = plan.angle
  }
}
