/// What `crease synth` may vary besides the scenario.
public struct SynthOptions: Hashable, Sendable {
  /// The seed: the same seed gives the same trace, byte for byte.
  public var seed: UInt64
  /// Length in seconds; `nil` for the scenario's own.
  public var duration: Double?
  /// Camera frame rate (30 or 60 are the device's; any rate from 1 to 240 works).
  public var fps: Int
  /// Mean hinge delivery rate.
  public var hingeHz: Double

  public init(seed: UInt64 = 1, duration: Double? = nil, fps: Int = 30, hingeHz: Double = 60) {
    self.seed = seed
    self.duration = duration
    self.fps = fps
    self.hingeHz = hingeHz
  }
}
