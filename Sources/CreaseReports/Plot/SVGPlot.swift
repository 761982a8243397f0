import Crease
import CreaseIO

/// Draws a trace and its cues as SVG: the hinge angle over time with its boundaries and status
/// bands, hinge cues as markers, a capture lane with gaps, masks and camera decisions, a frame
/// row per stream, and a latency lane with each cue's latency against its bound.
///
/// One time axis for every trace: the trace's own seconds (`t` ÷ 10⁹, as `crease replay -f
/// text` prints them), across the whole trace, from its first event to its end (the `end`
/// event, the end of the input or its last cue).
///
/// Linear in the trace's length and bounded in output: the angle is a band from the lowest to
/// the highest sample of each pixel column under a line through their mean (``AngleColumns``),
/// markers of one kind that would overlap are merged (``PlotMarks``), frames past one a column
/// are drawn as each column's count, and the latency lane keeps the largest latency of each
/// column.
package struct SVGPlot {
  package typealias Sample = (t: Nanoseconds, degrees: Double)
  typealias Layout = PlotLayout

  /// A latency drawn at this share of its bound reaches the lane's top: a little room above the
  /// bound's line, so a cue over its bound shows as over it.
  static let latencyScale = 1.25

  private let samples: ArraySlice<Sample>
  private let cues: [Cue]
  /// Each cue's latency bound, by the cue's index; `nil` where none applies.
  private let bounds: [Nanoseconds?]
  private let frames: [PlotRecorder.FrameTimes]
  private let configuration: Configuration
  private let title: String
  private let scale: PlotScale
  private let layout: Layout

  /// A plot of what `recording` kept, of the whole trace or of `window` (trace seconds).
  package init(
    _ recording: PlotRecorder, configuration: Configuration, title: String,
    window: (from: Double?, to: Double?) = (nil, nil)
  ) {
    let samples = recording.samples
    let span = recording.span ?? .zero ... .zero
    let start = window.from.map { Nanoseconds(rounding: $0 * 1e9) } ?? span.lowerBound
    let end = max(
      window.to.map { Nanoseconds(rounding: $0 * 1e9) } ?? span.upperBound, start + .milliseconds(1))
    let lower = samples.partitioningIndex { $0.t >= start }
    let upper = samples.partitioningIndex { $0.t > end }
    self.samples = samples[lower..<max(lower, upper)]
    self.cues = recording.cues
    self.bounds = recording.bounds
    self.frames = recording.frames
    self.configuration = configuration
    self.layout = Layout(frameRows: min(recording.frames.count, Layout.maximumFrameRows))
    self.scale = PlotScale(
      start: start, end: end,
      maximumAngle: max(180, (self.samples.lazy.map(\.degrees).max() ?? 0).rounded(.up)),
      left: Layout.plotLeft + Layout.inset, right: Layout.plotRight - Layout.inset, top: Layout.angleTop,
      bottom: Layout.angleBottom)
    let shown =
      window == (nil, nil)
      ? ""
      : " (\(String(fixed: scale.seconds(start), decimals: 3)) s to \(String(fixed: scale.seconds(end), decimals: 3)) s)"
    self.title = title + shown
  }

  /// Whether a window of trace seconds (either end open) shows any of `span`: a window wholly
  /// before or after the trace draws nothing.
  package static func window(_ window: (from: Double?, to: Double?), overlaps span: ClosedRange<Nanoseconds>)
    -> Bool
  {
    let from = window.from.map { Nanoseconds(rounding: $0 * 1e9) } ?? span.lowerBound
    let to = window.to.map { Nanoseconds(rounding: $0 * 1e9) } ?? span.upperBound
    return from <= span.upperBound && to >= span.lowerBound
  }

  /// The cues that take effect inside the window.
  private var visibleCues: some Sequence<Cue> {
    cues.lazy.filter { $0.t >= scale.start && $0.t <= scale.end }
  }

  /// The whole picture.
  package var svg: String {
    var parts: [String] = [
      ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(n(Layout.width))" height="\##(n(layout.height))" font-family="sans-serif" font-size="11">"##,
      ##"<rect width="100%" height="100%" fill="white"/>"##,
      ##"<text x="\##(n(Layout.plotLeft))" y="24" font-size="15">\##(Self.escape(title))</text>"##,
    ]
    parts += statusBands() + grid() + boundaries()
    parts += angle()
    parts += hingeMarkers() + captureLane() + frameLane() + latencyLane() + legend()
    parts.append("</svg>")
    return parts.joined(separator: "\n") + "\n"
  }

  // MARK: Background

  /// The committed status over time, from every cue (also those before the window), clipped
  /// to the window.
  private func statusBands() -> [String] {
    var bands: [String] = []
    var current: (status: HingeStatus?, from: Nanoseconds) = (nil, scale.start)
    func close(at t: Nanoseconds) {
      let from = max(current.from, scale.start)
      let to = min(t, scale.end)
      guard let status = current.status, to > from else { return }
      bands.append(
        ##"<rect x="\##(n(scale.x(from)))" y="\##(n(Layout.angleTop))" width="\##(n(scale.x(to) - scale.x(from)))" height="\##(n(Layout.angleBottom - Layout.angleTop))" fill="\##(Self.bandFill(status))"/>"##
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
    close(at: scale.end)
    return bands
  }

  private static func bandFill(_ status: HingeStatus) -> String {
    switch status {
    case .closed: "#e6e6e6"
    case .partiallyOpen: "#dbeafe"
    case .fullyOpen: "#dcfce7"
    case .unknown: "#fef9c3"
    }
  }

  /// Grid lines, tick labels and the axis titles with their units.
  private func grid() -> [String] {
    var lines: [String] = []
    for degrees in scale.angleTicks {
      lines.append(
        ##"<line x1="\##(n(Layout.plotLeft))" y1="\##(n(scale.y(degrees)))" x2="\##(n(Layout.plotRight))" y2="\##(n(scale.y(degrees)))" stroke="#cccccc" stroke-width="0.5"/>"##
      )
      lines.append(
        ##"<text x="\##(n(Layout.plotLeft - 8))" y="\##(n(scale.y(degrees) + 4))" text-anchor="end">\##(String(fixed: degrees, decimals: 0))°</text>"##
      )
    }
    for tick in scale.timeTicks {
      let position = n(scale.x(tick.t))
      lines.append(
        ##"<line x1="\##(position)" y1="\##(n(Layout.angleTop))" x2="\##(position)" y2="\##(n(layout.latencyBottom))" stroke="#cccccc" stroke-width="0.5"/>"##
      )
      lines.append(
        ##"<text x="\##(position)" y="\##(n(layout.latencyBottom + 16))" text-anchor="middle">\##(tick.label)</text>"##
      )
    }
    let middle = (Layout.angleTop + Layout.angleBottom) / 2
    lines += [
      ##"<text x="20" y="\##(n(middle))" text-anchor="middle" transform="rotate(-90 20 \##(n(middle)))">hinge angle (°)</text>"##,
      ##"<text x="\##(n((Layout.plotLeft + Layout.plotRight) / 2))" y="\##(n(layout.latencyBottom + 34))" text-anchor="middle">trace time (s, as crease replay -f text prints it)</text>"##,
      ##"<text x="\##(n(Layout.plotLeft - 8))" y="\##(n((Layout.laneTop + Layout.laneBottom) / 2 + 4))" text-anchor="end">camera</text>"##,
    ]
    return lines
  }

  /// Each boundary's pair of dashed lines, named inside the plot at the right.
  private func boundaries() -> [String] {
    configuration.hinge.boundaries.flatMap { boundary in
      [boundary.below, boundary.above].map { degrees in
        ##"<line x1="\##(n(Layout.plotLeft))" y1="\##(n(scale.y(degrees)))" x2="\##(n(Layout.plotRight))" y2="\##(n(scale.y(degrees)))" stroke="#9333ea" stroke-width="0.8" stroke-dasharray="6 4"/>"##
      } + [
        ##"<text x="\##(n(Layout.plotRight - 4))" y="\##(n(scale.y(boundary.above) - 4))" text-anchor="end" fill="#9333ea">\##(Self.escape(boundary.name.rawValue)) (\##(number(boundary.below))–\##(number(boundary.above))°)</text>"##
      ]
    }
  }

  // MARK: The angle

  /// The angle: per segment a band from each column's lowest to its highest sample, a line
  /// through each column's mean (through the sample itself where a column holds one), and an
  /// invisible strip per column whose tooltip gives the time and the angle (or its range).
  private func angle() -> [String] {
    var bands: [String] = []
    var lines: [String] = []
    var strips: [String] = []
    for segment in AngleColumns.segments(samples, on: scale) {
      func center(_ column: AngleColumns.Column) -> Double { scale.left + Double(column.index) + 0.5 }
      if segment.contains(where: { $0.highest > $0.lowest }) {
        let upper = segment.map { "\(n(center($0))),\(n(scale.y($0.highest)))" }
        let lower = segment.reversed().map { "\(n(center($0))),\(n(scale.y($0.lowest)))" }
        bands.append(
          ##"<polygon class="angle-band" fill="#93c5fd" fill-opacity="0.6" stroke="#93c5fd" stroke-width="1" points="\##((upper + lower).joined(separator: " "))"/>"##
        )
      }
      var line = ""
      line.reserveCapacity(segment.count * 16)
      for column in segment {
        let point = column.only.map { (scale.x($0.t), $0.degrees) } ?? (center(column), column.mean)
        line += "\(n(point.0)),\(n(scale.y(point.1))) "
        let range =
          column.lowest == column.highest
          ? "\(number(column.lowest))°" : "\(number(column.lowest))° to \(number(column.highest))°"
        let at = String(fixed: scale.seconds(for: column.index), decimals: 3)
        strips.append(
          ##"<rect x="\##(n(scale.left + Double(column.index)))" y="\##(n(Layout.angleTop))" width="1" height="\##(n(Layout.angleBottom - Layout.angleTop))" fill="transparent"><title>\##(at) s: \##(range)</title></rect>"##
        )
      }
      // A segment of one point is still drawn: a dot, as a line would be nothing. Where columns
      // hold many samples the band carries the shape, and the mean's line is drawn thinner.
      let dense = segment.reduce(0) { $0 + $1.count } > 4 * segment.count
      lines.append(
        segment.count == 1
          ? ##"<polyline class="angle" fill="none" stroke="#1d4ed8" stroke-width="2.5" stroke-linecap="round" points="\##(line)\##(line)"/>"##
          : ##"<polyline class="angle" fill="none" stroke="#1d4ed8" stroke-width="\##(dense ? "0.7" : "1.2")" points="\##(line)"/>"##
      )
    }
    return strips + bands + lines
  }

  // MARK: Markers

  /// Motion, settle, threshold and mark cues, each kind merged where it would overlap.
  private func hingeMarkers() -> [String] {
    // Merged within a marker's width: on a long trace markers no longer cover the status bands.
    var opening = PlotMarks(mergeDistance: Self.markerMergeDistance)
    var closing = PlotMarks(mergeDistance: Self.markerMergeDistance)
    var settled = PlotMarks(mergeDistance: Self.markerMergeDistance)
    var thresholds = PlotMarks(mergeDistance: Self.markerMergeDistance)
    var marks = PlotMarks()
    for cue in visibleCues {
      let x = scale.x(cue.t)
      let at = seconds(cue.t)
      switch cue.kind {
      case .hingeMotion(let phase, let angle):
        let degrees = angle.degrees
        let tooltip = "hinge.motion \(phase.rawValue) at \(at) s, \(number(degrees))°"
        if phase == .opening {
          opening.add(from: x, to: x, y: scale.y(degrees), seconds: scale.seconds(cue.t), title: tooltip)
        } else {
          closing.add(from: x, to: x, y: scale.y(degrees), seconds: scale.seconds(cue.t), title: tooltip)
        }
      case .hingeSettled(let angle, let zone):
        let degrees = angle.degrees
        settled.add(
          from: x, to: x, y: scale.y(degrees), seconds: scale.seconds(cue.t),
          title: "hinge.settled \(zone.rawValue) at \(at) s, \(number(degrees))°")
      case .hingeThreshold(let boundary, let side, let angle, _):
        let degrees = angle.degrees
        thresholds.add(
          from: x, to: x, y: scale.y(degrees), seconds: scale.seconds(cue.t),
          title: "hinge.threshold \(boundary.rawValue) \(side.rawValue) at \(at) s, \(number(degrees))°")
      case .mark(let label):
        marks.add(from: x, to: x, y: 0, seconds: scale.seconds(cue.t), title: label)
      default:
        continue
      }
    }
    return markLines(marks.marks) + opening.marks.map { Self.shape(.opening, at: $0) }
      + closing.marks.map { Self.shape(.closing, at: $0) }
      + settled.marks.map { Self.shape(.settled, at: $0) }
      + thresholds.marks.map { Self.shape(.threshold, at: $0) }
  }

  /// Hinge markers closer than this many pixels merge: about a marker's width.
  static let markerMergeDistance = 9.0

  /// Marks: a dotted line over both lanes with its tooltip, and its label on the first of two
  /// rows where the labels before it leave room, or none: labels never overlap (kept inside
  /// the plot near the right edge; the tooltip always names the mark).
  private func markLines(_ marks: [PlotMarks.Mark]) -> [String] {
    // Where each row's last label ends.
    var rowEnds = [-Double.infinity, -Double.infinity]
    return marks.map { mark in
      let x = n(mark.from)
      var line =
        ##"<line x1="\##(x)" y1="\##(n(Layout.angleTop))" x2="\##(x)" y2="\##(n(Layout.laneBottom))" stroke="#6b7280" stroke-dasharray="2 3"><title>\##(Self.escape(mark.tooltip))</title></line>"##
      // A generous width per character (11 px sans-serif runs 5.5 to 7 px wide).
      let labelWidth = 7.0 * Double(mark.title.count)
      let nearRight = mark.from + 3 + labelWidth > Layout.plotRight
      let labelStart = nearRight ? mark.from - 3 - labelWidth : mark.from + 3
      if let row = rowEnds.firstIndex(where: { labelStart > $0 + 6 }) {
        line +=
          ##"<text x="\##(n(nearRight ? mark.from - 3 : mark.from + 3))" y="\##(n(Layout.angleTop + 12 + 13 * Double(row)))" text-anchor="\##(nearRight ? "end" : "start")" fill="#374151">\##(Self.escape(mark.title))</text>"##
        rowEnds[row] = labelStart + labelWidth
      }
      return line
    }
  }

  /// The marker shapes, shared by the plot and its legend.
  enum Shape {
    case opening, closing, settled, threshold, stall

    var fill: String {
      switch self {
      case .opening, .closing: "#ea580c"
      case .settled: "#16a34a"
      case .threshold: "#9333ea"
      case .stall: "#7f1d1d"
      }
    }

    /// The shape's outline centred on (`x`, `y`).
    func path(x: Double, y: Double) -> String {
      switch self {
      case .opening: "M\(n(x)),\(n(y - 5)) l5,9 h-10 z"
      case .closing: "M\(n(x)),\(n(y + 5)) l5,-9 h-10 z"
      case .settled: "M\(n(x - 4.5)),\(n(y)) a4.5,4.5 0 1,0 9,0 a4.5,4.5 0 1,0 -9,0 z"
      case .threshold: "M\(n(x)),\(n(y - 5.5)) l5.5,5.5 l-5.5,5.5 l-5.5,-5.5 z"
      case .stall: "M\(n(x - 3.5)),\(n(y)) a3.5,3.5 0 1,0 7,0 a3.5,3.5 0 1,0 -7,0 z"
      }
    }
  }

  private static func shape(_ shape: Shape, at mark: PlotMarks.Mark) -> String {
    ##"<path d="\##(shape.path(x: mark.from, y: mark.y))" fill="\##(shape.fill)" stroke="white" stroke-width="0.6"><title>\##(Self.escape(mark.tooltip))</title></path>"##
  }

  // MARK: The capture lane

  /// Masks and gaps as slices first, then stalls and mirroring decisions above them, so no
  /// marker hides under a slice.
  private func captureLane() -> [String] {
    var masks = PlotMarks()
    var gaps = PlotMarks()
    var stalls = PlotMarks()
    var mirroring = PlotMarks()
    var maskStart: [StreamName: Nanoseconds] = [:]
    for cue in cues where cue.t >= scale.start {
      switch cue.kind {
      case .cameraMask(let stream, true, _):
        maskStart[stream] = cue.t
      case .cameraMask(let stream, false, _):
        guard let from = maskStart.removeValue(forKey: stream), from <= scale.end else { continue }
        masks.add(
          from: scale.x(from), to: max(scale.x(from) + 1, scale.x(min(cue.t, scale.end))), y: 0,
          seconds: scale.seconds(cue.t),
          title: "camera.mask \(stream.rawValue) from \(seconds(from)) s to \(seconds(cue.t)) s")
      case .cameraGap(let stream, _, _, let missing, let cause, let reason) where cue.t <= scale.end:
        let from = max(cue.since, scale.start)
        gaps.add(
          from: scale.x(from), to: max(scale.x(from) + 1.5, scale.x(cue.t)), y: 0,
          seconds: scale.seconds(cue.t),
          title:
            "camera.gap \(stream.rawValue): \(missing) missing from \(seconds(cue.since)) s to \(seconds(cue.t)) s, "
            + cause.rawValue + (reason.map { " (\($0.name))" } ?? ""))
      case .cameraStall(let stream) where cue.t <= scale.end:
        stalls.add(
          from: scale.x(cue.t), to: scale.x(cue.t), y: Layout.laneTop + 29, seconds: scale.seconds(cue.t),
          title: "camera.stall \(stream.rawValue) at \(seconds(cue.t)) s")
      case .cameraMirroring(let stream, let camera, let mirrored, let basis) where cue.t <= scale.end:
        mirroring.add(
          from: scale.x(cue.t), to: scale.x(cue.t), y: 0, seconds: scale.seconds(cue.t),
          title:
            "camera.mirroring \(stream.rawValue) at \(seconds(cue.t)) s: \(camera.name) "
            + (mirrored ? "mirrored" : "not mirrored") + " (\(basis.rawValue))")
      default:
        continue
      }
    }
    var items = [
      ##"<rect x="\##(n(Layout.plotLeft))" y="\##(n(Layout.laneTop))" width="\##(n(Layout.plotRight - Layout.plotLeft))" height="\##(n(Layout.laneBottom - Layout.laneTop))" fill="#f9fafb" stroke="#d1d5db"/>"##
    ]
    items += masks.marks.map { slice($0, y: Layout.laneTop + 4, fill: "#fdba74") }
    items += gaps.marks.map { slice($0, y: Layout.laneTop + 22, fill: "#dc2626") }
    items += mirroring.marks.map { mark in
      ##"<line x1="\##(n(mark.from))" y1="\##(n(Layout.laneTop + 38))" x2="\##(n(mark.from))" y2="\##(n(Layout.laneBottom))" stroke="#0891b2" stroke-width="2"><title>\##(Self.escape(mark.tooltip))</title></line>"##
    }
    items += stalls.marks.map { Self.shape(.stall, at: $0) }
    return items
  }

  // MARK: The frame lane

  /// A row per stream (the first ``PlotLayout/maximumFrameRows``): each frame a tick where it
  /// arrived, or, where frames outnumber pixel columns, each column's count as a bar, so a hole
  /// shows as an empty stretch at any length of trace. Runs of frames at the stream's usual
  /// cadence carry a tooltip with their count and times.
  private func frameLane() -> [String] {
    var items: [String] = []
    for (row, stream) in frames.prefix(layout.frameRows).enumerated() {
      let top = layout.framesTop + Layout.frameRowHeight * Double(row)
      let bottom = top + Layout.frameRowHeight - 2
      let name = stream.stream.rawValue
      items.append(
        ##"<rect x="\##(n(Layout.plotLeft))" y="\##(n(top))" width="\##(n(Layout.plotRight - Layout.plotLeft))" height="\##(n(bottom - top))" fill="#f9fafb" stroke="#d1d5db"/>"##
      )
      items.append(
        ##"<text x="\##(n(Layout.plotLeft - 8))" y="\##(n(bottom - 2))" text-anchor="end" font-size="9">\##(Self.escape(name.count > 12 ? name.prefix(11) + "…" : name))</text>"##
      )
      let lower = stream.times.partitioningIndex { $0 >= scale.start }
      let upper = stream.times.partitioningIndex { $0 > scale.end }
      let times = stream.times[lower..<max(lower, upper)]
      var path = ""
      if times.count <= scale.columns {
        for t in times { path += "M\(n(scale.x(t))),\(n(top + 1))v\(n(bottom - top - 2))" }
      } else {
        var counts = [Int](repeating: 0, count: scale.columns)
        for t in times { counts[scale.column(t)] += 1 }
        let most = Double(counts.max() ?? 1)
        for (column, count) in counts.enumerated() where count > 0 {
          let height = max(1, (bottom - top - 2) * Double(count) / most)
          path += "M\(n(scale.left + Double(column) + 0.5)),\(n(bottom - 1))v-\(n(height))"
        }
      }
      if !path.isEmpty {
        items.append(
          ##"<path class="frames" data-stream="\##(Self.escape(name))" d="\##(path)" stroke="#334155" stroke-width="1" fill="none" shape-rendering="crispEdges"/>"##
        )
      }
      items += frameRuns(times, of: name).marks.map { mark in
        ##"<rect x="\##(n(mark.from))" y="\##(n(top))" width="\##(n(max(1, mark.to - mark.from)))" height="\##(n(bottom - top))" fill="transparent"><title>\##(Self.escape(mark.tooltip))</title></rect>"##
      }
    }
    if frames.count > layout.frameRows {
      items.append(
        ##"<text x="\##(n(Layout.plotRight - 4))" y="\##(n(layout.framesBottom + 8))" text-anchor="end" fill="#6b7280" font-size="9">\##(frames.count - layout.frameRows) more streams not drawn</text>"##
      )
    }
    return items
  }

  /// The stream's runs of frames: a run ends where a frame comes later than one and a half
  /// times the stream's median delta (as the gap rule sees a hole), merged where they would
  /// overlap on the canvas.
  private func frameRuns(_ times: ArraySlice<Nanoseconds>, of name: String) -> PlotMarks {
    var runs = PlotMarks()
    guard let first = times.first else { return runs }
    let deltas = zip(times, times.dropFirst()).map { $1 - $0 }.sorted()
    let usual = deltas.isEmpty ? Nanoseconds.zero : deltas[deltas.count / 2]
    let longest = Double(usual.rawValue) * 1.5
    var start = first
    var count = 0
    var previous = first
    func close() {
      runs.add(
        from: scale.x(start), to: scale.x(previous), y: 0, seconds: scale.seconds(previous),
        title:
          "\(name): \(count) frame\(count == 1 ? "" : "s") from \(seconds(start)) s to \(seconds(previous)) s"
      )
    }
    for t in times {
      if count > 0, Double((t - previous).rawValue) > longest {
        close()
        start = t
        count = 0
      }
      count += 1
      previous = t
    }
    close()
    return runs
  }

  // MARK: The latency lane

  /// Each cue's latency (`t - since`) as a bar against its bound, the largest of each pixel
  /// column; the bound is the dashed line, and a bar over it is red. Cues without a bound (gaps,
  /// whose latency is their own length) are not drawn.
  private func latencyLane() -> [String] {
    var largest: [Int: (ratio: Double, cue: Cue, bound: Nanoseconds)] = [:]
    for (index, cue) in cues.enumerated()
    where cue.t >= scale.start && cue.t <= scale.end && cue.latency > .zero {
      guard let bound = bounds[index], bound > .zero else { continue }
      let ratio = Double(cue.latency.rawValue) / Double(bound.rawValue)
      let column = scale.column(cue.t)
      if ratio > largest[column]?.ratio ?? -1 { largest[column] = (ratio, cue, bound) }
    }
    let height = layout.latencyBottom - layout.latencyTop
    let boundY = layout.latencyBottom - height / Self.latencyScale
    var items = [
      ##"<rect x="\##(n(Layout.plotLeft))" y="\##(n(layout.latencyTop))" width="\##(n(Layout.plotRight - Layout.plotLeft))" height="\##(n(height))" fill="#f9fafb" stroke="#d1d5db"/>"##,
      ##"<line x1="\##(n(Layout.plotLeft))" y1="\##(n(boundY))" x2="\##(n(Layout.plotRight))" y2="\##(n(boundY))" stroke="#6b7280" stroke-width="0.8" stroke-dasharray="4 3"/>"##,
      ##"<text x="\##(n(Layout.plotRight - 4))" y="\##(n(boundY - 2))" text-anchor="end" fill="#6b7280" font-size="9">bound</text>"##,
      // The lane's scale (its left margin): latency as a share of the cue's bound.
      ##"<text x="\##(n(Layout.plotLeft - 34))" y="\##(n((layout.latencyTop + layout.latencyBottom) / 2 + 4))" text-anchor="end">latency</text>"##,
    ]
    for (share, y) in [(0.0, layout.latencyBottom), (1.0, boundY)] {
      items.append(
        ##"<text class="latency-scale" x="\##(n(Layout.plotLeft - 6))" y="\##(n(y + 3))" text-anchor="end" font-size="9">\##(String(fixed: share * 100, decimals: 0)) %</text>"##
      )
    }
    for column in largest.keys.sorted() {
      let entry = largest[column]!
      let top = layout.latencyBottom - height * min(entry.ratio, Self.latencyScale) / Self.latencyScale
      let over = entry.ratio > 1
      let title =
        "\(entry.cue.kind.name) at \(seconds(entry.cue.t)) s: latency \(milliseconds(entry.cue.latency)) ms of "
        + "\(milliseconds(entry.bound)) ms" + (over ? " (OVER THE BOUND)" : "")
      items.append(
        ##"<rect x="\##(n(scale.left + Double(column)))" y="\##(n(top))" width="1" height="\##(n(layout.latencyBottom - top))" fill="\##(over ? "#dc2626" : "#0d9488")"><title>\##(Self.escape(title))</title></rect>"##
      )
    }
    return items
  }

  private func slice(_ mark: PlotMarks.Mark, y: Double, fill: String) -> String {
    ##"<rect x="\##(n(mark.from))" y="\##(n(y))" width="\##(n(mark.to - mark.from))" height="14" fill="\##(fill)"><title>\##(Self.escape(mark.tooltip))</title></rect>"##
  }

  // MARK: Legend

  /// Every element with a swatch in its own shape, on two rows under the plot.
  private func legend() -> [String] {
    typealias Entry = (swatch: (Double, Double) -> String, label: String)
    func line(_ color: String, dash: String? = nil, width: Double = 1.5) -> (Double, Double) -> String {
      { x, y in
        ##"<line x1="\##(n(x))" y1="\##(n(y))" x2="\##(n(x + 14))" y2="\##(n(y))" stroke="\##(color)" stroke-width="\##(n(width))"\##(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>"##
      }
    }
    func box(_ color: String) -> (Double, Double) -> String {
      { x, y in ##"<rect x="\##(n(x))" y="\##(n(y - 5))" width="14" height="10" fill="\##(color)"/>"## }
    }
    func marker(_ shape: Shape) -> (Double, Double) -> String {
      { x, y in ##"<path d="\##(shape.path(x: x + 7, y: y))" fill="\##(shape.fill)"/>"## }
    }
    let rows: [[Entry]] = [
      [
        (line("#1d4ed8"), "angle"), (line("#9333ea", dash: "6 4", width: 1), "boundary"),
        (marker(.threshold), "threshold"), (marker(.opening), "opening"), (marker(.closing), "closing"),
        (marker(.settled), "settled"), (line("#6b7280", dash: "2 3", width: 1), "mark"),
        (box("#e6e6e6"), "closed"), (box("#dbeafe"), "partly open"), (box("#dcfce7"), "fully open"),
      ],
      [
        (box("#93c5fd"), "angle range"), (box("#fdba74"), "preview mask"), (box("#dc2626"), "frame gap"),
        (marker(.stall), "stall"), (line("#0891b2", width: 2), "mirroring decision"),
        (line("#334155", width: 1), "frames"),
        (box("#0d9488"), "latency, % of its bound"), (line("#6b7280", dash: "4 3", width: 1), "its bound"),
      ],
    ]
    var items: [String] = []
    for (row, entries) in rows.enumerated() {
      var left = Layout.plotLeft
      let y = layout.height - 58 + 20 * Double(row)
      for entry in entries {
        items.append(
          entry.swatch(left, y) + ##"<text x="\##(n(left + 19))" y="\##(n(y + 4))">\##(entry.label)</text>"##)
        left += 34 + 6.2 * Double(entry.label.count)
      }
    }
    return items
  }

  // MARK: Numbers and text

  /// A duration in milliseconds, with at most three decimals.
  private func milliseconds(_ duration: Nanoseconds) -> String {
    String(fixed: Double(duration.rawValue) / 1e6, decimals: 3)
  }

  /// Trace seconds, with milliseconds.
  private func seconds(_ t: Nanoseconds) -> String { String(fixed: scale.seconds(t), decimals: 3) }

  /// An angle with at most one decimal.
  private func number(_ degrees: Double) -> String {
    let text = String(fixed: degrees, decimals: 1)
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }

  /// `text` as XML character data (``HTMLText/escaped(_:)``).
  private static func escape(_ text: String) -> String { HTMLText.escaped(text) }
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

extension Collection {
  /// The first index whose element satisfies `belongs`, for a predicate false then true along
  /// the collection (a binary search).
  /// - Complexity: O(log *n*).
  fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if belongs(self[middle]) {
        count = half
      } else {
        low = index(after: middle)
        count -= half + 1
      }
    }
    return low
  }
}
