/// Round steps for the axes of every chart (the plot's and the reports'): 1, 2 or 5 times a power
/// of ten.
enum TickStep {
  /// A step of 1, 2 or 5 times a power of ten, at least `raw`: ticks and grid lines stay few
  /// (about `extent / raw`) whatever the values.
  static func atLeast(_ raw: Double) -> Double {
    guard raw.isFinite, raw > 0 else { return 1 }
    var power = 1.0
    while power * 10 <= raw { power *= 10 }
    while power > raw { power /= 10 }
    return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? power * 10
  }

  /// The decimals a step of 1, 2 or 5 times a power of ten needs: 0 from 1 up, 1 for 0.5.
  static func decimals(of step: Double) -> Int {
    var decimals = 0
    var scaled = step
    while scaled < 1 - 1e-9 && decimals < 9 {
      scaled *= 10
      decimals += 1
    }
    return decimals
  }
}
