/// Everything that tunes Crease, with the SPEC's defaults.
///
/// A configuration file groups the keys as `hinge`, `camera` and a top-level `reorderWindowMs`;
/// ``validate()`` names the offending key of a bad value the way the file spells it.
public struct Configuration: Hashable, Sendable {
  /// How far an event may trail a later event of its source and still be processed in order
  /// (`reorderWindowMs`, default 50).
  public var reorderWindow: Nanoseconds
  /// The most events the reorder buffer holds (`reorderBufferLimit`, default 100,000, about
  /// 25 MB); past it the earliest is processed at once and counted as released early. Normal
  /// traces hold a window's worth (tens of events); the limit bounds memory on hostile ones,
  /// such as a million events at one `t`.
  public var reorderBufferLimit: Int
  /// The most bytes of text (labels, stream and view names) the events in the reorder buffer
  /// may carry (`reorderBufferBytes`, default 64 MiB); past it the earliest is processed at once
  /// and counted as released early, as at ``reorderBufferLimit``. It bounds memory on traces
  /// whose events are few but large, such as marks with labels of a megabyte.
  public var reorderBufferBytes: Int
  /// The hinge stage's settings.
  public var hinge: HingeConfiguration
  /// The camera stage's settings.
  public var camera: CameraConfiguration

  /// A configuration with the given values; every one has SPEC 6's default. Call ``validate()`` before use.
  public init(
    reorderWindow: Nanoseconds = .milliseconds(50),
    reorderBufferLimit: Int = 100_000,
    reorderBufferBytes: Int = 64 << 20,
    hinge: HingeConfiguration = HingeConfiguration(),
    camera: CameraConfiguration = CameraConfiguration()
  ) {
    self.reorderWindow = reorderWindow
    self.reorderBufferLimit = reorderBufferLimit
    self.reorderBufferBytes = reorderBufferBytes
    self.hinge = hinge
    self.camera = camera
  }

  /// The SPEC's defaults.
  public static let `default` = Configuration()

  /// Checks every value, naming the first bad one by its configuration-file key.
  public func validate() throws(ConfigurationError) {
    try Self.requireNonNegative(reorderWindow, key: "reorderWindowMs")
    guard reorderBufferLimit >= 1 else {
      throw ConfigurationError(key: "reorderBufferLimit", reason: "must be a whole number, 1 or more")
    }
    guard reorderBufferBytes >= 1 else {
      throw ConfigurationError(key: "reorderBufferBytes", reason: "must be a whole number, 1 or more")
    }
    try hinge.validate()
    try camera.validate()
  }

  static func requireNonNegative(_ duration: Nanoseconds, key: String) throws(ConfigurationError) {
    guard duration >= .zero else { throw ConfigurationError(key: key, reason: "must not be negative") }
  }

  static func requirePositive(_ value: Double, key: String) throws(ConfigurationError) {
    guard value.isFinite, value > 0 else {
      throw ConfigurationError(key: key, reason: "must be a finite number greater than 0")
    }
  }

  static func requireNonNegative(_ value: Double, key: String) throws(ConfigurationError) {
    guard value.isFinite, value >= 0 else {
      throw ConfigurationError(key: key, reason: "must be a finite number, 0 or more")
    }
  }
}

/// A configuration value that cannot be used, named by its configuration-file key.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The key as a file spells it, such as `hinge.boundaries[0].below`.
  public var key: String
  /// Why the value was refused.
  public var reason: String

  /// An error about `key`, spelled as a file spells it.
  public init(key: String, reason: String) {
    self.key = key
    self.reason = reason
  }

  /// `KEY: REASON`, as the command prints it.
  public var description: String { "\(key): \(reason)" }
}
