extension FixedWidthInteger where Self: SignedInteger {
  /// The sum, saturating at the ends of the range: counts come from files, and input-derived
  /// arithmetic saturates rather than traps.
  // Tuning: inlinable-generic.
  @inlinable package func addingSaturated(_ other: Self) -> Self {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}
