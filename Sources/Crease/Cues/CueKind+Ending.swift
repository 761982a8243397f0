extension CueKind {
  /// Ends the kind once its cue is written, letting go of the one string it may hold directly.
  ///
  /// A cue destroyed whole outside this module goes through an outlined destroy that looks the
  /// type's value witnesses up, whatever its case (callgrind, the day trace's cue writing: 36
  /// instructions a cue more). Taken apart here, a kind of plain values (two cues in three)
  /// needs nothing, and a name or a label is one release, or none when it is immortal. A case
  /// matched without a binding still has its payload destroyed by the compiler: the list of
  /// plain kinds is a matter of speed, never of correctness. Tuning: owned-parts.
  @inlinable @inline(__always)
  package consuming func end() {
    switch consume self {
    case .hingeInitial, .hingeUnavailable, .hingeAvailable, .hingeStatus, .regionsChanged, .hingeMotion,
      .hingeSettled, .hingeProgress, .accessoryEligible:
      break
    case .hingeThreshold(let boundary, _, _, _):
      boundary.rawValue.endWithoutReleaseIfImmortal()
    case .cameraGap(let stream, _, _, _, _, _), .cameraStall(let stream),
      .cameraPTSRegression(let stream, _, _),
      .cameraDirection(let stream, _, _), .cameraMirroring(let stream, _, _, _),
      .cameraMask(let stream, _, _):
      stream.rawValue.endWithoutReleaseIfImmortal()
    case .mark(let label):
      label.endWithoutReleaseIfImmortal()
    }
  }
}
