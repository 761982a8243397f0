extension String {
  /// `value` with exactly `decimals` decimals, rounded half away from zero: the one way numbers
  /// are written for people to read (tables, plots, statistics), with the same digits on every
  /// machine (no locale, no `printf`).
  ///
  /// A value whose digits would not fit (more than about 9 × 10¹⁸ once scaled) is `∞` or `-∞`,
  /// never a wrong number or a trap; NaN is `nan`.
  /// - Parameter decimals: 0 to 9.
  /// - Complexity: O(1).
  package init(fixed value: Double, decimals: Int) {
    precondition((0...9).contains(decimals), "0 to 9 decimals")
    guard !value.isNaN else {
      self = "nan"
      return
    }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value.magnitude * scale).rounded(.toNearestOrAwayFromZero)
    guard scaled < 9e18 else {
      self = value < 0 ? "-∞" : "∞"
      return
    }
    let digits = Int64(scaled)
    let unit = Int64(scale)
    let sign = value < 0 && digits != 0 ? "-" : ""
    guard decimals > 0 else {
      self = sign + String(digits)
      return
    }
    let fraction = String(digits % unit)
    self =
      sign + String(digits / unit) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
  }
}
