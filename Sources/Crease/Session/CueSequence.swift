/// The cues of an asynchronous sequence of events, for live use with Swift concurrency.
///
/// The events run through a ``CreaseSession``, with its knobs: the reorder window (the
/// configuration's unless the session was given one) and the declared frame rates
/// (`cues(session:onRefusal:)`). A cue is yielded as soon as the watermark passes its time
/// (SPEC 4.1): a timer's cue comes with the first event that moves the watermark past its due
/// time, not with the event after that. With idle advance (`cues(session:onRefusal:idleAdvance:clock:)`)
/// trace time also follows a clock while no event arrives, exactly as
/// ``CreaseSession/advance(to:)`` does: debounce and settle cues come on time from a quiet
/// source, and an event that arrives within the window is never refused because of it.
///
/// An event the engine refuses (late, or after an `end` event) is never dropped in silence;
/// what happens is the caller's ``RefusalPolicy``: the iteration throws
/// ``CueSequenceFailure/refused(_:)`` and ends (the default), or the refusal is reported to a
/// handler and the iteration goes on. A `for try await` loop and an iterator driven by hand
/// behave the same: after a failure, `next()` returns `nil`.
///
/// ```swift
/// for try await cue in hingeEvents.cues(configuration: .default, onRefusal: .skip { log($0) }) {
///   apply(cue)
/// }
/// ```
public struct CueSequence<Base: AsyncSequence, C: Clock>: AsyncSequence
where Base.Element == Event, C.Duration == Duration {
  /// Each element is a cue, in output order.
  public typealias Element = Cue
  /// What the iteration throws: a refusal, or the base sequence's error.
  public typealias Failure = CueSequenceFailure

  let base: Base
  let session: CreaseSession
  let policy: RefusalPolicy
  let idle: IdleAdvance<C>?

  /// Follows `clock` after `interval` of silence.
  struct IdleAdvance<IdleClock: Clock>: Sendable where IdleClock.Duration == Duration {
    var interval: Duration
    var clock: IdleClock
    /// Starts pulling `base` in a task of its own, beside a ticker on the clock.
    var start: @Sendable () -> AsyncThrowingStream<LiveInput<IdleClock.Instant>, any Error>
  }

  /// An iterator that runs its own copy of the session over the base's events.
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), idle: idle, policy: policy, session: session)
  }

  /// Pulls events from the base until a cue is ready.
  public struct Iterator: AsyncIteratorProtocol {
    /// What ``next()`` throws.
    public typealias Failure = CueSequenceFailure

    var base: Base.AsyncIterator
    let idle: IdleAdvance<C>?
    let policy: RefusalPolicy
    var session: CreaseSession
    private var live: AsyncThrowingStream<LiveInput<C.Instant>, any Error>.AsyncIterator?
    /// The latest event's `t` and the clock's time when it came, which idle advance follows.
    private var latest: (t: Nanoseconds, at: C.Instant)?
    private var ready: [Cue] = []
    private var nextIndex = 0
    private var baseIsExhausted = false
    /// Set by a failure: the iteration has ended.
    private var failed = false

    init(base: Base.AsyncIterator, idle: IdleAdvance<C>?, policy: RefusalPolicy, session: CreaseSession) {
      self.base = base
      self.idle = idle
      self.policy = policy
      self.session = session
    }

    /// The next cue, waiting for events (and, with idle advance, the clock) until one is ready;
    /// `nil` once the base has ended and every cue is out, or after a failure.
    public mutating func next() async throws(CueSequenceFailure) -> Cue? {
      while nextIndex == ready.count {
        ready.removeAll(keepingCapacity: true)
        nextIndex = 0
        // Work the engine left at its cue limit comes before the next input.
        if session.engine.hasDeferredWork {
          session.engine.resume()
          session.engine.drainCues(askingBounds: false) { cue, _ in ready.append(cue) }
          continue
        }
        guard !baseIsExhausted, !failed else { return nil }
        let input: LiveInput<C.Instant>
        do { input = try await nextInput() } catch {
          failed = true
          throw .base(error)
        }
        switch input {
        case .event(let event, let arrival):
          let t = event.t
          do { try session.send(event) } catch let refusal {
            switch policy {
            case .end:
              failed = true
              throw .refused(refusal)
            case .skip(let report):
              report(refusal)
            case .skipOnMainActor(let report):
              await MainActor.run { report(refusal) }
            }
          }
          if let arrival, t > (latest?.t ?? .min) { latest = (t, arrival) }
        case .tick:
          guard let idle, let latest else { break }
          let quiet = latest.at.duration(to: idle.clock.now)
          if quiet >= idle.interval { session.advance(to: latest.t + Nanoseconds(quiet)) }
        case .end:
          baseIsExhausted = true
          session.finish()
        }
        session.engine.drainCues(askingBounds: false) { cue, _ in ready.append(cue) }
      }
      defer { nextIndex += 1 }
      return ready[nextIndex]
    }

    /// The next event from the base, or with idle advance the next event or tick.
    private mutating func nextInput() async throws -> LiveInput<C.Instant> {
      guard let idle else { return try await base.next().map { .event($0, arrival: nil) } ?? .end }
      if live == nil { live = idle.start().makeAsyncIterator() }
      return try await live!.next() ?? .end
    }
  }
}

extension CueSequence: Sendable where Base: Sendable {}

/// What the cues of an asynchronous sequence do with an event the engine refuses.
public enum RefusalPolicy: Sendable {
  /// The iteration throws ``CueSequenceFailure/refused(_:)`` and ends.
  case end
  /// `report` is called with the refusal, and the iteration goes on with the next event.
  case skip(report: @Sendable (RefusedEvent) -> Void)
  /// `report` is called on the main actor with the refusal, before the iteration goes on: a
  /// `@MainActor` model keeps its refusals in its own state,
  /// `.skipOnMainActor { self.refusals.append($0) }`, with no lock and no hop of its own.
  case skipOnMainActor(report: @MainActor @Sendable (RefusedEvent) -> Void)
}

/// Why the cues of an asynchronous sequence ended early.
public enum CueSequenceFailure: Error {
  /// The engine refused an event, under ``RefusalPolicy/end``.
  case refused(RefusedEvent)
  /// The base sequence of events threw.
  case base(any Error)

  /// The refused event, with why; `nil` for a base failure.
  public var refusedEvent: RefusedEvent? {
    if case .refused(let refusal) = self { refusal } else { nil }
  }
}

/// What a live iteration waits for: an event (with idle advance, stamped with the clock's time
/// when it was read from the base), a tick of the idle clock, or the end.
enum LiveInput<Instant: Sendable>: Sendable {
  case event(Event, arrival: Instant?)
  case tick
  case end
}

extension AsyncSequence where Element == Event {
  /// The cues Crease emits for these events under `configuration` (validate it first) and its
  /// reorder window, with `onRefusal` deciding what a refused event does.
  public func cues(
    configuration: Configuration = .default, onRefusal: RefusalPolicy = .end
  ) -> CueSequence<Self, ContinuousClock> {
    cues(session: CreaseSession(unchecked: configuration), onRefusal: onRefusal)
  }

  /// The cues `session` emits for these events, with its reorder window and declared frame
  /// rates, and `onRefusal` deciding what a refused event does. Each iteration runs its own
  /// copy of the session.
  public func cues(session: CreaseSession, onRefusal: RefusalPolicy = .end) -> CueSequence<
    Self, ContinuousClock
  > {
    CueSequence(base: self, session: session, policy: onRefusal, idle: nil)
  }
}

extension CreaseSession {
  /// A session with the configuration's own reorder window and no declared rates, taken as
  /// the caller validated it.
  init(unchecked configuration: Configuration) {
    self.init(checked: configuration, reorderWindow: configuration.reorderWindow, frameRates: [:])
  }
}

extension AsyncSequence where Element == Event, Self: Sendable {
  /// The cues Crease emits for these events under `configuration` (validate it first) and its
  /// reorder window, with trace time following `clock` while no event arrives for
  /// `idleAdvance` (the CLI's `--idle-advance`).
  public func cues<C: Clock>(
    configuration: Configuration = .default, onRefusal: RefusalPolicy = .end, idleAdvance: Duration,
    clock: C = ContinuousClock()
  ) -> CueSequence<Self, C> where C.Duration == Duration {
    cues(
      session: CreaseSession(unchecked: configuration), onRefusal: onRefusal, idleAdvance: idleAdvance,
      clock: clock)
  }

  /// The cues `session` emits for these events, with trace time following `clock` while no
  /// event arrives for `idleAdvance` (the CLI's `--idle-advance`).
  ///
  /// The base is iterated in a task of its own and a second task ticks every `idleAdvance` on
  /// `clock`; both end when the iteration ends or is dropped. At a tick after `idleAdvance` of
  /// silence, the session is advanced to the latest event's `t` plus the time since it came
  /// (``CreaseSession/advance(to:)``): the watermark stays the session's reorder window behind,
  /// so a live source whose events are stamped as they happen gets its debounce and settle
  /// cues on time, and an event within the window is still in time.
  public func cues<C: Clock>(
    session: CreaseSession, onRefusal: RefusalPolicy = .end, idleAdvance: Duration,
    clock: C = ContinuousClock()
  ) -> CueSequence<Self, C> where C.Duration == Duration {
    let base = self
    let start: @Sendable () -> AsyncThrowingStream<LiveInput<C.Instant>, any Error> = {
      let (stream, continuation) = AsyncThrowingStream<LiveInput<C.Instant>, any Error>.makeStream()
      // Each event is stamped as it is read, not when the iteration gets to it: idle advance
      // counts the quiet time from when the source last spoke.
      let reader = Task {
        do {
          for try await event in base { continuation.yield(.event(event, arrival: clock.now)) }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      // Taken before the task starts, so a clock that moves before the task runs still ticks.
      let firstTick = clock.now.advanced(by: idleAdvance)
      let ticker = Task {
        var deadline = firstTick
        while !Task.isCancelled {
          do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
          continuation.yield(.tick)
          deadline = deadline.advanced(by: idleAdvance)
          // After a long suspension, tick once and resume the cadence from now.
          if deadline < clock.now { deadline = clock.now.advanced(by: idleAdvance) }
        }
      }
      continuation.onTermination = { _ in
        reader.cancel()
        ticker.cancel()
      }
      return stream
    }
    return CueSequence(
      base: self, session: session, policy: onRefusal,
      idle: .init(interval: idleAdvance, clock: clock, start: start))
  }
}
