import CreaseSystem
import Testing

@Suite("Numbers for people: one fixed-decimal writer for tables, plots and statistics")
struct FixedDecimalTests {
  @Test(
    "exactly so many decimals, half away from zero, no minus on a zero",
    arguments: [
      (1.0, 3, "1.000"), (0.0005, 3, "0.001"), (-0.0005, 3, "-0.001"), (2.5, 0, "3"), (-2.5, 0, "-3"),
      (-0.0004, 3, "0.000"), (123.456, 1, "123.5"), (1e15, 3, "1000000000000000.000"),
      (0.1, 9, "0.100000000"),
    ])
  func digits(value: Double, decimals: Int, text: String) {
    #expect(String(fixed: value, decimals: decimals) == text)
  }

  @Test("a value whose digits do not fit is infinite, never a wrong number; NaN says so")
  func edges() {
    #expect(String(fixed: 1e16, decimals: 3) == "∞")
    #expect(String(fixed: -1e300, decimals: 0) == "-∞")
    #expect(String(fixed: .infinity, decimals: 2) == "∞")
    #expect(String(fixed: .nan, decimals: 2) == "nan")
    #expect(String(fixed: 8.9e18, decimals: 0) == "8900000000000000000")
  }
}
