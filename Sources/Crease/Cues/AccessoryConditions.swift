/// Conditions for the camera capture accessory (SPEC 4.9), as a set in one byte so an
/// eligibility cue allocates nothing.
public struct AccessoryConditions: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let foreground = AccessoryConditions(rawValue: 1 << 0)
  public static let session = AccessoryConditions(rawValue: 1 << 1)
  public static let preview = AccessoryConditions(rawValue: 1 << 2)
  public static let open = AccessoryConditions(rawValue: 1 << 3)
  public static let innerFullScreen = AccessoryConditions(rawValue: 1 << 4)

  private static let named: [(AccessoryConditions, String)] = [
    (.foreground, "foreground"), (.session, "session"), (.preview, "preview"), (.open, "open"),
    (.innerFullScreen, "innerFullScreen"),
  ]

  /// The conditions' names, in the order cues list them.
  public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }
}
