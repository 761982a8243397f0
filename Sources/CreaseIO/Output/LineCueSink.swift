import Crease

/// Cues as lines, JSON Lines or text, written on the replay's own thread (and paced, with a
/// pacer).
struct LineCueSink: CueSink {
  private var output: LineOutput
  private let format: CueFormat
  private let filter: CueFilter
  private let countsCues: Bool
  private var summary = ReplaySummary(sources: [])

  /// A sink writing the cues `filter` lets through to `output` in `format`, a line format, and
  /// counting every cue in its summary when `countsCues`.
  init(output: LineOutput, format: CueFormat, filter: CueFilter, countsCues: Bool) {
    precondition(format != .chrome, "the Chrome timeline has a sink of its own")
    self.output = output
    self.format = format
    self.filter = filter
    self.countsCues = countsCues
  }

  func begin() {}

  mutating func start(at t: Nanoseconds) { output.startPacing(at: t) }

  @inline(__always)
  static var notesEvents: Bool { false }

  func note(_ event: borrowing Event, from source: Int) {}

  mutating func write<Processor>(cuesOf engine: inout Engine<Processor>) throws {
    // Each cue written as the engine gives it up: staged in a batch first, as the writing
    // thread's are, each was moved twice more (callgrind, the day trace: JSON Lines 4
    // instructions an event).
    try engine.drainCues(askingBounds: countsCues) { cue, bound in
      if countsCues { summary.record(cue, bound: bound) }
      if filter.writes(cue.kind.tag) { try output.write(cue, in: format) }
      // Ended a payload at a time, not destroyed whole. Tuning: owned-parts.
      cue.kind.end()
    }
  }

  mutating func flush() throws { try output.flush() }

  mutating func finish(at end: Nanoseconds?) throws -> ReplaySummary {
    if let end { try output.finishPacing(at: end) }
    try output.flush()
    summary.pacing = output.pacer?.accuracy
    return summary
  }
}
