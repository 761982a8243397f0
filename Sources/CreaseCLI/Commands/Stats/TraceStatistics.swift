import Crease
import CreaseIO

/// Counts and rates of a trace, gathered in trace-time order beside the replay's own pipeline, so
/// that its gaps and nominal rates are the camera stage's (SPEC 4.6): the estimate, rate changes
/// and streams with too few frames to judge included.
struct TraceStatistics: EventProcessor, Sendable {
  typealias TimerTag = Pipeline.TimerTag

  /// One capture stream's frames.
  struct StreamStatistics: Sendable {
    var frames = 0
    var firstPTS: Nanoseconds?
    var lastPTS: Nanoseconds?
    var largestDelta = Nanoseconds.zero
    /// The camera stage's nominal frame duration at the end; `nil`: too few frames to judge.
    var nominal: FrameDuration?
    /// The `camera.gap` cues the replay reports, and the frames they say are missing.
    var gaps = 0
    var missingFrames = 0
    var drops: [String: Int] = [:]

    mutating func add(pts: Nanoseconds) {
      frames += 1
      defer { lastPTS = pts }
      guard let last = lastPTS else {
        firstPTS = pts
        return
      }
      largestDelta = max(largestDelta, pts - last)
    }

    /// Frames per second over the pts span.
    var meanRate: Double? {
      guard frames > 1, let firstPTS, let lastPTS, lastPTS > firstPTS else { return nil }
      return Double(frames - 1) * 1e9 / Double((lastPTS - firstPTS).rawValue)
    }
  }

  /// The replay's pipeline: its cues are counted here, not written.
  private var pipeline: Pipeline
  /// Events of each kind, in `EventKind.allCases` order: counted for every event, and a
  /// dictionary by name hashed the name each time (callgrind: 270 instructions an event).
  var kinds = [Int](repeating: 0, count: EventKind.allCases.count)
  var first: Nanoseconds?
  var last = Nanoseconds.zero
  var streams: [StreamName: StreamStatistics] = [:]
  var angleRange: ClosedRange<Double>?
  /// Frames and drops of streams past the budget, counted only by kind.
  var untrackedStreamEvents = 0
  private var budget = StreamBudget()

  init(configuration: Configuration) { pipeline = Pipeline(configuration: configuration) }

  mutating func apply(_ header: TraceHeader) {
    pipeline.apply(header)
    // A declared stream is listed, with its rate, even if it delivers nothing.
    for stream in header.nominalFrameRates.keys where isTracked(stream) && streams[stream] == nil {
      streams[stream] = StreamStatistics()
    }
  }

  /// Whether `stream` has statistics of its own: it has, or there is room for it.
  private mutating func isTracked(_ stream: StreamName) -> Bool {
    streams[stream] != nil || budget.admit(stream)
  }

  mutating func process(_ event: consuming Event, context: inout ProcessingContext<TimerTag>) {
    count(event)
    let before = context.cues.count
    pipeline.process(event, context: &context)
    countGaps(context.cues[before...])
  }

  mutating func fire(_ tag: TimerTag, context: inout ProcessingContext<TimerTag>) {
    let before = context.cues.count
    pipeline.fire(tag, context: &context)
    countGaps(context.cues[before...])
  }

  /// The input ended: the gaps held for confirmation are counted, and each stream's nominal
  /// duration is the one the camera stage ended with.
  mutating func finish(context: inout ProcessingContext<TimerTag>) {
    let before = context.cues.count
    pipeline.finish(context: &context)
    countGaps(context.cues[before...])
    for stream in streams.keys { streams[stream]!.nominal = pipeline.nominalFrameDuration(of: stream) }
  }

  private mutating func countGaps(_ cues: ArraySlice<Cue>) {
    for cue in cues {
      guard case .cameraGap(let stream, _, _, let missing, _, _) = cue.kind, streams[stream] != nil else {
        continue
      }
      streams[stream]!.gaps += 1
      streams[stream]!.missingFrames = streams[stream]!.missingFrames.addingSaturated(missing)
    }
  }

  private mutating func count(_ event: borrowing Event) {
    kinds[EventKind.allCases.firstIndex(of: event.payload.kind)!] += 1
    if first == nil { first = event.t }
    last = max(last, event.t)
    switch event.payload {
    case .frame(let frame) where isTracked(frame.stream):
      streams[frame.stream, default: StreamStatistics()].add(pts: frame.pts.nanoseconds)
    case .drop(let drop) where isTracked(drop.stream):
      // Drops whose callback gave no reason are counted as `none`.
      streams[drop.stream, default: StreamStatistics()].drops[drop.reason?.name ?? "none", default: 0] += 1
    case .frame, .drop:
      untrackedStreamEvents += 1
    case .hinge(let delivery?):
      let degrees = delivery.angle.degrees
      angleRange =
        angleRange.map { min($0.lowerBound, degrees)...max($0.upperBound, degrees) } ?? degrees...degrees
    default:
      break
    }
  }

  /// The report `crease stats` prints.
  var rendered: String {
    let duration = first.map { last - $0 } ?? .zero
    let seconds = Double(duration.rawValue) / 1e9
    var text = "duration: \(String(fixed: seconds, decimals: 3)) s\n"
    text += "events by kind:\n"
    for (kind, count) in zip(EventKind.allCases.map(\.name), kinds).sorted(by: { $0.0 < $1.0 })
    where count > 0 {
      let rate = seconds > 0 ? " (\(String(fixed: Double(count) / seconds, decimals: 1))/s)" : ""
      text += "  \(kind): \(count)\(rate)\n"
    }
    if let angleRange {
      text +=
        "hinge angle: \(String(fixed: angleRange.lowerBound, decimals: 1))° to \(String(fixed: angleRange.upperBound, decimals: 1))°\n"
    }
    for name in streams.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
      let stream = streams[name]!
      text += "stream \(name.rawValue.escapingControlCharacters): \(stream.frames) frame(s)"
      if let rate = stream.meanRate { text += ", \(String(fixed: rate, decimals: 2)) fps mean" }
      if let nominal = stream.nominal {
        text += ", nominal \(String(fixed: 1e9 / nominal.nanoseconds, decimals: 2)) fps"
      }
      text +=
        ", largest pts delta \(String(fixed: Double(stream.largestDelta.rawValue) / 1e6, decimals: 3)) ms"
      text +=
        stream.nominal == nil
        ? ", too few frames to judge gaps\n"
        : ", \(stream.gaps) gap(s), \(stream.missingFrames) frame(s) missing\n"
      for reason in stream.drops.keys.sorted() { text += "  drops \(reason): \(stream.drops[reason]!)\n" }
    }
    if untrackedStreamEvents > 0 {
      text += "\(untrackedStreamEvents) frame(s) and drop(s) of streams past \(StreamBudget.description)\n"
    }
    return text
  }

  /// The report as JSON (`crease stats -f json`): the same facts as ``rendered``, rates and
  /// degrees with at most 3 decimals, times in integer nanoseconds, keys in a fixed order.
  func json(lines total: ReplaySummary.LineCounts) -> JSONDocument {
    let duration = first.map { last - $0 } ?? .zero
    let kindCounts = zip(EventKind.allCases.map(\.name), kinds).sorted { $0.0 < $1.0 }.filter { $0.1 > 0 }
    let streamRows = streams.keys.sorted { $0.rawValue < $1.rawValue }.map { name -> JSONDocument in
      let stream = streams[name]!
      return .object([
        .init("name", .string(name.rawValue)), .init("frames", .count(stream.frames)),
        .init("meanFps", .optional(stream.meanRate, JSONDocument.decimal)),
        .init("nominalFps", .optional(stream.nominal) { .decimal(1e9 / $0.nanoseconds) }),
        .init("largestDeltaNs", .integer(stream.largestDelta.rawValue)),
        // `null` where the stream had too few frames to judge (SPEC 4.6).
        .init("gaps", .optional(stream.nominal) { _ in .count(stream.gaps) }),
        .init("missingFrames", .optional(stream.nominal) { _ in .count(stream.missingFrames) }),
        .init("drops", .object(stream.drops.keys.sorted().map { .init($0, .count(stream.drops[$0]!)) })),
      ])
    }
    return .object([
      .init(
        "lines",
        .object([
          .init("read", .count(total.lines)), .init("processed", .count(total.processed)),
          .init("rejected", .count(total.rejected)), .init("late", .count(total.late)),
          .init("blank", .count(total.blank)),
        ])),
      .init("durationNs", .integer(duration.rawValue)),
      .init("events", .object(kindCounts.map { .init($0.0, .count($0.1)) })),
      .init(
        "hingeAngle",
        .optional(angleRange) {
          .object([.init("minimum", .decimal($0.lowerBound)), .init("maximum", .decimal($0.upperBound))])
        }),
      .init("streams", .array(streamRows)),
      .init("untrackedStreamEvents", .count(untrackedStreamEvents)),
    ])
  }
}
