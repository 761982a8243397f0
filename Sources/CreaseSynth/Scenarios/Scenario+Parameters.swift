extension Scenario {
  /// The model's parameters at their defaults: the numbers the model was tuned with.
  public var defaultParameters: ScenarioParameters {
    switch self {
    case .openClose:
      ScenarioParameters([
        .init("startAngle", .range(0...1), .degrees, "Where the hinge starts, closed."),
        .init("firstRest", .range(0.5...1), .seconds, "How long it rests before the first opening."),
        .init("openTo", .range(175...179), .degrees, "How far each opening goes."),
        .init("openOver", .range(0.6...1), .seconds, "How long an opening takes."),
        .init("openRest", .range(1...2.5), .interval, "How long it rests open."),
        .init("closeTo", .range(0...1), .degrees, "Where each closing ends."),
        .init("closeOver", .range(0.5...0.9), .seconds, "How long a closing takes."),
        .init("closedRest", .range(1...2), .interval, "How long it rests closed."),
        .init("lastCycleBefore", .fixed(3), .seconds, "No opening starts closer than this to the end."),
      ])
    case .wobble:
      ScenarioParameters([
        .init("around", .fixed(140), .degrees, "The angle the hinge rests near."),
        .init("startWithin", .fixed(2), .degrees, "How far from it the hinge starts, at most."),
        .init("driftWithin", .fixed(3.5), .degrees, "How far from it each drift goes, at most."),
        .init("driftOver", .range(0.8...2), .interval, "How long each drift takes."),
      ])
    case .tabletop:
      ScenarioParameters([
        .init("startAngle", .range(0...1), .degrees, "Where the hinge starts, closed."),
        .init("firstRest", .range(0.3...0.6), .seconds, "How long it rests before opening."),
        .init("restAngle", .range(85...95), .degrees, "The angle it is set down at."),
        .init("openOver", .range(0.7...1), .seconds, "How long the opening takes."),
        .init("restFor", .range(1...3), .interval, "How long it rests between adjustments."),
        .init("tiltChance", .fixed(0.2), .fraction, "How often an adjustment is a tilt rather than a nudge."),
        .init("tiltTo", .range(100...110), .degrees, "How far a tilt opens it."),
        .init("tiltOver", .range(0.4...0.7), .seconds, "How long a tilt, and the way back, take."),
        .init("tiltRest", .range(0.5...1.5), .seconds, "How long it stays tilted."),
        .init("nudgeWithin", .fixed(4), .degrees, "How far from the rest angle a nudge goes, at most."),
        .init("nudgeOver", .range(0.3...0.6), .seconds, "How long a nudge takes."),
      ])
    case .foldWhileRecording:
      ScenarioParameters([
        .init("startAngle", .range(0...1), .degrees, "Where the hinge starts, closed."),
        .init("openAt", .fixed(0.4), .fraction, "When the opening starts, as a share of the segment."),
        .init("openTo", .range(174...179), .degrees, "How far it opens."),
        .init("openOver", .range(0.7...1.1), .seconds, "How long the opening takes."),
        .init(
          "switchAfter", .range(0.25...0.4), .seconds, "From the opening to the move to the inner display."),
        .init("switchGap", .range(0.25...0.4), .seconds, "The switch gap: no frame and no drop callback."),
        .init("directionLateChance", .fixed(0.5), .fraction, "How often the direction update comes late."),
        .init(
          "directionLate", .range(0.02...0.08), .seconds, "How long after the first inner frame it comes."),
        .init(
          "directionEarly", .range(0.01...0.05), .seconds, "Otherwise, how long before the frames resume."),
      ])
    case .flipAround:
      ScenarioParameters([
        .init("angle", .range(176...179), .degrees, "The open hinge's angle."),
        .init("turnAt", .fixed(0.4), .fraction, "When the phone is turned, as a share of the segment."),
        .init("backAt", .fixed(0.75), .fraction, "When it is turned back."),
        .init(
          "coordinatorDelay", .range(0.1...0.3), .seconds,
          "How late the direction coordinator reports a turn."),
      ])
    case .droppedFrames:
      ScenarioParameters([
        .init("dropChance", .fixed(0.02), .fraction, "How often a frame starts a drop."),
        .init("burstChance", .fixed(0.3), .fraction, "How often one or two more drops follow it."),
      ])
    case .accessory:
      ScenarioParameters([
        .init("openTo", .range(150...170), .degrees, "How far the phone opens."),
        .init("openOver", .range(0.6...0.9), .seconds, "How long the opening takes."),
        .init("closeOver", .range(0.5...0.8), .seconds, "How long the closing takes."),
      ])
    case .day:
      ScenarioParameters([
        .init("partLength", .range(8...15), .interval, "How long each part of the day lasts.")
      ])
    }
  }
}
