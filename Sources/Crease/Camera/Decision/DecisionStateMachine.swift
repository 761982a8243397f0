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

  /// A frame, from `camera` when the trace names it: whether it keeps the decision, which it
  /// then counts. When it does not (a new camera), ``decide(frameFrom:maps:)`` decides, before
  /// anything about the frame.
  ///
  /// A frame that names no camera, or the one before it, changes nothing the decision depends
  /// on, so it is not decided again: the input and the constituent changed only with a decision,
  /// and the stage decides every stream again whenever the maps change
  /// (``directionChanged(maps:)``); ``isDecided(under:)`` checks it in debug builds. Asked
  /// apart from the decision, so that the stage reads its maps only for a new camera: handed
  /// to every frame, they were copied out of the stage at every frame (callgrind, the day
  /// trace: 3 instructions an event).
  @inline(__always)  // into the camera stage's handling of a frame: see CameraStage.receive
  mutating func keepsDecision(frameFrom camera: Camera?) -> Bool {
    guard let camera, camera != constituent else {
      framesUnderDecision += 1
      return true
    }
    return false
  }

  /// Decides for a frame from `camera`, which ``keepsDecision(frameFrom:)`` found new.
  mutating func decide(frameFrom camera: Camera, maps: DirectionMaps) -> Action {
    defer { framesUnderDecision += 1 }
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

  /// Whether deciding again under `maps` would change nothing (a debug check, asked by
  /// `assert` of a frame that kept the decision).
  func isDecided(under maps: DirectionMaps) -> Bool {
    var again = self
    return again.update(maps) == Action()
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
