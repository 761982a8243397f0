/// One setting of a built-in scenario model: its name in a scenario file, its value, and what
/// it means (`crease scenarios --json` writes all three, so a user sees what each one does).
public struct ScenarioParameter: Hashable, Sendable {
  /// What a parameter measures, which bounds what it may hold.
  public enum Unit: String, Hashable, Sendable {
    /// Seconds, from 0 to a day.
    case seconds
    /// Seconds, from 10 ms to a day: a stretch the model repeats until the segment ends, which
    /// must take time, or the model would never reach the end.
    case interval
    /// Hinge degrees, from 0 to 180.
    case degrees
    /// A probability or a share of a segment's length, from 0 to 1.
    case fraction

    /// What a scenario file's notes say of it.
    public var label: String {
      switch self {
      case .seconds: "seconds"
      case .interval: "seconds, at least 0.01"
      case .degrees: "degrees"
      case .fraction: "0 to 1"
      }
    }

    /// The values allowed.
    public var allowed: ClosedRange<Double> {
      switch self {
      case .seconds: 0...86_400
      case .interval: 0.01...86_400
      case .degrees: 0...180
      case .fraction: 0...1
      }
    }
  }

  /// The name in a scenario file's `parameters`.
  public var name: String
  /// The value, or the range it is drawn from.
  public var value: ScenarioValue
  /// What the value measures.
  public var unit: Unit
  /// Whether a range is allowed; where not, the model takes the number as it is, without a draw.
  public var drawn: Bool
  /// What it sets, in one line.
  public var meaning: String

  init(_ name: String, _ value: ScenarioValue, _ unit: Unit, _ meaning: String) {
    self.name = name
    self.value = value
    self.unit = unit
    if case .range = value { drawn = true } else { drawn = false }
    self.meaning = meaning
  }
}

/// The parameters of one model, in the order the model lists them.
public struct ScenarioParameters: Hashable, Sendable {
  /// Every parameter, with its value.
  public private(set) var all: [ScenarioParameter]

  init(_ all: [ScenarioParameter]) { self.all = all }

  /// Sets the parameter `name` to `value`; `false` when the model has no such parameter.
  public mutating func set(_ name: String, to value: ScenarioValue) -> Bool {
    guard let index = all.firstIndex(where: { $0.name == name }) else { return false }
    all[index].value = value
    return true
  }

  /// The value of `name`, which the model itself lists.
  subscript(_ name: String) -> ScenarioValue {
    guard let parameter = all.first(where: { $0.name == name }) else {
      preconditionFailure("a model reads only the parameters it lists: '\(name)'")
    }
    return parameter.value
  }

  /// The number of a parameter the model takes without a draw.
  func number(_ name: String) -> Double { self[name].bounds.lowerBound }

  /// The seconds of a parameter the model takes without a draw, as whole nanoseconds.
  func nanoseconds(_ name: String) -> Int64 { Int64((number(name) * 1e9).rounded()) }
}
