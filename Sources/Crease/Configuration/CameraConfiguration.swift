/// The camera stage's settings (configuration-file group `camera`), with the SPEC's defaults.
public struct CameraConfiguration: Hashable, Sendable {
  /// A pts delta above this many nominal frame durations is a gap (`gapFactor`, default 1.5).
  public var gapFactor: Double = 1.5
  /// How far before a gap a switch trigger still explains it (`switchWindowMs`, default 250).
  public var switchWindow: Nanoseconds = .milliseconds(250)
  /// Silence, in nominal frame durations, that counts as a stall (`stallFactor`, default 3).
  public var stallFactor: Double = 3
  /// Longest the preview stays masked around a switch (`maskMaxMs`, default 500).
  public var maskMax: Nanoseconds = .milliseconds(500)

  /// The defaults of SPEC 4.6 and 4.7.
  public init() {}

  func validate() throws(ConfigurationError) {
    guard gapFactor.isFinite, gapFactor > 1 else {
      throw ConfigurationError(key: "camera.gapFactor", reason: "must be a finite number greater than 1")
    }
    try Configuration.requireNonNegative(switchWindow, key: "camera.switchWindowMs")
    try Configuration.requirePositive(stallFactor, key: "camera.stallFactor")
    try Configuration.requireNonNegative(maskMax, key: "camera.maskMaxMs")
  }
}
