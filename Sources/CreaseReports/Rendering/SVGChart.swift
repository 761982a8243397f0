/// A line chart as inline SVG, for the HTML reports: axes with round ticks, a line per series,
/// vertical markers (latency bounds), and point labels. No script, no network.
struct SVGChart {
  /// One line: its name in the legend, and its points in data units.
  struct Series {
    var name: String
    var points: [(x: Double, y: Double)]
    /// Each point's label (a sweep's setting), drawn beside it; empty for none.
    var labels: [String] = []
    /// Whether the line steps (a distribution) or joins its points directly (a trade-off).
    var steps: Bool
  }

  var title: String
  var xLabel: String
  var yLabel: String
  var series: [Series]
  /// Dashed vertical lines, each at its x with its label: the bounds (the new run's and, where
  /// it differs, the base's; a sweep's settings').
  var markers: [(x: Double, label: String)] = []
  /// The y axis's top; the data's largest y when `nil`.
  var yMaximum: Double? = nil
  /// Whether the x axis starts at 0 (a latency) or spans the data alone (a count), with room
  /// around it so no point sits on the frame.
  var xFromZero = true
  /// Whether the x values are whole numbers (counts): ticks at whole numbers only.
  var xIsWhole = false

  static let width = 520.0
  static let height = 260.0
  private static let margin = (left: 62.0, right: 16.0, top: 28.0, bottom: 44.0)
  /// Colour-blind-safe (Okabe–Ito), in series order.
  private static let palette = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999",
  ]

  /// Series `index`'s colour: the palette's, then hues a golden angle apart, so a ninth setting
  /// does not take the first one's colour.
  static func color(_ index: Int) -> String {
    index < palette.count ? palette[index] : "hsl(\((index - palette.count) * 137 % 360), 70%, 38%)"
  }

  /// The chart as an `<svg>` element.
  var svg: String {
    let xs = series.flatMap { $0.points.map(\.x) } + markers.map(\.x)
    let ys = series.flatMap { $0.points.map(\.y) }
    let room = max(((xs.max() ?? 1) - (xs.min() ?? 0)) * 0.08, xIsWhole ? 1 : 1e-9)
    let xTicks =
      xFromZero
      ? Self.ticks(from: 0, to: (xs.max() ?? 1) * 1.05, whole: xIsWhole)
      : Self.ticks(from: (xs.min() ?? 0) - room, to: (xs.max() ?? 1) + room, whole: xIsWhole)
    let yTicks = Self.ticks(from: 0, to: yMaximum ?? (ys.max() ?? 1) * 1.05)
    let (xBottom, xTop, yTop) = (xTicks.first!, xTicks.last!, yTicks.last!)
    let plot = (
      width: Self.width - Self.margin.left - Self.margin.right,
      height: Self.height - Self.margin.top - Self.margin.bottom
    )
    func x(_ value: Double) -> Double { Self.margin.left + (value - xBottom) / (xTop - xBottom) * plot.width }
    func y(_ value: Double) -> Double { Self.margin.top + plot.height - value / yTop * plot.height }
    var svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Self.number(Self.width)) \(Self.number(Self.height))\""
      + " role=\"img\" aria-label=\"\(HTMLText.escaped(title))\">\n"
    svg +=
      "<text class=\"title\" x=\"\(Self.number(Self.margin.left))\" y=\"18\">\(HTMLText.escaped(title))</text>\n"
    for tick in xTicks {
      svg +=
        "<line class=\"grid\" x1=\"\(Self.number(x(tick)))\" y1=\"\(Self.number(y(0)))\" x2=\"\(Self.number(x(tick)))\" y2=\"\(Self.number(y(yTop)))\"/>"
      svg +=
        "<text class=\"tick\" x=\"\(Self.number(x(tick)))\" y=\"\(Self.number(y(0) + 16))\" text-anchor=\"middle\">\(Self.label(tick))</text>\n"
    }
    for tick in yTicks {
      svg +=
        "<line class=\"grid\" x1=\"\(Self.number(x(xBottom)))\" y1=\"\(Self.number(y(tick)))\" x2=\"\(Self.number(x(xTop)))\" y2=\"\(Self.number(y(tick)))\"/>"
      svg +=
        "<text class=\"tick\" x=\"\(Self.number(x(xBottom) - 6))\" y=\"\(Self.number(y(tick) + 4))\" text-anchor=\"end\">\(Self.label(tick))</text>\n"
    }
    svg +=
      "<text class=\"axis\" x=\"\(Self.number(x((xBottom + xTop) / 2)))\" y=\"\(Self.number(Self.height - 6))\" text-anchor=\"middle\">\(HTMLText.escaped(xLabel))</text>\n"
    svg +=
      "<text class=\"axis\" transform=\"translate(14 \(Self.number(y(yTop / 2)))) rotate(-90)\" text-anchor=\"middle\">\(HTMLText.escaped(yLabel))</text>\n"
    for (index, marker) in markers.enumerated() {
      // Labels one under another, each left of its line, or right of it near the left edge.
      let leftOfLine = x(marker.x) - 4 > Self.margin.left + 120
      svg +=
        "<line class=\"bound\" x1=\"\(Self.number(x(marker.x)))\" y1=\"\(Self.number(y(0)))\" x2=\"\(Self.number(x(marker.x)))\" y2=\"\(Self.number(y(yTop)))\"/>"
      svg +=
        "<text class=\"bound-label\" x=\"\(Self.number(x(marker.x) + (leftOfLine ? -4 : 4)))\" y=\"\(Self.number(y(yTop) + 12 + 13 * Double(index)))\" text-anchor=\"\(leftOfLine ? "end" : "start")\">\(HTMLText.escaped(marker.label))</text>\n"
    }
    for (index, line) in series.enumerated() {
      let color = Self.color(index)
      var path = ""
      var previous: (x: Double, y: Double)?
      for point in line.points {
        if let previous, line.steps { path += " L\(Self.number(x(point.x))),\(Self.number(y(previous.y)))" }
        path += (previous == nil ? "M" : " L") + "\(Self.number(x(point.x))),\(Self.number(y(point.y)))"
        previous = point
      }
      svg +=
        "<path class=\"series\" data-series=\"\(HTMLText.escaped(line.name))\" d=\"\(path)\" stroke=\"\(color)\"/>\n"
      guard !line.steps else { continue }
      // Points at the same place (settings that changed nothing here) share one label.
      var labels: [String: (point: (x: Double, y: Double), names: [String])] = [:]
      var order: [String] = []
      for (index, point) in line.points.enumerated() {
        svg +=
          "<circle cx=\"\(Self.number(x(point.x)))\" cy=\"\(Self.number(y(point.y)))\" r=\"3.5\" fill=\"\(color)\"/>\n"
        let key = "\(Self.number(x(point.x))),\(Self.number(y(point.y)))"
        if labels[key] == nil { order.append(key) }
        labels[key, default: (point, [])].names += index < line.labels.count ? [line.labels[index]] : []
      }
      for key in order where !labels[key]!.names.isEmpty {
        let (point, names) = labels[key]!
        let text = names.joined(separator: ", ")
        // Left of its point where it would run past the frame's right edge (about 6 px a letter).
        let toTheLeft = x(point.x) + 6 + 6 * Double(text.count) > Self.width - Self.margin.right
        svg +=
          "<text class=\"point\" x=\"\(Self.number(x(point.x) + (toTheLeft ? -6 : 6)))\" y=\"\(Self.number(y(point.y) - 6))\"\(toTheLeft ? " text-anchor=\"end\"" : "")>"
        svg += HTMLText.escaped(text) + "</text>\n"
      }
    }
    return svg + "</svg>"
  }

  /// The legend, for a chart of several series: a swatch and a name each, as HTML beside the
  /// chart (in the SVG, many names would run into the title).
  var legend: String {
    guard series.count > 1 else { return "" }
    return "<figcaption>"
      + series.enumerated().map { index, line in
        "<span class=\"key\"><span class=\"swatch\" style=\"background:\(Self.color(index))\">"
          + "</span>\(HTMLText.escaped(line.name))</span>"
      }.joined(separator: " ") + "</figcaption>"
  }

  /// Round ticks covering `bottom` to `top`: steps of 1, 2 or 5 times a power of ten, about
  /// five of them, from a multiple of the step; whole numbers only when `whole`.
  static func ticks(from bottom: Double, to top: Double, whole: Bool = false) -> [Double] {
    let bottom = bottom.isFinite ? bottom : 0
    var top = top.isFinite ? top : bottom + 1
    if top <= bottom { top = bottom + Swift.max(abs(bottom) * 0.1, 1) }
    // At most six steps across.
    let step = Swift.max(TickStep.atLeast((top - bottom) / 6), whole ? 1 : 0)
    let first = (bottom / step).rounded(.down)
    var ticks = [first * step]
    while ticks.last! < top { ticks.append((first + Double(ticks.count)) * step) }
    return ticks
  }

  /// A coordinate with two decimals at most, the same on every machine.
  private static func number(_ value: Double) -> String { trimmed(value, decimals: 2) }

  /// A tick's label: as few decimals as the value needs, up to three.
  static func label(_ value: Double) -> String { trimmed(value, decimals: 3) }

  private static func trimmed(_ value: Double, decimals: Int) -> String {
    var text = String(fixed: value, decimals: decimals)
    while text.contains("."), text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}
