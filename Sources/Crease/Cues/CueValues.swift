// The small value types cue fields carry.

/// Which side of a hysteresis boundary the hinge is on.
public enum BoundarySide: String, Hashable, Sendable {
  /// At or below the boundary's lower threshold.
  case below
  /// At or above the boundary's upper threshold.
  case above
}

/// The direction of a hinge movement.
public enum MotionPhase: String, Hashable, Sendable {
  /// The angle is rising.
  case opening
  /// The angle is falling.
  case closing
}

/// Where a hinge came to rest.
public enum RestZone: String, Hashable, Sendable {
  /// At rest near closed.
  case closed
  /// At rest in between.
  case half
  /// At rest near flat.
  case fullyOpen
}

/// Why frames are missing (SPEC 4.6), first match wins.
public enum GapCause: String, CaseIterable, Hashable, Sendable {
  /// The camera changed across the gap, or a switch trigger lies in the switch window.
  case cameraSwitch
  /// Dropped-frame callbacks explain it.
  case reportedDrop
  /// Neither a camera switch nor a reported drop explains the gap.
  case unexplained
}

/// Which way a camera faces relative to the app's view.
public enum CameraFacing: String, Hashable, Sendable {
  /// Toward the person.
  case user
  /// The camera faces away from the person.
  case away
}

/// What a mirroring decision rests on.
public enum MirroringBasis: String, Hashable, Sendable {
  /// The direction coordinator's map (or a virtual front camera, which faces the person).
  case direction
  /// No direction information: front cameras mirrored, rear ones not.
  case deviceType
}

/// What masked the preview.
public enum MaskReason: String, Hashable, Sendable {
  /// The session's video input changed.
  case input
  /// The view moved to another display.
  case display
  /// The committed hinge status changed.
  case hinge
}
