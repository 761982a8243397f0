// The small value types cue fields carry.

/// Which side of a hysteresis boundary the hinge is on.
public enum BoundarySide: String, Hashable, Sendable {
  case below
  case above
}

/// The direction of a hinge movement.
public enum MotionPhase: String, Hashable, Sendable {
  case opening
  case closing
}

/// Where a hinge came to rest.
public enum RestZone: String, Hashable, Sendable {
  case closed
  case half
  case fullyOpen
}

/// Why frames are missing (SPEC 4.6), first match wins.
public enum GapCause: String, CaseIterable, Hashable, Sendable {
  /// The camera changed across the gap, or a switch trigger lies in the switch window.
  case cameraSwitch
  /// Dropped-frame callbacks explain it.
  case reportedDrop
  case unexplained
}

/// Which way a camera faces relative to the app's view.
public enum CameraFacing: String, Hashable, Sendable {
  /// Toward the person.
  case user
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
  case input
  case display
  case hinge
}
