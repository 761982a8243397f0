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

  /// Every set of the five conditions' names, by its bits: a cue lists a shared array, made
  /// once, rather than one it allocates (one an eligibility cue, found on a working day).
  private static let namesByBits: [[String]] = (0..<(1 << named.count)).map { bits in
    named.filter { AccessoryConditions(rawValue: UInt8(bits)).contains($0.0) }.map(\.1)
  }

  /// The conditions' names, in the order cues list them.
  /// - Complexity: O(1); nothing is allocated.
  public var names: [String] { Self.namesByBits[Int(rawValue) & ((1 << Self.named.count) - 1)] }
}
