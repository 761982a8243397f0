/// A state machine the engine drives with input events and timers, in trace-time order.
///
/// The engine guarantees the order: events by `t` (ties: source, then line order); at equal
/// times, events before timers; timers in the order they were set. A processor never reads a
/// clock: `context.now` is the time of the event or timer being handled.
public protocol EventProcessor {
  /// Identifies one of the processor's timers; scheduling a pending tag re-arms it.
  associatedtype TimerTag: Hashable & Sendable

  /// Handles an input event at `context.now`.
  mutating func process(_ event: consuming Event, context: inout ProcessingContext<TimerTag>)

  /// Handles a timer that came due at `context.now`.
  mutating func fire(_ tag: TimerTag, context: inout ProcessingContext<TimerTag>)

  /// Takes in a trace header (nominal frame rates) before any event of its source.
  mutating func apply(_ header: TraceHeader)

  /// The input ended: every event is processed; the end-of-input rule for timers comes next.
  mutating func finish(context: inout ProcessingContext<TimerTag>)

  /// The most latency (`t - since`) `cue`, just emitted, may have under the processor's
  /// configuration; `nil` when no bound applies.
  func latencyBound(for cue: Cue) -> Nanoseconds?
}

extension EventProcessor {
  /// Does nothing: a processor without header settings ignores the header.
  public mutating func apply(_ header: TraceHeader) {}
  /// Does nothing: a processor without state to close needs no last word.
  public mutating func finish(context: inout ProcessingContext<TimerTag>) {}
  /// No bound: a processor that states none has its cues judged against nothing.
  public func latencyBound(for cue: Cue) -> Nanoseconds? { nil }
}

/// What a processor may do while it handles an event or a timer: read the time, set timers,
/// emit cues.
public struct ProcessingContext<TimerTag: Hashable & Sendable>: Sendable {
  /// The trace time being processed.
  public internal(set) var now: Nanoseconds = .zero
  /// The processor's timers.
  public var timers = TimerScheduler<TimerTag>()
  /// Cues emitted and not yet taken by the engine's owner, in emission order.
  public var cues: [Cue] { emitted }
  /// ``cues``' storage, which the engine's inlinable drain empties.
  @usableFromInline var emitted: [Cue] = []

  /// Emits a cue taking effect now.
  public mutating func emit(since: Nanoseconds, _ kind: CueKind) {
    emitted.append(Cue(t: now, since: since, kind))
  }
}
