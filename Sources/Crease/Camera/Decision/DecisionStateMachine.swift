/// The direction and mirroring decision of one stream (SPEC 4.7): its active camera, which way
/// that camera faces, whether to mirror, and how many frames came under the decision.
struct DecisionStateMachine: Sendable {
  /// The cues a change of decision calls for, in this order, as plain values: the stage makes
  /// the cues (returning two optional cues made every frame build and destroy them).
  struct Action: Equatable, Sendable {
    /// `camera.direction`.
    struct Direction: Equatable, Sendable {
      var camera: Camera
      var facing: CameraFacing
    }

    /// `camera.mirroring`.
    struct Mirroring: Equatable, Sendable {
      var camera: Camera
      var mirrored: Bool
      var basis: MirroringBasis
    }

    var direction: Direction?
    var mirroring: Mirroring?
  }

  private struct Decision: Equatable, Sendable {
    var camera: Camera
    var value: Bool
  }

  /// The stream's input, once an `input` event named it.
  private(set) var input: Camera?
  /// The camera that delivered the latest frame since the latest `input`.
  private var constituent: Camera?
  private var direction: Decision?
  private var mirroring: Decision?
  private var framesUnderDecision = 0

  /// The session's video input became `camera`.
  mutating func input(_ camera: Camera, maps: DirectionMaps) -> Action {
    input = camera
    constituent = nil
    return update(maps)
  }

  /// A frame, from `camera` when the trace names it. The decision for a new camera comes before
  /// anything about its frame.
  ///
  /// A frame that names no camera, or the one before it, changes nothing the decision depends
  /// on, so it is not decided again: the input and the constituent changed only with a decision,
  /// and the stage decides every stream again whenever the maps change
  /// (``directionChanged(maps:)``). Debug builds check that deciding again would change nothing.
  @inline(__always)  // into the camera stage's handling of a frame: see CameraStage.receive
  mutating func frame(camera: Camera?, maps: DirectionMaps) -> Action {
    defer { framesUnderDecision += 1 }
    guard let camera, camera != constituent else {
      checkDecided(maps)
      return Action()
    }
    constituent = camera
    return update(maps)
  }

  /// The camera a frame labelled `camera` comes from: the label itself, except that under a
  /// `virtualFront` input a frame labelled `virtualFront` names no constituent and keeps the
  /// one known (`nil` before any), SPEC 4.7.
  // Out of line, asked only of a frame labelled `virtualFront`: inlined, it made the camera
  // stage's frame step too large for the frame-gap step to be inlined into it (callgrind: 9
  // instructions an event).
  @inline(never)
  func knownCamera(labelled camera: Camera?) -> Camera? {
    input == .virtualFront && camera == .virtualFront ? constituent : camera
  }

  /// A direction update changed the maps: the new decision, and how many frames the old one
  /// covered when it flipped the same camera's mirroring (they were mirrored wrongly).
  mutating func directionChanged(maps: DirectionMaps) -> (action: Action, staleFrames: Int) {
    let before = mirroring
    let action = update(maps)
    var stale = 0
    if let before, let after = mirroring, before.camera == after.camera, before.value != after.value {
      stale = framesUnderDecision
    }
    framesUnderDecision = 0
    return (action, stale)
  }

  /// The stream's active camera and its facing (SPEC 4.7).
  func activeCamera(maps: DirectionMaps) -> (camera: Camera, facing: CameraFacing?)? {
    if input == .virtualFront {
      let camera = constituent ?? maps.frontCameraFacingUser ?? .virtualFront
      // A virtual front camera follows the app between displays, so it faces the person.
      return (camera, camera.isFront ? .user : maps.facing(of: camera))
    }
    guard let camera = input ?? constituent else { return nil }
    return (camera, maps.facing(of: camera))
  }

  private func checkDecided(_ maps: DirectionMaps) {
    #if DEBUG
      var again = self
      assert(again.update(maps) == Action(), "a frame that changed nothing changed the decision")
    #endif
  }

  private mutating func update(_ maps: DirectionMaps) -> Action {
    var action = Action()
    guard let (camera, facing) = activeCamera(maps: maps) else { return action }
    if let facing {
      let newDirection = Decision(camera: camera, value: facing == .user)
      if direction != newDirection {
        direction = newDirection
        action.direction = Action.Direction(camera: camera, facing: facing)
      }
    }
    let mirrored = facing.map { $0 == .user } ?? camera.isFront
    let newMirroring = Decision(camera: camera, value: mirrored)
    guard mirroring != newMirroring else { return action }
    if mirroring?.camera != camera { framesUnderDecision = 0 }
    mirroring = newMirroring
    action.mirroring = Action.Mirroring(
      camera: camera, mirrored: mirrored, basis: facing == nil ? .deviceType : .direction)
    return action
  }
}
