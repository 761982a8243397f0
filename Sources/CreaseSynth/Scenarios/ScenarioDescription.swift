import Crease

/// A scenario as data: what a scenario file holds (`synth --scenario`, SPEC 6) and what
/// `crease scenarios --json` writes for each built-in.
///
/// A run plays the segments one after another from trace time 0; a segment without a duration
/// lasts to the end of the run, and the run ends at `--duration`, else at ``duration``, cutting
/// whatever would come later.
public struct ScenarioDescription: Hashable, Sendable {
  /// The scenario's name, for people.
  public var name: String
  /// What it shows, in one line.
  public var summary: String
  /// The run's length in seconds when `--duration` does not say; `nil` for the segments'
  /// total, every segment then having a duration.
  public var duration: Double?
  /// The segments, in time order.
  public var segments: [ScenarioSegment]

  /// A scenario of `segments`.
  public init(name: String, summary: String = "", duration: Double? = nil, segments: [ScenarioSegment]) {
    self.name = name
    self.summary = summary
    self.duration = duration
    self.segments = segments
  }

  /// The run's length in seconds unless `--duration` says otherwise.
  public var length: Double { duration ?? segments.reduce(0) { $0 + ($1.duration ?? 0) } }

  /// The trace's header: the device, and the first camera's declared rate when the scenario
  /// records.
  public func header(_ options: SynthOptions) -> TraceHeader {
    var header = TraceHeader(device: "iPhone Duo", os: "27.1")
    for segment in segments {
      if let (stream, fps) = segment.content.recording(options) {
        header.nominalFrameRates = [stream: Double(fps)]
        break
      }
    }
    return header
  }

  /// Generates the trace, its events in an array.
  /// - Complexity: O(*n* log *p*) in the *n* events of *p* model calls.
  public func generate(_ options: SynthOptions) -> SyntheticTrace {
    SyntheticTrace(header: header(options), events: Array(events(options)))
  }

  /// The trace's events, made as they are taken: what `crease synth` writes, in memory that
  /// does not grow with the run's length.
  /// - Complexity: O(*n* log *p*) in the *n* events of *p* model calls, O(*p*) memory.
  public func events(_ options: SynthOptions) -> SyntheticEvents {
    var builder = TraceBuilder(options: options)
    let end = Int64(((options.duration ?? length) * 1e9).rounded())
    var start: Int64 = 0
    for segment in segments where start < end {
      let segmentEnd = segment.duration.map { min(start + Int64(($0 * 1e9).rounded()), end) } ?? end
      if let mark = segment.mark { builder.add(start, .mark(label: mark)) }
      segment.content.compose(&builder, from: start, to: segmentEnd)
      start = segmentEnd
    }
    return builder.events(end: end)
  }

  /// The events of a run without end (`synth --duration 0`): pass after pass of the scenario's
  /// own length, pass *k* with seed + *k* and moved later by *k* × (the length + one frame), so
  /// trace time and pts continue; no pass's `end` is sent. Generated a pass at a time.
  public func endless(_ options: SynthOptions) -> some Sequence<Event> {
    let length = Nanoseconds(Int64((self.length * 1e9).rounded()))
    let period = length + Nanoseconds(1_000_000_000 / Int64(options.fps))
    return (0...).lazy.flatMap { pass in
      var passOptions = options
      passOptions.seed = options.seed &+ UInt64(pass)
      passOptions.duration = self.length
      // Saturates: a run past the end of the time range stays at its end.
      let (product, overflow) = Int64(pass).multipliedReportingOverflow(by: period.rawValue)
      let offset = overflow ? Nanoseconds.max : Nanoseconds(product)
      return self.events(passOptions).lazy.filter { $0.payload != .end }.map { $0.shifted(by: offset) }
    }
  }
}
