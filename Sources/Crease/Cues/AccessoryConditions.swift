/// Conditions for the camera capture accessory (SPEC 4.9), as a set in one byte so an
/// eligibility cue allocates nothing.
public struct AccessoryConditions: OptionSet, Hashable, Sendable {
  /// One bit per condition.
  public let rawValue: UInt8
  /// The conditions whose bits are set in `rawValue`.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// The app is in the foreground.
  public static let foreground = AccessoryConditions(rawValue: 1 << 0)
  /// The capture session is running.
  public static let session = AccessoryConditions(rawValue: 1 << 1)
  /// The camera preview is visible.
  public static let preview = AccessoryConditions(rawValue: 1 << 2)
  /// The hinge is open (its committed status is not `closed`).
  public static let open = AccessoryConditions(rawValue: 1 << 3)
  /// The app's view fills the inner display.
  public static let innerFullScreen = AccessoryConditions(rawValue: 1 << 4)

  private static let named: [(AccessoryConditions, String)] = [
    (.foreground, "foreground"), (.session, "session"), (.preview, "preview"), (.open, "open"),
    (.innerFullScreen, "innerFullScreen"),
  ]

  /// The conditions' names, in the order cues list them.
  public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }
}
