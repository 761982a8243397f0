extension CameraSet {
  /// The set of the outer front camera, so a set is written as cameras are:
  /// `DirectionUpdate(toward: [.outerFront], away: [.innerFront, .backWide])`.
  public static let outerFront = CameraSet(Camera.outerFront)
  /// The set of the inner front camera.
  public static let innerFront = CameraSet(Camera.innerFront)
  /// The set of the virtual front camera.
  public static let virtualFront = CameraSet(Camera.virtualFront)
  /// The set of the back wide camera.
  public static let backWide = CameraSet(Camera.backWide)
  /// The set of the back ultra-wide camera.
  public static let backUltraWide = CameraSet(Camera.backUltraWide)
  /// The set of the back telephoto camera.
  public static let backTelephoto = CameraSet(Camera.backTelephoto)
}
