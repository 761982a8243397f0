/// A capture device, as a trace names it.
///
/// `virtualFront` is the default front camera: it follows the app between the outer and inner
/// displays by switching between its constituents, `outerFront` and `innerFront`.
public enum Camera: UInt8, CaseIterable, Hashable, Sendable {
  case outerFront
  case innerFront
  case virtualFront
  case backWide
  case backUltraWide
  case backTelephoto

  /// The name used in traces and cues.
  public var name: String {
    switch self {
    case .outerFront: "outerFront"
    case .innerFront: "innerFront"
    case .virtualFront: "virtualFront"
    case .backWide: "backWide"
    case .backUltraWide: "backUltraWide"
    case .backTelephoto: "backTelephoto"
    }
  }

  /// Whether the device type is a front camera (the fallback basis for mirroring).
  public var isFront: Bool {
    switch self {
    case .outerFront, .innerFront, .virtualFront: true
    case .backWide, .backUltraWide, .backTelephoto: false
    }
  }

  /// The camera with this trace name, or `nil`.
  public init?(name: String) {
    switch name {
    case "outerFront": self = .outerFront
    case "innerFront": self = .innerFront
    case "virtualFront": self = .virtualFront
    case "backWide": self = .backWide
    case "backUltraWide": self = .backUltraWide
    case "backTelephoto": self = .backTelephoto
    default: return nil
    }
  }
}
