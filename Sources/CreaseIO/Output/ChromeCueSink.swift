import Crease

/// Cues and the inputs behind them as one Chrome Trace Event document (``ChromeTimeline``),
/// written on the replay's own thread: the timeline's state follows every event.
struct ChromeCueSink: CueSink {
  private var output: LineOutput
  private let timeline: ChromeTimeline
  private let filter: CueFilter
  private let countsCues: Bool
  private var summary = ReplaySummary(sources: [])

  /// A sink writing the timeline of the traces named `sourceNames`, with the cues `filter` lets
  /// through, to `output`, and counting every cue in its summary when `countsCues`.
  init(output: LineOutput, sourceNames: [String], filter: CueFilter, countsCues: Bool) {
    self.output = output
    self.filter = filter
    self.countsCues = countsCues
    timeline = ChromeTimeline(sourceNames: sourceNames)
  }

  func begin() throws { try output.sink.write(ChromeTimeline.prologue) }

  mutating func start(at t: Nanoseconds) { output.startPacing(at: t) }

  static var notesEvents: Bool { true }

  mutating func note(_ event: borrowing Event, from source: Int) throws {
    let timeline = timeline
    try output.write(at: event.t) { timeline.note(copy event, from: source, into: &$0) }
  }

  mutating func write<Processor>(cuesOf engine: inout Engine<Processor>) throws {
    let timeline = timeline
    try engine.drainCues(askingBounds: countsCues) { cue, bound in
      if countsCues { summary.record(cue, bound: bound) }
      if filter.writes(cue.kind.tag) { try output.write(at: cue.t) { timeline.encode(cue, into: &$0) } }
      // Ended a payload at a time, not destroyed whole. Tuning: owned-parts.
      cue.kind.end()
    }
  }

  mutating func flush() throws { try output.flush() }

  mutating func finish(at end: Nanoseconds?) throws -> ReplaySummary {
    if let end { try output.finishPacing(at: end) }
    try output.flush()
    try output.sink.write(timeline.epilogue())
    summary.pacing = output.pacer?.accuracy
    return summary
  }
}
