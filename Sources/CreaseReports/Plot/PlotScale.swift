import Crease

/// Where trace time and angles land on the canvas, and the ticks that label them.
struct PlotScale {
  /// The first instant of the trace: tick labels and `--from`/`--to` count seconds from it.
  let origin: Nanoseconds
  /// The window drawn.
  let start: Nanoseconds
  let end: Nanoseconds
  /// The top of the angle axis, in degrees (at least 180).
  let maximumAngle: Double
  let left: Double
  let right: Double
  let top: Double
  let bottom: Double

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
    let columns = Int(right - left)
    return max(0, min(columns - 1, Int((x(t) - left).rounded(.down))))
  }

  /// Seconds since the origin.
  func seconds(_ t: Nanoseconds) -> Double { (Double(t.rawValue) - Double(origin.rawValue)) / 1e9 }

  /// Seconds since the origin at the left edge of pixel column `column`.
  func seconds(for column: Int) -> Double {
    seconds(start) + Double(column) / (right - left) * (seconds(end) - seconds(start))
  }

  /// Time ticks: seconds since the origin at a round step, about a dozen across the window, all
  /// printed with the decimals the step needs (`0.5 s, 1.0 s, 1.5 s`).
  var timeTicks: [(t: Nanoseconds, label: String)] {
    let first = seconds(start)
    let last = seconds(end)
    let step = TickStep.atLeast(max(last - first, 1e-9) / 12)
    let decimals = TickStep.decimals(of: step)
    var ticks: [(Nanoseconds, String)] = []
    var tick = (first / step).rounded(.up) * step
    while tick <= last + step * 1e-9 {
      ticks.append(
        (origin + Nanoseconds(rounding: tick * 1e9), String(fixed: tick, decimals: decimals) + " s"))
      tick += step
    }
    return ticks
  }

  /// HingeAngle ticks: every 30° up to 360°, about six above. Counted, not strided, so that no
  /// axis, however wide, makes more than a dozen.
  var angleTicks: [Double] {
    let step = maximumAngle <= 360 ? 30 : TickStep.atLeast(maximumAngle / 6)
    let count = Int(min(12, (maximumAngle / step).rounded(.down)))
    return (0...max(0, count)).map { Double($0) * step }
  }
}
