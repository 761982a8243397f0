/// The event-time engine: merges sources, restores order within the reorder window, runs timers
/// in trace time and drives a processor (SPEC 4.1).
///
/// Feed it events with ``push(_:from:)`` and tell it when a source ends with
/// ``finish(source:)``; take the cues it produced with ``drainCues(_:)``, and ``resume()``
/// while it ``hasDeferredWork``. It never reads a clock, so the same pushes produce the same
/// cues at any speed.
///
/// ```swift
/// var engine = Engine(processor: Pipeline(configuration: .default), sourceCount: 1)
/// try engine.push(Event(t: 0, .mark(label: "start")), from: 0)
/// engine.finish(source: 0)
/// repeat {
///   engine.drainCues { cue, _ in print(cue) }
///   engine.resume()
/// } while engine.hasCues
/// ```
public struct Engine<Processor: EventProcessor>: ~Copyable, Sendable where Processor: Sendable {
  /// How the input ended, known once every source has finished.
  public struct EndOfInput: Sendable {
    /// The latest `end` event's time when every source had one, otherwise `nil` (end of stream).
    public var endTime: Nanoseconds?
    /// Timers due after `endTime`, reported instead of fired (empty at end of stream).
    public var pendingTimers: [TimerScheduler<Processor.TimerTag>.Timer]
  }

  private struct PendingEvent: Comparable, Sendable {
    var event: Event
    var source: Int
    var sequence: UInt64
    /// The event's ``Event/Payload/textByteCount``, counted against ``Engine/bufferBytes``.
    var textBytes: Int

    static func < (a: PendingEvent, b: PendingEvent) -> Bool {
      (a.event.t, a.source, a.sequence) < (b.event.t, b.source, b.sequence)
    }
    static func == (a: PendingEvent, b: PendingEvent) -> Bool {
      (a.event.t, a.source, a.sequence) == (b.event.t, b.source, b.sequence)
    }
  }

  /// The processor, with whatever state it has reached.
  public private(set) var processor: Processor
  /// How far an event may trail a later event of its source and still be processed in order.
  public let reorderWindow: Nanoseconds
  /// Set once every source has finished.
  public private(set) var endOfInput: EndOfInput?
  /// The most events the reorder buffer holds before it releases the earliest early.
  public let bufferLimit: Int
  /// The most bytes of text the buffered events may carry before the earliest is released
  /// early.
  public let bufferBytes: Int
  /// Events processed before their turn because the buffer was full (in events or in bytes).
  /// After one, an event that would sort before what was already processed is late.
  public private(set) var releasedEarly = 0
  /// The bytes of text the buffered events carry.
  private var bufferedTextBytes = 0
  /// The cues past which a call stops to let its owner take them (checked after each event, so
  /// one event's cues more at the most): the rest of the call's work waits for ``resume()``. It bounds memory
  /// where many events are released
  /// at once (the end of input, a buffer over its limit) and each fans out into many cues (a
  /// direction update over thousands of streams).
  public static var cueLimit: Int { 4096 }
  /// What a call left for ``resume()`` once it had produced ``cueLimit`` cues. Usable from
  /// inlinable code: ``resume()`` tests it where its owner calls it.
  @usableFromInline var deferred: AfterRelease?

  // Internal and usable from inlinable code: ``refusal(at:isEnd:from:)`` reads them, inlined
  // into its callers in other modules.
  @usableFromInline var context = ProcessingContext<Processor.TimerTag>()
  @usableFromInline var sources: SourceStates
  private var buffer = ReorderBuffer<PendingEvent>()
  private var nextSequence: UInt64 = 0

  /// Creates an engine over `sourceCount` sources.
  public init(
    processor: Processor, sourceCount: Int = 1, reorderWindow: Nanoseconds = .milliseconds(50),
    bufferLimit: Int = Configuration.default.reorderBufferLimit,
    bufferBytes: Int = Configuration.default.reorderBufferBytes
  ) {
    precondition(reorderWindow >= .zero, "the reorder window cannot be negative")
    precondition(bufferLimit >= 1, "the reorder buffer must hold an event")
    precondition(bufferBytes >= 1, "the reorder buffer must hold a byte")
    self.processor = processor
    self.reorderWindow = reorderWindow
    self.bufferLimit = bufferLimit
    self.bufferBytes = bufferBytes
    self.sources = SourceStates(count: sourceCount)
  }

  /// An engine in the same state as `other`, going on apart from it: the same events buffered,
  /// timers set and cues waiting.
  ///
  /// An engine is not copyable: its reorder buffer is its own, so taking in an event needs no
  /// copy-on-write check. Copy one on purpose with this.
  /// - Complexity: O(*n*) in the buffered events, timers and cues.
  public init(copying other: borrowing Engine) {
    // Every stored property, those with a default value too: one left out would start over in
    // the copy (the copy tests go on from deferred work, a buffer and timers).
    processor = other.processor
    reorderWindow = other.reorderWindow
    endOfInput = other.endOfInput
    bufferLimit = other.bufferLimit
    bufferBytes = other.bufferBytes
    releasedEarly = other.releasedEarly
    bufferedTextBytes = other.bufferedTextBytes
    deferred = other.deferred
    context = other.context
    sources = other.sources
    buffer = other.buffer.copied()
    nextSequence = other.nextSequence
  }

  /// The trace time processing has reached.
  public var now: Nanoseconds { context.now }

  /// The unfinished source that holds the others back: the one whose next event may be the
  /// earliest. Reading from it first keeps the reorder buffer at the size of the window.
  /// - Complexity: O(*s*), where *s* is the number of sources.
  public var sourceToRead: Int? {
    // One source, the usual replay, has no others to weigh (asked before every line).
    if sources.count == 1 { return sources[0].finished ? nil : 0 }
    var best: (index: Int, low: Nanoseconds)?
    for (index, source) in sources.enumerated() where !source.finished {
      let low = source.latest.map { $0 - reorderWindow } ?? .min
      if best == nil || low < best!.low { best = (index, low) }
    }
    return best?.index
  }

  /// Passes a trace header to the processor.
  @_specialize(exported:true,where Processor == Pipeline)
  public mutating func apply(_ header: TraceHeader) { processor.apply(header) }

  /// Why ``push(_:from:)`` would refuse an event at `t` from `source` now (``RefusedEvent/Reason/late(behind:)``
  /// or ``RefusedEvent/Reason/afterEnd``), or `nil` when it would take it (an `end` event is
  /// never late): for a caller that leaves a refused event where it is, unread, to report it
  /// with its position.
  @inline(__always)
  // Inlinable: asked before every event, and as a call from another module it copied the
  // whole engine (callgrind: about 120 instructions an event in a plain release build). An
  // owner resumes deferred work before it asks (the deferred work may move `now`).
  @inlinable
  public func refusal(at t: Nanoseconds, isEnd: Bool, from source: Int) -> RefusedEvent.Reason? {
    guard !sources[source].finished else { return .afterEnd }
    if isEnd { return nil }
    // An event at or after its source's latest is never late: asked first, it spares the
    // saturating subtraction nearly every event (callgrind, the day trace: 5 instructions an
    // event).
    if let latest = sources[source].latest, t < latest, latest - t > reorderWindow {
      return .late(behind: latest - t)
    }
    // Only after an early release can an event in its window sort before processed time.
    if t < context.now { return .late(behind: context.now - t) }
    return nil
  }

  /// Takes in one event of `source` and processes every event that can no longer be overtaken;
  /// an event it refuses comes back in the error, as it was given, with why.
  ///
  /// The one way in, for the replay, ``CreaseSession`` and its cue sequence alike: the refused
  /// event is handed back rather than copied before the push, so an owner that reports it keeps
  /// no copy of each event it pushes. A refused event ahead of its source's latest `t` still
  /// moves the source on.
  /// - Throws: ``RefusedEvent`` with ``RefusedEvent/Reason/late(behind:)`` or
  ///   ``RefusedEvent/Reason/afterEnd``.
  /// - Complexity: O(*k* + *s*) amortized, where *k* is how many buffered events the new one
  ///   sorts before (0 for in-order input) and *s* the number of sources.
  // Specialized for `Pipeline` here, where it is known. Tuning: exported-specialization
  // (Docs/Performance.md), as on every entry point below.
  @_specialize(exported:true,where Processor == Pipeline)
  public mutating func push(_ event: consuming Event, from source: Int) throws(RefusedEvent) {
    // Judged against the time the work already handed in reaches, not where it stopped. Done
    // before the event is read: read before a call that changes the engine, its payload was
    // copied and the copy destroyed after (callgrind, `make library-cost`: about 80
    // instructions an event).
    finishDeferredWork()
    let t = event.t
    // Whether the event is `end` is asked here only of a refused one (an `end` is never late);
    // the admission asks it of the others.
    if let reason = refusal(at: t, isEnd: false, from: source), reason == .afterEnd || !event.isEnd {
      if reason != .afterEnd { sources.raiseLatest(of: source, to: t) }
      throw RefusedEvent(event: consume event, reason: reason)
    }
    admit(consume event, from: source)
  }

  /// Takes in an event ``push(_:from:)`` has admitted.
  // Inlined into its one caller. Tuning: hot-inline.
  @inline(__always)
  private mutating func admit(_ event: consuming Event, from source: Int) {
    if event.isEnd {
      sources[source].endTime = event.t
      finish(source: source)
      return
    }
    sources.raiseLatest(of: source, to: event.t)
    // No deferred work: the push finished it, and nothing since made more. The text is counted
    // where the event lies in the ring: counted before, the payload was copied out for the
    // count (callgrind, the day trace: 16 instructions an event, both formats).
    let textBytes = buffer.insert(
      PendingEvent(event: consume event, source: source, sequence: nextSequence, textBytes: 0)
    ) { pending in
      pending.textBytes = pending.event.payload.textByteCount
      return pending.textBytes
    }
    nextSequence &+= 1  // unchecked: 2^64 events do not happen
    // Unchecked: the buffer holds at most `bufferBytes` plus one event's text.
    bufferedTextBytes &+= textBytes
    release(then: .fireTimersBeforeWatermark)
  }

  /// What a call does once the events it may release have been processed.
  @usableFromInline
  enum AfterRelease: Sendable {
    /// Fire the timers the watermark has passed.
    case fireTimersBeforeWatermark
    /// A source finished: apply the end-of-input rule when it was the last, else fire the
    /// timers the watermark has passed.
    case sourceFinished
    /// End the input without firing later timers (``stop()``).
    case stop
  }

  /// Whether a call stopped at ``cueLimit`` cues and left work for ``resume()``.
  @inlinable
  public var hasDeferredWork: Bool { deferred != nil }

  /// Goes on with the work a call left at ``cueLimit`` cues, again up to that many: an owner
  /// drains the cues, then resumes, while ``hasDeferredWork``. Cues come in the same order as
  /// if the work had not stopped. Any other call finishes the deferred work first, whatever
  /// it produces.
  /// - Complexity: as the call that deferred it, for the events it processes.
  // An owner resumes after every batch of cues, nearly always with nothing deferred.
  // Tuning: hot-inline.
  @inlinable
  public mutating func resume() {
    if deferred != nil { resumeDeferredWork() }
  }

  /// ``resume()``'s work, once it knows there is some.
  @usableFromInline
  @_specialize(exported:true,where Processor == Pipeline)
  mutating func resumeDeferredWork() {
    guard let next = deferred else { return }
    deferred = nil
    release(then: next)
  }

  /// Does the deferred work whole, for a call that comes before its owner resumed. Asked by
  /// every push: the test is inlined, and only the work is a call. Tuning: hot-inline.
  @inline(__always)
  private mutating func finishDeferredWork() {
    if deferred != nil { finishDeferredWorkWhole() }
  }

  private mutating func finishDeferredWorkWhole() {
    while let next = deferred {
      deferred = nil
      release(then: next, bounded: false)
    }
  }

  /// Processes buffered events (the earliest while the buffer is over a limit, counted as
  /// released early; then those no source can precede), and then does `next`. Bounded, it
  /// stops once the cues reach ``cueLimit`` and leaves the rest for ``resume()``.
  // Inlined into `admit`, its caller per event. Tuning: hot-inline.
  @inline(__always)
  private mutating func release(then next: AfterRelease, bounded: Bool = true) {
    if buffer.count > bufferLimit || bufferedTextBytes > bufferBytes, !releaseEarly(bounded: bounded) {
      deferred = next
      return
    }
    let line = Self.releaseLine(of: sources, reorderWindow: reorderWindow)
    if let line {
      while let ready = buffer.popFirst(if: line.admits) {
        process(ready)
        if bounded && context.cues.count >= Self.cueLimit {
          deferred = next
          return
        }
      }
    }
    let watermark = line?.time ?? .min
    switch next {
    case .fireTimersBeforeWatermark:
      fireTimers(before: watermark)
    case .sourceFinished:
      if sources.allSatisfy(\.finished) { endInput() } else { fireTimers(before: watermark) }
    case .stop:
      endOfInput = EndOfInput(endTime: nil, pendingTimers: context.timers.pending)
    }
  }

  /// Marks `source` as ended (end of its stream, or its `end` event); when it is the last one,
  /// processes what is buffered and applies the end-of-input rule.
  @_specialize(exported:true,where Processor == Pipeline)
  public mutating func finish(source: Int) {
    guard !sources[source].finished else { return }
    finishDeferredWork()
    sources[source].finished = true
    release(then: .sourceFinished)
  }

  /// Processes the earliest buffered events while the buffer is over a limit, counting them as
  /// released early; `false` when it stopped at ``cueLimit`` cues first (bounded).
  // Inlined into `release`: with 100,000 streams in turn the buffer stays at its limit, and as a
  // call a frame cost 30 instructions more (callgrind); the day trace, which never reaches the
  // limit, costs the same or 1 less. Folded into the release line's loop instead, with the
  // limit tested for every event released, the day trace cost 26 more. Tuning: hot-inline.
  @inline(__always)
  private mutating func releaseEarly(bounded: Bool) -> Bool {
    while buffer.count > bufferLimit || bufferedTextBytes > bufferBytes {
      guard !bounded || context.cues.count < Self.cueLimit, let earliest = buffer.popFirst() else {
        return false
      }
      process(earliest)
      releasedEarly += 1
    }
    return true
  }

  /// The time up to which no source can still deliver an event: the smallest, over the open
  /// sources, of (latest `t` read − reorder window); `.min` while an open source has read
  /// nothing. An event exactly at the watermark is still in time.
  /// - Complexity: O(*s*), where *s* is the number of sources.
  public var watermark: Nanoseconds {
    Self.releaseLine(of: sources, reorderWindow: reorderWindow)?.time ?? .min
  }

  /// Idle advance (SPEC 4.1): moves every open source's largest `t` read forward to `time`, as
  /// if an event at `time` had been read, while no event arrives.
  ///
  /// The watermark stays ``reorderWindow`` behind, exactly as for an event: buffered events
  /// before it are processed and the timers due before it fire, so a debounce or settle cue
  /// comes on time from a quiet source, and an event that arrives within the window of `time`
  /// is still in time. A `time` before a source's largest `t` changes nothing for it.
  /// - Complexity: O(*e* · *s* + *t* log *n*) for *e* events released, *s* sources, and *t* of
  ///   *n* pending timers fired.
  @_specialize(exported:true,where Processor == Pipeline)
  public mutating func advance(to time: Nanoseconds) {
    guard endOfInput == nil else { return }
    finishDeferredWork()
    for index in sources.indices where !sources[index].finished {
      sources[index].latest = Swift.max(sources[index].latest ?? time, time)
    }
    release(then: .fireTimersBeforeWatermark)
  }

  /// Stops the input here (`--strict` met a bad line): processes every buffered event, with the
  /// timers due before each, and leaves later timers pending.
  @_specialize(exported:true,where Processor == Pipeline)
  public mutating func stop() {
    guard endOfInput == nil else { return }
    finishDeferredWork()
    // With every source finished, every buffered event may be released.
    for index in sources.indices { sources[index].finished = true }
    release(then: .stop)
  }

  /// The processor's bound for `cue`, asked in place (reading ``processor`` would copy it).
  @_specialize(exported:true,where Processor == Pipeline)
  public func latencyBound(for cue: Cue) -> Nanoseconds? { processor.latencyBound(for: cue) }

  /// How many cues are waiting to be drained.
  // Inlinable, as `hasCues` is.
  @inlinable
  public var cueCount: Int { context.cues.count }

  /// Whether cues are waiting to be drained.
  // Inlinable: asked after every event by a replay in another module, where a call to the
  // generic getter also looked up the engine's type metadata (callgrind: 16 instructions an
  // event in a plain release build).
  @inlinable
  public var hasCues: Bool { !context.cues.isEmpty }

  /// Hands `body` each cue produced so far, in output order, with the processor's latency bound
  /// for it (as ``latencyBound(for:)`` gives it, asked now), and forgets them.
  ///
  /// The one way out. It drains what is produced, at most ``cueLimit`` cues after any one
  /// call; while ``hasDeferredWork``, ``resume()`` produces the next batch, so an owner that
  /// keeps cues (the replay's batches for its writer thread, a sequence's ready cues) holds at
  /// most a batch. The cue is the body's to keep: it is moved out, not copied. When `body`
  /// throws, the cue it threw on counts as drained and the cues after it stay queued, in
  /// order, for the next drain.
  /// - Complexity: O(*c*), where *c* is the number of cues; it keeps the buffer's storage.
  // Inlinable, so the owner's body (a batch filling its storage) is compiled into the loop: as
  // a specialized call taking a closure, 12 instructions an event more (callgrind, bench trace,
  // binary). The bound is asked through `latencyBound(for:)`, a call: `processor` read here
  // from another module was copied first (20 an event in `memcpy`).
  @inlinable
  public mutating func drainCues(_ body: (consuming Cue, Nanoseconds?) throws -> Void) rethrows {
    try drainCues(askingBounds: true, body)
  }

  /// ``drainCues(_:)``, handing `body` no bound (`nil`) unless `askingBounds`: for the owners
  /// in this package that drop it (a session's drain of cues alone, the cue sequence, a replay
  /// that keeps no statistics of its cues), where the bound asked and thrown away cost 21
  /// instructions an event (callgrind, `make library-cost`, `CreaseSession`).
  @inlinable
  package mutating func drainCues(
    askingBounds: Bool, _ body: (consuming Cue, Nanoseconds?) throws -> Void
  ) rethrows {
    // Each cue moved out of the array, not copied and then destroyed with it: reversed, the
    // first comes off the back, the only end that gives an element up without a copy
    // (callgrind, `make library-cost`: a session 1,076 → 949 instructions an event). One cue,
    // the usual drain, needs no reversing, and the call cost 12 an event. Reversed in the
    // array's storage, whose swaps move the cues: the array's own swaps copied each cue and
    // destroyed the copy, through the type's value witnesses (about 60 instructions a cue).
    if context.emitted.count > 1 { context.emitted.withUnsafeMutableBufferPointer { $0.reverse() } }
    do {
      while let cue = context.emitted.popLast() {
        let bound = askingBounds ? latencyBound(for: cue) : nil
        try body(cue, bound)
      }
    } catch {
      // What is left is the undrained cues, last first: back in output order.
      context.emitted.withUnsafeMutableBufferPointer { $0.reverse() }
      throw error
    }
  }

  /// Processes an event taken out of the buffer.
  @inline(__always)
  private mutating func process(_ pending: consuming PendingEvent) {
    bufferedTextBytes &-= pending.textBytes
    process(pending.event)
  }

  /// Processes one event after the timers due before it.
  private mutating func process(_ event: consuming Event) {
    fireTimers(dueBefore: event.t)
    context.now = Swift.max(context.now, event.t)
    processor.process(consume event, context: &context)
  }

  /// Which buffered events no source can still precede: those before the earliest time an open
  /// source may still deliver, and those at that time from a source no later on the command line
  /// than every source that may still deliver then. `nil` while an open source has read nothing.
  private struct ReleaseLine {
    var time: Nanoseconds
    var lastSource: Int

    func admits(_ pending: borrowing PendingEvent) -> Bool {
      pending.event.t < time || (pending.event.t == time && pending.source <= lastSource)
    }
  }

  // Static, and given only what it reads: a method on `self` called from a mutating method
  // copied the whole engine first (callgrind: 88 instructions a call in `memcpy`). Inlined: a
  // call of its own, once an event, cost 11 instructions an event more.
  /// - Complexity: O(*s*), where *s* is the number of sources; once per push, not per event.
  @inline(__always)
  private static func releaseLine(of sources: SourceStates, reorderWindow: Nanoseconds) -> ReleaseLine? {
    // One source, the usual replay: the loop below without the loop.
    if sources.count == 1, !sources[0].finished {
      guard let latest = sources[0].latest else { return nil }
      return ReleaseLine(time: latest.earlier(by: reorderWindow), lastSource: 0)
    }
    var line = ReleaseLine(time: .max, lastSource: .max)
    for (index, source) in sources.enumerated() where !source.finished {
      guard let latest = source.latest else { return nil }
      let lowestPossible = latest.earlier(by: reorderWindow)
      if lowestPossible < line.time {
        line = ReleaseLine(time: lowestPossible, lastSource: index)
      } else if lowestPossible == line.time {
        line.lastSource = Swift.min(line.lastSource, index)
      }
    }
    return line
  }

  /// Fires the timers `watermark` has passed (SPEC 4.1), so a due cue never waits for a later
  /// event to be released. Every event before the watermark has been processed by now. A timer
  /// due exactly at the watermark waits: an event at that time is still in time, and at equal
  /// times events come before timers. The watermark is the one ``releaseReadyEvents()`` just
  /// worked out: asking it again cost a second pass over the sources. Tuning: hot-inline.
  @inline(__always)
  private mutating func fireTimers(before watermark: Nanoseconds) {
    guard watermark > context.now else { return }
    fireTimers(dueBefore: watermark)
  }

  /// Fires the timers due before `time`. Asked twice an event, and nearly always with nothing
  /// due: the test is inlined where it is asked, and only the firing is a call. The due time
  /// is compared with `time` itself, not with the nanosecond before it: that saturating
  /// subtraction, twice an event, cost 6 instructions an event (callgrind, the bench's day
  /// trace). Tuning: hot-inline.
  @inline(__always)
  private mutating func fireTimers(dueBefore time: Nanoseconds) {
    guard let due = context.timers.nextDue, due < time else { return }
    fireDueTimers(atOrBefore: time - Nanoseconds(1))
  }

  private mutating func fireDueTimers(atOrBefore limit: Nanoseconds) {
    while let timer = context.timers.popFirst(dueAtOrBefore: limit) {
      context.now = Swift.max(context.now, timer.due)
      processor.fire(timer.tag, context: &context)
    }
  }

  /// Applies the end-of-input rule. The processor hears of the end at the end's time (the
  /// `end` event's, or the time reached at end of stream), after the timers due before it
  /// and, like an input event, before the timers due at it.
  private mutating func endInput() {
    let ends = sources.compactMap(\.endTime)
    if ends.count == sources.count, let endTime = ends.max() {
      fireTimers(dueBefore: endTime)
      context.now = Swift.max(context.now, endTime)
      processor.finish(context: &context)
      fireDueTimers(atOrBefore: endTime)
      endOfInput = EndOfInput(endTime: endTime, pendingTimers: context.timers.pending)
    } else {
      processor.finish(context: &context)
      context.timers.cancelAtEndOfStream()
      fireDueTimers(atOrBefore: .max)
      endOfInput = EndOfInput(endTime: nil, pendingTimers: [])
    }
  }
}
