/// A hinge angle, kept in the unit the trace gave so a conversion round-trips exactly.
public struct HingeAngle: Hashable, Sendable {
  /// The unit an angle was recorded in.
  public enum Unit: UInt8, Hashable, Sendable {
    /// Degrees, 0 closed to 180 flat.
    case degrees
    /// Radians, 0 closed to π flat.
    case radians
  }

  /// The value in `unit`.
  public var value: Double
  /// The unit of `value`.
  public var unit: Unit

  /// An angle in degrees.
  public static func degrees(_ value: Double) -> HingeAngle { HingeAngle(value: value, unit: .degrees) }
  /// An angle in radians.
  public static func radians(_ value: Double) -> HingeAngle { HingeAngle(value: value, unit: .radians) }

  /// The angle in degrees, whatever unit it was recorded in.
  public var degrees: Double {
    switch unit {
    case .degrees: value
    case .radians: value * (180 / Double.pi)
    }
  }
}
