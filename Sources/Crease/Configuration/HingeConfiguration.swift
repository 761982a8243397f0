/// The hinge stage's settings (configuration-file group `hinge`), with the SPEC's defaults.
public struct HingeConfiguration: Hashable, Sendable {
  /// Quiet time before a raw status commits (`statusDebounceMs`, default 50).
  public var statusDebounce: Nanoseconds = .milliseconds(50)
  /// Longest a status window stays open (`statusMaxWaitMs`, default 150; 0 means no maximum).
  public var statusMaxWait: Nanoseconds = .milliseconds(150)
  /// Hysteresis boundaries (`boundaries`, default one named `flat` at 135/145 degrees).
  public var boundaries: [Boundary] = [Boundary(name: "flat", below: 135, above: 145)]
  /// Movement from the baseline that starts motion (`motionDeadbandDeg`, default 7.5).
  public var motionDeadbandDegrees: Double = 7.5
  /// Half-width of the fully-open zone around 180 degrees (`fullyOpenZoneDeg`, default 15).
  public var fullyOpenZoneDegrees: Double = 15
  /// Rest needed before the hinge counts as settled (`settleMs`, default 300).
  public var settle: Nanoseconds = .milliseconds(300)
  /// Movement that re-arms the settle timer (`settleToleranceDeg`, default 1.0).
  public var settleToleranceDegrees: Double = 1.0
  /// The angle at which effect progress reaches 1 (`progressFullDeg`, default 165).
  public var progressFullDegrees: Double = 165
  /// Most progress cues per second (`progressMaxRateHz`, default 60).
  public var progressMaxRateHz: Double = 60

  /// The defaults of SPEC 4.
  public init() {}

  func validate() throws(ConfigurationError) {
    try Configuration.requireNonNegative(statusDebounce, key: "hinge.statusDebounceMs")
    try Configuration.requireNonNegative(statusMaxWait, key: "hinge.statusMaxWaitMs")
    try Configuration.requireNonNegative(settle, key: "hinge.settleMs")
    try Configuration.requireNonNegative(motionDeadbandDegrees, key: "hinge.motionDeadbandDeg")
    try Configuration.requireNonNegative(fullyOpenZoneDegrees, key: "hinge.fullyOpenZoneDeg")
    try Configuration.requireNonNegative(settleToleranceDegrees, key: "hinge.settleToleranceDeg")
    try Configuration.requirePositive(progressFullDegrees, key: "hinge.progressFullDeg")
    try Configuration.requirePositive(progressMaxRateHz, key: "hinge.progressMaxRateHz")
    var names: Set<String> = []
    for (index, boundary) in boundaries.enumerated() {
      let key = "hinge.boundaries[\(index)]"
      guard !boundary.name.rawValue.isEmpty else {
        throw ConfigurationError(key: "\(key).name", reason: "must not be empty")
      }
      guard names.insert(boundary.name.rawValue).inserted else {
        throw ConfigurationError(
          key: "\(key).name", reason: "'\(boundary.name.rawValue)' names an earlier boundary too")
      }
      guard boundary.below.isFinite else {
        throw ConfigurationError(key: "\(key).below", reason: "must be finite")
      }
      guard boundary.above.isFinite else {
        throw ConfigurationError(key: "\(key).above", reason: "must be finite")
      }
      guard boundary.below < boundary.above else {
        throw ConfigurationError(
          key: "\(key).below",
          reason: "must be less than above (\(boundary.below) is not less than \(boundary.above))")
      }
    }
  }
}

/// A pair of thresholds around one line, so a hinge resting near it does not flicker (SPEC 4.3).
public struct Boundary: Hashable, Sendable {
  /// The name cues report.
  public var name: BoundaryName
  /// At or below this angle, in degrees, the side becomes `below`.
  public var below: Double
  /// At or above this angle, in degrees, the side becomes `above`.
  public var above: Double

  /// A boundary named `name`, crossed downward at `below` degrees and upward at `above`.
  public init(name: BoundaryName, below: Double, above: Double) {
    self.name = name
    self.below = below
    self.above = above
  }
}

extension HingeConfiguration {
  /// The shortest time between two progress cues: 1/`progressMaxRateHz`, in whole nanoseconds
  /// (truncated).
  public var progressInterval: Nanoseconds { Nanoseconds(truncating: 1e9 / progressMaxRateHz) }
}
