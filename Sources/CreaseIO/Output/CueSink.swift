import Crease

/// Where a replay's cues go, in one output format: the replay hands each event to ``note(_:from:)``
/// before the engine takes it, and the engine's cues to ``write(cuesOf:)``, and knows nothing
/// else of the format. A new output format is one conforming type, chosen in
/// ``TraceReplay/run(_:reopen:to:)``.
///
/// Each sink records the cues it writes in a summary of its own, which ``finish(at:)`` returns:
/// a sink that writes on another thread records them there. A replay whose summary is not read
/// makes its sink count none (``TraceReplay/countsCues``).
protocol CueSink {
  /// Writes what comes before the first cue (a document's opening).
  mutating func begin() throws

  /// The first event's trace time: a paced output starts its clock.
  mutating func start(at t: Nanoseconds)

  /// Whether ``note(_:from:)`` does anything: a sink that draws the inputs is told only of the
  /// events the engine takes, so the replay asks the engine before it reads an event for it. A
  /// constant of the sink's type, folded away where the replay is specialized.
  static var notesEvents: Bool { get }

  /// An event the engine is about to take, from source `source`: a timeline draws the inputs
  /// as well as the cues. Line formats do nothing, inlined away.
  mutating func note(_ event: borrowing Event, from source: Int) throws

  /// Moves out the cues `engine` has ready and writes them, in order, each judged against the
  /// latency bound that applies now (a stall's bound follows its stream's rate, which changes).
  mutating func write<Processor>(cuesOf engine: inout Engine<Processor>) throws

  /// Writes out what is buffered: before a read that may wait, so a live consumer sees the
  /// cues so far.
  mutating func flush() throws

  /// Writes the rest (a paced output waits until `end`, the last trace time, comes) and
  /// returns the cues' statistics, with the pacing's accuracy.
  mutating func finish(at end: Nanoseconds?) throws -> ReplaySummary
}
