import Crease

/// Where trace time and angles land on the canvas, and the ticks that label them.
///
/// Time is the trace's own: seconds are `t` ÷ 10⁹, the seconds `crease replay -f text` prints,
/// so a time read off the picture, its tooltips and the text output agree.
struct PlotScale {
  /// The window drawn.
  let start: Nanoseconds
  let end: Nanoseconds
  /// The top of the angle axis, in degrees (at least 180).
  let maximumAngle: Double
  /// Where `start` and `end` land: inside the plot's frame by a marker's half width, so a marker
  /// at either end is drawn whole.
  let left: Double
  let right: Double
  let top: Double
  let bottom: Double

  /// The pixel columns across the window.
  var columns: Int { Int(right - left) }

  /// The horizontal position of `t` (outside the window, outside the plot).
  func x(_ t: Nanoseconds) -> Double {
    // In doubles: a trace may span the whole Int64 range, or a single instant.
    let span = max(Double(end.rawValue) - Double(start.rawValue), 1)
    return left + (Double(t.rawValue) - Double(start.rawValue)) / span * (right - left)
  }

  /// The vertical position of an angle, clamped to the axis.
  func y(_ degrees: Double) -> Double {
    bottom - max(0, min(degrees, maximumAngle)) / maximumAngle * (bottom - top)
  }

  /// The pixel column of `t`, from 0 to `columns - 1`.
  func column(_ t: Nanoseconds) -> Int {
    max(0, min(columns - 1, Int((x(t) - left).rounded(.down))))
  }

  /// The trace time `t` in seconds.
  func seconds(_ t: Nanoseconds) -> Double { Double(t.rawValue) / 1e9 }

  /// The trace time in seconds at the left edge of pixel column `column`.
  func seconds(for column: Int) -> Double {
    seconds(start) + Double(column) / (right - left) * (seconds(end) - seconds(start))
  }

  /// Time ticks: seconds at a round step, about a dozen across the window, all printed with the
  /// decimals the step needs (`0.5 s, 1.0 s, 1.5 s`). Worked out in whole nanoseconds, so a window
  /// of a few nanoseconds far along the clock (where a double cannot tell one tick from the
  /// next) still gets exact, distinct ticks.
  var timeTicks: [(t: Nanoseconds, label: String)] {
    let step = TickStep.atLeast(max(Double(end.rawValue) - Double(start.rawValue), 1) / 1e9 / 12)
    let decimals = TickStep.decimals(of: step)
    // At least a nanosecond, and at most about 10^10 s: a trace spans under 2^63 ns.
    let stride = Int64(max(1, (step * 1e9).rounded()))
    let remainder = start.rawValue % stride
    var (tick, overflow) =
      remainder == 0 ? (start.rawValue, false) : (start.rawValue - remainder).addingReportingOverflow(stride)
    var ticks: [(Nanoseconds, String)] = []
    while !overflow && tick <= end.rawValue && ticks.count < 24 {
      ticks.append((Nanoseconds(tick), Self.seconds(tick, decimals: decimals) + " s"))
      (tick, overflow) = tick.addingReportingOverflow(stride)
    }
    return ticks
  }

  /// `nanoseconds` (0 or more) as seconds with `decimals` (0 to 9) decimals, cut, not rounded:
  /// a tick is a whole number of its step, so nothing is cut but zeros.
  private static func seconds(_ nanoseconds: Int64, decimals: Int) -> String {
    let whole = String(nanoseconds / 1_000_000_000)
    guard decimals > 0 else { return whole }
    let fraction = String(nanoseconds % 1_000_000_000)
    return whole + "." + (String(repeating: "0", count: 9 - fraction.count) + fraction).prefix(decimals)
  }

  /// HingeAngle ticks: every 30° up to 360°, about six above. Counted, not strided, so that no
  /// axis, however wide, makes more than a dozen.
  var angleTicks: [Double] {
    let step = maximumAngle <= 360 ? 30 : TickStep.atLeast(maximumAngle / 6)
    let count = Int(min(12, (maximumAngle / step).rounded(.down)))
    return (0...max(0, count)).map { Double($0) * step }
  }
}
