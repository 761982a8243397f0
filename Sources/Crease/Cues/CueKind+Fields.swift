/// A value of one cue field, typed so every output format renders it the same way.
public enum CueFieldValue: Hashable, Sendable {
  /// Free text, such as a mark's label.
  case text(String)
  /// One of the format's names, such as a status or a camera.
  case name(String)
  /// A whole number, such as a pts in nanoseconds or a frame count.
  case integer(Int64)
  /// An angle or a progress value, written with at most 3 decimals.
  case decimal(Double)
  case bool(Bool)
  /// A list of names.
  case names([String])
}

extension CueKind {
  /// Calls `body` with each field after `t`, `since` and `cue`, in output order (SPEC 3).
  public func forEachField(_ body: (_ key: StaticString, _ value: CueFieldValue) throws -> Void) rethrows {
    switch self {
    case .hingeInitial(let status, let angle), .hingeAvailable(let status, let angle):
      try body("status", .name(status.name))
      try body("angle", .decimal(angle))
    case .hingeUnavailable:
      break
    case .hingeStatus(let from, let to):
      try body("from", .name(from.name))
      try body("to", .name(to.name))
    case .regionsChanged(let divisionActive):
      try body("divisionActive", .bool(divisionActive))
    case .hingeThreshold(let boundary, let side, let angle, let initial):
      try body("boundary", .text(boundary))
      try body("side", .name(side.rawValue))
      try body("angle", .decimal(angle))
      if initial { try body("initial", .bool(true)) }
    case .hingeMotion(let phase, let angle):
      try body("phase", .name(phase.rawValue))
      try body("angle", .decimal(angle))
    case .hingeSettled(let angle, let zone):
      try body("angle", .decimal(angle))
      try body("zone", .name(zone.rawValue))
    case .hingeProgress(let value):
      try body("value", .decimal(value))
    case .cameraGap(let stream, let from, let to, let missing, let cause, let reason):
      try body("stream", .text(stream.rawValue))
      try body("from", .integer(from.rawValue))
      try body("to", .integer(to.rawValue))
      try body("missing", .integer(Int64(missing)))
      try body("cause", .name(cause.rawValue))
      if let reason { try body("reason", .name(reason.name)) }
    case .cameraStall(let stream):
      try body("stream", .text(stream.rawValue))
    case .cameraPTSRegression(let stream, let from, let to):
      try body("stream", .text(stream.rawValue))
      try body("from", .integer(from.rawValue))
      try body("to", .integer(to.rawValue))
    case .cameraDirection(let stream, let camera, let facing):
      try body("stream", .text(stream.rawValue))
      try body("camera", .name(camera.name))
      try body("facing", .name(facing.rawValue))
    case .cameraMirroring(let stream, let camera, let mirrored, let basis):
      try body("stream", .text(stream.rawValue))
      try body("camera", .name(camera.name))
      try body("mirrored", .bool(mirrored))
      try body("basis", .name(basis.rawValue))
    case .cameraMask(let stream, let on, let reason):
      try body("stream", .text(stream.rawValue))
      try body("on", .bool(on))
      if let reason { try body("reason", .name(reason.rawValue)) }
    case .accessoryEligible(let eligible, let missing):
      try body("eligible", .bool(eligible))
      try body("missing", .names(missing.names))
    case .mark(let label):
      try body("label", .text(label))
    }
  }
}
