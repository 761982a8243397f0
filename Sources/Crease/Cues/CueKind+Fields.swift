/// A value of one cue field, typed so every output format renders it the same way.
public enum CueFieldValue: Hashable, Sendable {
  /// Free text, such as a mark's label.
  case text(String)
  /// One of the format's names, such as a status or a camera.
  case name(String)
  /// A whole number, such as a frame count.
  case integer(Int64)
  /// A time or a pts, in nanoseconds: written as the integer it is where times are nanoseconds
  /// (JSON Lines), in seconds where `t` is (text), with its unit where a viewer shows it bare.
  case nanoseconds(Int64)
  /// An angle or a progress value, written with at most 3 decimals.
  case decimal(Double)
  /// A flag, such as `mirrored`.
  case bool(Bool)
  /// A list of names.
  case names([String])
}

/// Writes a cue's fields, one at a time, in some output format.
///
/// ``CueKind/writeFields(_:to:)`` is generic over the writer rather than taking a closure, so
/// each format's call specialises into straight-line writes: no closure context and no
/// ``CueFieldValue`` left to switch over at run time.
public protocol CueFieldWriter {
  /// Where the fields go, such as a byte buffer.
  associatedtype Output
  /// Writes the field `key` with `value` to `output`.
  static func write(_ key: StaticString, _ value: CueFieldValue, to output: inout Output)
}

extension CueKind {
  /// Writes each field after `t`, `since` and `cue`, in output order (SPEC 3), with `writer`.
  /// - Complexity: O(*f*) in the number and size of the fields.
  // Inlinable, so that each format's writer specializes it where the format is known: in
  // another module it was called generically, through the writer's witness table.
  @inlinable
  public func writeFields<Writer: CueFieldWriter>(_ writer: Writer.Type, to output: inout Writer.Output) {
    // Inlined at each field, so the writer sees the value's case and writes it straight: as a
    // call, each field built a `CueFieldValue` and the writer switched over it (callgrind, the
    // bench's day trace: -5 instructions an event, about -80 a cue). Tuning: hot-inline.
    @inline(__always)
    func body(_ key: StaticString, _ value: CueFieldValue) { Writer.write(key, value, to: &output) }
    switch self {
    case .hingeInitial(let status, let angle), .hingeAvailable(let status, let angle):
      body("status", .name(status.name))
      body("angle", .decimal(angle.degrees))
    case .hingeUnavailable:
      break
    case .hingeStatus(let from, let to):
      body("from", .name(from.name))
      body("to", .name(to.name))
    case .regionsChanged(let divisionActive):
      body("divisionActive", .bool(divisionActive))
    case .hingeThreshold(let boundary, let side, let angle, let initial):
      body("boundary", .text(boundary.rawValue))
      body("side", .name(side.rawValue))
      body("angle", .decimal(angle.degrees))
      if initial { body("initial", .bool(true)) }
    case .hingeMotion(let phase, let angle):
      body("phase", .name(phase.rawValue))
      body("angle", .decimal(angle.degrees))
    case .hingeSettled(let angle, let zone):
      body("angle", .decimal(angle.degrees))
      body("zone", .name(zone.rawValue))
    case .hingeProgress(let value):
      body("value", .decimal(value))
    case .cameraGap(let stream, let from, let to, let missing, let cause, let reason):
      body("stream", .text(stream.rawValue))
      body("from", .nanoseconds(from.rawValue))
      body("to", .nanoseconds(to.rawValue))
      body("missing", .integer(Int64(missing)))
      body("cause", .name(cause.rawValue))
      if let reason { body("reason", .name(reason.name)) }
    case .cameraStall(let stream):
      body("stream", .text(stream.rawValue))
    case .cameraPTSRegression(let stream, let from, let to):
      body("stream", .text(stream.rawValue))
      body("from", .nanoseconds(from.rawValue))
      body("to", .nanoseconds(to.rawValue))
    case .cameraDirection(let stream, let camera, let facing):
      body("stream", .text(stream.rawValue))
      body("camera", .name(camera.name))
      body("facing", .name(facing.rawValue))
    case .cameraMirroring(let stream, let camera, let mirrored, let basis):
      body("stream", .text(stream.rawValue))
      body("camera", .name(camera.name))
      body("mirrored", .bool(mirrored))
      body("basis", .name(basis.rawValue))
    case .cameraMask(let stream, let on, let reason):
      body("stream", .text(stream.rawValue))
      body("on", .bool(on))
      if let reason { body("reason", .name(reason.rawValue)) }
    case .accessoryEligible(let eligible, let missing):
      body("eligible", .bool(eligible))
      body("missing", .names(missing.names))
    case .mark(let label):
      body("label", .text(label))
    }
  }
}
