/// One output of Crease: something an app should do, at a trace time, with its latency.
///
/// `t - since` is the cue's latency in trace time: how long after the earliest input event it
/// reflects the cue takes effect. SPEC 5 bounds it per stage.
public struct Cue: Hashable, Sendable {
  /// The trace time at which the cue takes effect.
  public var t: Nanoseconds
  /// The trace time of the earliest input event the cue reflects.
  public var since: Nanoseconds
  /// What to do.
  public var kind: CueKind

  public init(t: Nanoseconds, since: Nanoseconds, _ kind: CueKind) {
    self.t = t
    self.since = since
    self.kind = kind
  }

  /// The cue's latency in trace time.
  public var latency: Nanoseconds { t - since }
}

/// The cues of SPEC 3 with their fields.
public enum CueKind: Hashable, Sendable {
  /// The first hinge delivery (the launch delivery).
  case hingeInitial(status: HingeStatus, angle: Double)
  /// A delivery with no hinge: the view left a hierarchy with hinge updates.
  case hingeUnavailable
  /// The first delivery after the hinge was unavailable; it re-sets the committed status.
  case hingeAvailable(status: HingeStatus, angle: Double)
  /// A debounced change of the committed status.
  case hingeStatus(from: HingeStatus, to: HingeStatus)
  /// Re-read reserved regions; the fold's division region is active only while partly open.
  case regionsChanged(divisionActive: Bool)
  /// A hysteresis boundary was crossed (or its first side set, `initial`).
  case hingeThreshold(boundary: String, side: BoundarySide, angle: Double, initial: Bool)
  /// A fold or unfold started or reversed.
  case hingeMotion(phase: MotionPhase, angle: Double)
  /// The hinge came to rest.
  case hingeSettled(angle: Double, zone: RestZone)
  /// Effect progress while moving, 0…1.
  case hingeProgress(value: Double)
  /// Frames are missing from a stream.
  case cameraGap(
    stream: StreamName, from: Nanoseconds, to: Nanoseconds, missing: Int, cause: GapCause, reason: DropReason?
  )
  /// No frame for too long while the session runs.
  case cameraStall(stream: StreamName)
  /// A pts at or before the previous one.
  case cameraPTSRegression(stream: StreamName, from: Nanoseconds, to: Nanoseconds)
  /// The active camera's facing changed.
  case cameraDirection(stream: StreamName, camera: Camera, facing: CameraFacing)
  /// Set `automaticallyAdjustsVideoMirroring = false`, then `isVideoMirrored`.
  case cameraMirroring(stream: StreamName, camera: Camera, mirrored: Bool, basis: MirroringBasis)
  /// Mask or unmask the preview around a switch.
  case cameraMask(stream: StreamName, on: Bool, reason: MaskReason?)
  /// The camera capture accessory's eligibility changed.
  case accessoryEligible(eligible: Bool, missing: AccessoryConditions)
  /// A `mark` event passed through.
  case mark(label: String)

  /// The cue's name in the output, such as `hinge.status`.
  public var name: String {
    switch self {
    case .hingeInitial: "hinge.initial"
    case .hingeUnavailable: "hinge.unavailable"
    case .hingeAvailable: "hinge.available"
    case .hingeStatus: "hinge.status"
    case .regionsChanged: "regions.changed"
    case .hingeThreshold: "hinge.threshold"
    case .hingeMotion: "hinge.motion"
    case .hingeSettled: "hinge.settled"
    case .hingeProgress: "hinge.progress"
    case .cameraGap: "camera.gap"
    case .cameraStall: "camera.stall"
    case .cameraPTSRegression: "camera.ptsRegression"
    case .cameraDirection: "camera.direction"
    case .cameraMirroring: "camera.mirroring"
    case .cameraMask: "camera.mask"
    case .accessoryEligible: "accessory.eligible"
    case .mark: "mark"
    }
  }
}

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
public enum GapCause: String, Hashable, Sendable {
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

/// Conditions for the camera capture accessory (SPEC 4.9), as a set in one byte so an
/// eligibility cue allocates nothing.
public struct AccessoryConditions: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let foreground = AccessoryConditions(rawValue: 1 << 0)
  public static let session = AccessoryConditions(rawValue: 1 << 1)
  public static let preview = AccessoryConditions(rawValue: 1 << 2)
  public static let open = AccessoryConditions(rawValue: 1 << 3)
  public static let innerFullScreen = AccessoryConditions(rawValue: 1 << 4)

  private static let named: [(AccessoryConditions, String)] = [
    (.foreground, "foreground"), (.session, "session"), (.preview, "preview"), (.open, "open"),
    (.innerFullScreen, "innerFullScreen"),
  ]

  /// The conditions' names, in the order cues list them.
  public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }
}
