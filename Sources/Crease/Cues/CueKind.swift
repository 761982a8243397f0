/// The cues of SPEC 3 with their fields.
public enum CueKind: Hashable, Sendable {
  /// The first hinge delivery (the launch delivery).
  case hingeInitial(status: HingeStatus, angle: HingeAngle)
  /// A delivery with no hinge: the view left a hierarchy with hinge updates.
  case hingeUnavailable
  /// The first delivery after the hinge was unavailable; it re-sets the committed status.
  case hingeAvailable(status: HingeStatus, angle: HingeAngle)
  /// A debounced change of the committed status.
  case hingeStatus(from: HingeStatus, to: HingeStatus)
  /// Re-read reserved regions; the fold's division region is active only while partly open.
  case regionsChanged(divisionActive: Bool)
  /// A hysteresis boundary was crossed (or its first side set, `initial`).
  case hingeThreshold(boundary: BoundaryName, side: BoundarySide, angle: HingeAngle, initial: Bool)
  /// A fold or unfold started or reversed.
  case hingeMotion(phase: MotionPhase, angle: HingeAngle)
  /// The hinge came to rest.
  case hingeSettled(angle: HingeAngle, zone: RestZone)
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
  public var name: String { tag.name }

  /// The kind without its fields.
  // Asked several times a cue from other modules (the summary's table, the latency bound, the
  // encoder). Tuning: hot-inline.
  @inlinable @inline(__always)
  public var tag: Tag {
    switch self {
    case .hingeInitial: .hingeInitial
    case .hingeUnavailable: .hingeUnavailable
    case .hingeAvailable: .hingeAvailable
    case .hingeStatus: .hingeStatus
    case .regionsChanged: .regionsChanged
    case .hingeThreshold: .hingeThreshold
    case .hingeMotion: .hingeMotion
    case .hingeSettled: .hingeSettled
    case .hingeProgress: .hingeProgress
    case .cameraGap: .cameraGap
    case .cameraStall: .cameraStall
    case .cameraPTSRegression: .cameraPTSRegression
    case .cameraDirection: .cameraDirection
    case .cameraMirroring: .cameraMirroring
    case .cameraMask: .cameraMask
    case .accessoryEligible: .accessoryEligible
    case .mark: .mark
    }
  }

  /// A cue kind without its fields: what tables by kind are indexed by.
  ///
  /// Its raw value is its place in declaration order, from 0, given by the compiler; tables
  /// are `allCases.count` long. A new cue kind is a case here too (``CueKind/tag`` switches
  /// over every kind), with its name, and every table grows with it.
  public enum Tag: Int, CaseIterable, Hashable, Sendable {
    /// ``CueKind/hingeInitial(status:angle:)``.
    case hingeInitial
    /// ``CueKind/hingeUnavailable``.
    case hingeUnavailable
    /// ``CueKind/hingeAvailable(status:angle:)``.
    case hingeAvailable
    /// ``CueKind/hingeStatus(from:to:)``.
    case hingeStatus
    /// ``CueKind/regionsChanged(divisionActive:)``.
    case regionsChanged
    /// ``CueKind/hingeThreshold(boundary:side:angle:initial:)``.
    case hingeThreshold
    /// ``CueKind/hingeMotion(phase:angle:)``.
    case hingeMotion
    /// ``CueKind/hingeSettled(angle:zone:)``.
    case hingeSettled
    /// ``CueKind/hingeProgress(value:)``.
    case hingeProgress
    /// ``CueKind/cameraGap(stream:from:to:missing:cause:reason:)``.
    case cameraGap
    /// ``CueKind/cameraStall(stream:)``.
    case cameraStall
    /// ``CueKind/cameraPTSRegression(stream:from:to:)``.
    case cameraPTSRegression
    /// ``CueKind/cameraDirection(stream:camera:facing:)``.
    case cameraDirection
    /// ``CueKind/cameraMirroring(stream:camera:mirrored:basis:)``.
    case cameraMirroring
    /// ``CueKind/cameraMask(stream:on:reason:)``.
    case cameraMask
    /// ``CueKind/accessoryEligible(eligible:missing:)``.
    case accessoryEligible
    /// ``CueKind/mark(label:)``.
    case mark

    /// The kind's name in the output, such as `hinge.status`.
    public var name: String { nameLiteral.description }

    /// The name as a literal: what an encoder copies into a line without making a `String`
    /// (as a `String`, 28 instructions a cue line, callgrind). Tuning: hot-inline.
    @inlinable @inline(__always)
    public var nameLiteral: StaticString {
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
}

extension CueKind {
  /// The bytes of text the cue carries (a mark's label, a stream's or a boundary's name): what
  /// makes one cue take more memory than another, for the limits that bound buffers in bytes.
  /// - Complexity: O(1).
  // Asked for every cue, across modules. Tuning: hot-inline.
  @inlinable @inline(__always)
  public var textByteCount: Int {
    switch self {
    case .mark(let label): label.utf8.count
    case .hingeThreshold(let boundary, _, _, _): boundary.rawValue.utf8.count
    case .cameraGap(let stream, _, _, _, _, _), .cameraStall(let stream),
      .cameraPTSRegression(let stream, _, _),
      .cameraDirection(let stream, _, _), .cameraMirroring(let stream, _, _, _),
      .cameraMask(let stream, _, _):
      stream.rawValue.utf8.count
    case .hingeInitial, .hingeUnavailable, .hingeAvailable, .hingeStatus, .regionsChanged, .hingeMotion,
      .hingeSettled, .hingeProgress, .accessoryEligible:
      0
    }
  }
}
