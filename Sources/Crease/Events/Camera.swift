/// A capture device, as a trace names it.
///
/// `virtualFront` is the default front camera: it follows the app between the outer and inner
/// displays by switching between its constituents, `outerFront` and `innerFront`.
///
/// The raw value is the camera's bit in a ``CameraSet``; the binary format has codes of its own.
public enum Camera: UInt8, TraceNamed {
  case outerFront = 0
  case innerFront = 1
  case virtualFront = 2
  case backWide = 3
  case backUltraWide = 4
  case backTelephoto = 5

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
}
