/// A set of cameras stored in one byte, so a direction update costs no allocation.
public struct CameraSet: OptionSet, Hashable, Sendable {
  /// One bit per camera, at the camera's raw value.
  public var rawValue: UInt8

  /// The cameras whose bits are set in `rawValue`.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// The set holding one camera.
  public init(_ camera: Camera) { self.rawValue = 1 << camera.rawValue }

  /// The set holding these cameras.
  public init(_ cameras: some Sequence<Camera>) {
    self.rawValue = 0
    for camera in cameras { insert(CameraSet(camera)) }
  }

  /// Whether the set holds `camera`.
  /// - Complexity: O(1).
  public func contains(_ camera: Camera) -> Bool { contains(CameraSet(camera)) }

  /// The cameras in the set, in declaration order.
  public var cameras: [Camera] { Camera.allCases.filter { contains($0) } }

  /// Calls `body` with each camera in the set, in declaration order, without making an array.
  public func forEachCamera(_ body: (Camera) throws -> Void) rethrows {
    var bit: UInt8 = 0
    while bit < 8 {
      if let camera = Camera(rawValue: bit), contains(camera) { try body(camera) }
      bit += 1
    }
  }
}
