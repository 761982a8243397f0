/// A capture device, as a trace names it.
///
/// `virtualFront` is the default front camera: it follows the app between the outer and inner
/// displays by switching between its constituents, `outerFront` and `innerFront`.
///
/// The raw value is the camera's bit in a ``CameraSet``; the binary format has codes of its own.
public enum Camera: UInt8, TraceNamed {
  /// The front camera of the outer display.
  case outerFront = 0
  /// The front camera of the inner, folding display.
  case innerFront = 1
  /// The virtual front camera, which switches between the two front cameras as the device folds.
  case virtualFront = 2
  /// The back wide camera.
  case backWide = 3
  /// The back ultra-wide camera.
  case backUltraWide = 4
  /// The back telephoto camera.
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
