/// The direction-coordinator update that decides facing (SPEC 4.7): the latest for view `main`,
/// or, when no update names `main`, the latest for the only view seen.
///
/// It keeps two updates and a flag, not one per view, so a trace that names a hundred thousand
/// views costs constant memory and time.
struct DirectionMaps: Sendable {
  private var main: DirectionUpdate?
  /// The latest update of the first other view seen.
  private var other: DirectionUpdate?
  /// Whether updates named more than one view besides `main`.
  private var severalOtherViews = false

  /// Replaces the view's previous update.
  /// - Complexity: O(1).
  mutating func apply(_ update: DirectionUpdate) {
    if update.view == .main {
      main = update
    } else if other == nil || other?.view == update.view {
      other = update
    } else {
      severalOtherViews = true
    }
  }

  /// The map that decides facing, if any.
  var current: DirectionUpdate? { main ?? (severalOtherViews ? nil : other) }

  /// Whether `camera` faces the person, faces away, or is in neither list (`nil`).
  func facing(of camera: Camera) -> CameraFacing? {
    guard let map = current else { return nil }
    if map.toward.contains(camera) { return .user }
    if map.away.contains(camera) { return .away }
    return nil
  }

  /// The front constituent facing the person, if the map names one; the first listed if it
  /// names both (SPEC 4.7).
  var frontCameraFacingUser: Camera? { current?.firstFrontCameraToward }
}
