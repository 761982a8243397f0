/// The name of a capture stream (`"video"` unless a trace says otherwise).
///
/// Short names fit in a `String`'s inline storage, so carrying one allocates nothing.
public struct StreamName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
  /// The name as traces spell it.
  public var rawValue: String
  /// The stream named `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The stream named by a literal, such as `"video"`.
  public init(stringLiteral value: String) { self.rawValue = value }
  /// The stream a trace means when it names none.
  // Asked for every frame: a short literal built in registers. Tuning: computed-constant.
  @inlinable public static var video: StreamName { StreamName(rawValue: "video") }
}

/// The name of a hysteresis boundary (`hinge.boundaries[].name` in a configuration), as a
/// `hinge.threshold` cue reports it.
public struct BoundaryName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
  /// The name as the configuration spells it.
  public var rawValue: String
  /// The boundary named `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The boundary named by a literal, such as `"flat"`.
  public init(stringLiteral value: String) { self.rawValue = value }
}

/// The name of a view in a direction-coordinator update (`"main"` unless a trace says otherwise).
public struct ViewName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
  /// The name as traces spell it.
  public var rawValue: String
  /// The view named `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The view named by a literal, such as `"main"`.
  public init(stringLiteral value: String) { self.rawValue = value }
  /// The view a trace means when it names none.
  public static let main: ViewName = "main"
}
