/// The latest direction-coordinator update per view, and the one that decides facing: view
/// `main`, or the only view seen (SPEC 4.7).
struct DirectionMaps: Sendable {
  private var updates: [DirectionUpdate] = []

  /// Replaces the view's previous update.
  mutating func apply(_ update: DirectionUpdate) {
    if let index = updates.firstIndex(where: { $0.view == update.view }) {
      updates[index] = update
    } else {
      updates.append(update)
    }
  }

  /// The map that decides facing, if any.
  var current: DirectionUpdate? {
    updates.first { $0.view == .main } ?? (updates.count == 1 ? updates[0] : nil)
  }

  /// Whether `camera` faces the person, faces away, or is in neither list (`nil`).
  func facing(of camera: Camera) -> CameraFacing? {
    guard let map = current else { return nil }
    if map.toward.contains(camera) { return .user }
    if map.away.contains(camera) { return .away }
    return nil
  }

  /// The front constituent facing the person, if the map names one.
  var frontCameraFacingUser: Camera? {
    guard let toward = current?.toward else { return nil }
    if toward.contains(.outerFront) { return .outerFront }
    return toward.contains(.innerFront) ? .innerFront : nil
  }
}
