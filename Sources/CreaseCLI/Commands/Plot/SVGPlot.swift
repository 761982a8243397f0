import Crease

/// Draws a trace and its cues as SVG: the hinge angle over time with its boundaries and status
/// bands, hinge cues as markers, and a capture lane with gaps, masks and camera decisions.
struct SVGPlot {
  let samples: [(t: Nanoseconds, degrees: Double)]
  let cues: [Cue]
  let configuration: Configuration
  let title: String

  static let width = 1200.0
  static let plotLeft = 70.0
  static let plotRight = 1170.0
  static let angleTop = 50.0
  static let angleBottom = 370.0
  static let laneTop = 400.0
  static let laneBottom = 450.0
  static let height = 520.0

  private var start: Nanoseconds {
    min(samples.first?.t ?? .max, cues.first?.t ?? .max, cues.first?.since ?? .max)
  }
  private var end: Nanoseconds {
    max(samples.last?.t ?? .zero, cues.last?.t ?? .zero, start + .milliseconds(1))
  }
  private var maximumAngle: Double { max(180, (samples.map(\.degrees).max() ?? 0).rounded(.up)) }

  private func x(_ t: Nanoseconds) -> Double {
    // In doubles: a trace may span the whole Int64 range, or a single instant at its end.
    let span = max(Double(end.rawValue) - Double(start.rawValue), 1)
    return Self.plotLeft + (Double(t.rawValue) - Double(start.rawValue)) / span
      * (Self.plotRight - Self.plotLeft)
  }

  /// A step of 1, 2 or 5 times a power of ten, at least `raw`: ticks and grid lines stay few
  /// (about `extent / raw`) whatever the values.
  static func niceStep(atLeast raw: Double) -> Double {
    guard raw.isFinite, raw > 0 else { return 1 }
    var power = 1.0
    while power * 10 <= raw { power *= 10 }
    while power > raw { power /= 10 }
    return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? power * 10
  }

  private func y(_ degrees: Double) -> Double {
    Self.angleBottom - max(0, min(degrees, maximumAngle)) / maximumAngle * (Self.angleBottom - Self.angleTop)
  }

  /// The whole picture.
  var svg: String {
    var parts: [String] = [
      ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(n(Self.width))" height="\##(n(Self.height))" font-family="sans-serif" font-size="11">"##,
      ##"<rect width="100%" height="100%" fill="white"/>"##,
      ##"<text x="\##(n(Self.plotLeft))" y="24" font-size="15">\##(escape(title))</text>"##,
    ]
    parts += statusBands() + grid() + boundaries()
    parts.append(angleLine())
    parts += hingeMarkers() + captureLane() + legend()
    parts.append("</svg>")
    return parts.joined(separator: "\n") + "\n"
  }

  private func statusBands() -> [String] {
    var bands: [String] = []
    var current: (status: HingeStatus?, from: Nanoseconds) = (nil, start)
    func close(at t: Nanoseconds) {
      guard let status = current.status, t > current.from else { return }
      let fill = [
        "closed": "#e6e6e6", "partiallyOpen": "#dbeafe", "fullyOpen": "#dcfce7", "unknown": "#fef9c3",
      ][status.name]!
      bands.append(
        ##"<rect x="\##(n(x(current.from)))" y="\##(n(Self.angleTop))" width="\##(n(x(t) - x(current.from)))" height="\##(n(Self.angleBottom - Self.angleTop))" fill="\##(fill)"/>"##
      )
    }
    for cue in cues {
      let next: HingeStatus??
      switch cue.kind {
      case .hingeInitial(let status, _), .hingeAvailable(let status, _): next = status
      case .hingeStatus(_, let to): next = to
      case .hingeUnavailable: next = .some(nil)
      default: next = nil
      }
      guard let status = next else { continue }
      close(at: cue.t)
      current = (status, cue.t)
    }
    close(at: end)
    return bands
  }

  private func grid() -> [String] {
    var lines: [String] = []
    // 30° lines for the usual 0–360°; for larger angles about six lines.
    let angleStep = maximumAngle <= 360 ? 30 : Self.niceStep(atLeast: maximumAngle / 6)
    for degrees in stride(from: 0.0, through: maximumAngle, by: angleStep) {
      lines.append(
        ##"<line x1="\##(n(Self.plotLeft))" y1="\##(n(y(degrees)))" x2="\##(n(Self.plotRight))" y2="\##(n(y(degrees)))" stroke="#cccccc" stroke-width="0.5"/>"##
      )
      lines.append(
        ##"<text x="\##(n(Self.plotLeft - 8))" y="\##(n(y(degrees) + 4))" text-anchor="end">\##(n(degrees))°</text>"##
      )
    }
    let seconds = (Double(end.rawValue) - Double(start.rawValue)) / 1e9
    let step =
      [0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 300, 600, 1800, 3600].first { seconds / $0 <= 12 }
      ?? Self.niceStep(atLeast: seconds / 12)
    for tick in stride(from: 0.0, through: seconds, by: step) {
      let position = x(start + Nanoseconds(rounding: tick * 1e9))
      lines.append(
        ##"<line x1="\##(n(position))" y1="\##(n(Self.angleBottom))" x2="\##(n(position))" y2="\##(n(Self.laneBottom))" stroke="#cccccc" stroke-width="0.5"/>"##
      )
      lines.append(
        ##"<text x="\##(n(position))" y="\##(n(Self.laneBottom + 16))" text-anchor="middle">\##(n(tick)) s</text>"##
      )
    }
    lines.append(
      ##"<text x="\##(n(Self.plotLeft - 8))" y="\##(n((Self.laneTop + Self.laneBottom) / 2 + 4))" text-anchor="end">camera</text>"##
    )
    return lines
  }

  private func boundaries() -> [String] {
    configuration.hinge.boundaries.flatMap { boundary in
      [boundary.below, boundary.above].map { degrees in
        ##"<line x1="\##(n(Self.plotLeft))" y1="\##(n(y(degrees)))" x2="\##(n(Self.plotRight))" y2="\##(n(y(degrees)))" stroke="#9333ea" stroke-width="0.8" stroke-dasharray="6 4"/>"##
      } + [
        ##"<text x="\##(n(Self.plotRight + 4))" y="\##(n(y(boundary.above) + 4))" fill="#9333ea">\##(escape(boundary.name))</text>"##
      ]
    }
  }

  private func angleLine() -> String {
    var points = ""
    points.reserveCapacity(samples.count * 16)
    for sample in samples { points += "\(n(x(sample.t))),\(n(y(sample.degrees))) " }
    return ##"<polyline fill="none" stroke="#1d4ed8" stroke-width="1.2" points="\##(points)"/>"##
  }

  private func hingeMarkers() -> [String] {
    cues.compactMap { cue -> String? in
      let position = n(x(cue.t))
      switch cue.kind {
      case .hingeMotion(let phase, let degrees):
        let tip = y(degrees) + (phase == .opening ? -7 : 7)
        return
          ##"<path d="M\##(position),\##(n(tip)) l-5,\##(phase == .opening ? 9 : -9) h10 z" fill="#ea580c"><title>hinge.motion \##(phase.rawValue)</title></path>"##
      case .hingeSettled(let degrees, let zone):
        return
          ##"<circle cx="\##(position)" cy="\##(n(y(degrees)))" r="4.5" fill="#16a34a"><title>hinge.settled \##(zone.rawValue)</title></circle>"##
      case .hingeThreshold(let boundary, let side, let degrees, _):
        return
          ##"<rect x="\##(n(x(cue.t) - 4))" y="\##(n(y(degrees) - 4))" width="8" height="8" transform="rotate(45 \##(position) \##(n(y(degrees))))" fill="#9333ea"><title>hinge.threshold \##(escape(boundary)) \##(side.rawValue)</title></rect>"##
      case .mark(let label):
        return
          ##"<line x1="\##(position)" y1="\##(n(Self.angleTop))" x2="\##(position)" y2="\##(n(Self.laneBottom))" stroke="#6b7280" stroke-dasharray="2 3"/><text x="\##(n(x(cue.t) + 3))" y="\##(n(Self.angleTop + 12))" fill="#374151">\##(escape(label))</text>"##
      default:
        return nil
      }
    }
  }

  private func captureLane() -> [String] {
    var items = [
      ##"<rect x="\##(n(Self.plotLeft))" y="\##(n(Self.laneTop))" width="\##(n(Self.plotRight - Self.plotLeft))" height="\##(n(Self.laneBottom - Self.laneTop))" fill="#f9fafb" stroke="#d1d5db"/>"##
    ]
    var maskStart: [StreamName: Nanoseconds] = [:]
    for cue in cues {
      switch cue.kind {
      case .cameraMask(let stream, true, _):
        maskStart[stream] = cue.t
      case .cameraMask(let stream, false, _):
        guard let from = maskStart.removeValue(forKey: stream) else { continue }
        items.append(
          ##"<rect x="\##(n(x(from)))" y="\##(n(Self.laneTop + 4))" width="\##(n(max(1, x(cue.t) - x(from))))" height="14" fill="#fdba74"><title>camera.mask \##(escape(stream.rawValue))</title></rect>"##
        )
      case .cameraGap(let stream, _, _, let missing, let cause, _):
        items.append(
          ##"<rect x="\##(n(x(cue.since)))" y="\##(n(Self.laneTop + 22))" width="\##(n(max(1.5, x(cue.t) - x(cue.since))))" height="14" fill="#dc2626"><title>camera.gap \##(escape(stream.rawValue)) \##(missing) missing, \##(cause.rawValue)</title></rect>"##
        )
      case .cameraMirroring(_, let camera, let mirrored, _):
        items.append(
          ##"<line x1="\##(n(x(cue.t)))" y1="\##(n(Self.laneTop + 38))" x2="\##(n(x(cue.t)))" y2="\##(n(Self.laneBottom))" stroke="#0891b2" stroke-width="2"><title>camera.mirroring \##(camera.name) \##(mirrored)</title></line>"##
        )
      case .cameraStall:
        items.append(
          ##"<circle cx="\##(n(x(cue.t)))" cy="\##(n(Self.laneTop + 29))" r="3" fill="#7f1d1d"><title>camera.stall</title></circle>"##
        )
      default:
        continue
      }
    }
    return items
  }

  private func legend() -> [String] {
    let entries = [
      ("#1d4ed8", "angle"), ("#9333ea", "boundary, threshold"), ("#ea580c", "motion"), ("#16a34a", "settled"),
      ("#fdba74", "mask"), ("#dc2626", "gap"), ("#0891b2", "mirroring"), ("#e6e6e6", "closed"),
      ("#dbeafe", "partly open"), ("#dcfce7", "fully open"),
    ]
    var left = Self.plotLeft
    return entries.map { entry in
      defer { left += 30 + 6.5 * Double(entry.1.count) }
      return
        ##"<rect x="\##(n(left))" y="\##(n(Self.height - 22))" width="10" height="10" fill="\##(entry.0)"/><text x="\##(n(left + 14))" y="\##(n(Self.height - 13))">\##(entry.1)</text>"##
    }
  }

  /// A coordinate with at most two decimals, the same on every machine.
  private func n(_ value: Double) -> String {
    // Clamped far outside the canvas, so no value can overflow the conversion.
    let hundredths = Int64((min(max(value, -1e12), 1e12) * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = hundredths.magnitude
    let fraction = magnitude % 100
    return fraction == 0
      ? "\(sign)\(magnitude / 100)" : "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  private func escape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "&": escaped += "&amp;"
      case "\"": escaped += "&quot;"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
