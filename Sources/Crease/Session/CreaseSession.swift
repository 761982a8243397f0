/// Crease in-process: feed hinge callbacks and capture events as they happen, move time forward
/// while nothing happens, and take the cues.
///
/// A session takes the knobs a replay gets from a configuration and a trace header: a reorder
/// window for callbacks that reach it a little out of order (hinge updates on the main actor,
/// sample buffers on a capture queue, hopping to one actor), and the frame rates the capture
/// session was configured with, so the first gap and stall are found before a rate is measured.
/// Events within the window are put in order; an event further behind is refused with
/// ``RefusedEvent``, never dropped in silence. A cue comes once no event can still precede it:
/// with a window of *w*, after the first event or ``advance(to:)`` more than *w* later. The
/// window is the configuration's `reorderWindow` unless one is given, as for a replay and for
/// the cues of an asynchronous sequence: one configuration, one behaviour.
///
/// ```swift
/// var session = try CreaseSession(reorderWindow: .milliseconds(5), frameRates: [.video: 30])
/// try session.hinge(.degrees(12), status: .closed, at: .zero)
/// try session.hinge(.degrees(40), status: .partiallyOpen, at: .milliseconds(100))
/// session.advance(to: .milliseconds(200))   // the debounce window commits at 150 ms
/// session.drainCues { cue, bound in apply(cue, within: bound) }
/// ```
public struct CreaseSession: EventSending, Sendable {
  private var storage: SessionEngine

  /// The session's engine, made this session's own before it changes. Internal, not private:
  /// the cues of an asynchronous sequence run a session's engine and drain it a bounded batch
  /// at a time.
  var engine: Engine<Pipeline> {
    _read { yield storage.engine }
    _modify {
      if !isKnownUniquelyReferenced(&storage) { storage = SessionEngine(Engine(copying: storage.engine)) }
      yield &storage.engine
    }
  }
  /// How far behind the latest event one may arrive and still be put in order.
  public let reorderWindow: Nanoseconds

  /// A session with a validated configuration.
  ///
  /// - Parameters:
  ///   - configuration: the stages' settings (SPEC 6), validated here.
  ///   - reorderWindow: how far behind the latest event an event may arrive; `nil`, the
  ///     default, takes the configuration's `reorderWindow` (50 ms unless set), as a replay
  ///     does. Give 0 for events sent in order from one place.
  ///   - frameRates: nominal frame rates by stream, in frames per second, as a trace header
  ///     declares them.
  /// - Throws: ``ConfigurationError`` for a bad configuration, a negative window, or a rate that
  ///   is not a positive number.
  public init(
    configuration: Configuration = .default, reorderWindow: Nanoseconds? = nil,
    frameRates: [StreamName: Double] = [:]
  ) throws(ConfigurationError) {
    try configuration.validate()
    let reorderWindow = reorderWindow ?? configuration.reorderWindow
    guard reorderWindow >= .zero else {
      throw ConfigurationError(
        key: "reorderWindow", reason: "must be 0 or more, not \(reorderWindow.rawValue) ns")
    }
    for (stream, fps) in frameRates where !(fps.isFinite && fps > 0) || stream.rawValue.isEmpty {
      throw ConfigurationError(
        key: "frameRates[\"\(stream.rawValue)\"]",
        reason: "must be a positive frame rate of a named stream, not \(fps)")
    }
    self.init(checked: configuration, reorderWindow: reorderWindow, frameRates: frameRates)
  }

  /// A session with knobs already checked (or, for the cues of a sequence made from a
  /// configuration, taken as the caller validated them).
  init(checked configuration: Configuration, reorderWindow: Nanoseconds, frameRates: [StreamName: Double]) {
    self.reorderWindow = reorderWindow
    var engine = Engine(
      processor: Pipeline(configuration: configuration), sourceCount: 1, reorderWindow: reorderWindow)
    if !frameRates.isEmpty { engine.apply(TraceHeader(nominalFrameRates: frameRates)) }
    storage = SessionEngine(engine)
  }

  /// Takes any event (``EventSending`` adds a call for each kind: `hinge(_:status:at:)`,
  /// `frame(_:stream:camera:at:)` and the others). One more than ``reorderWindow`` behind the
  /// latest, or after ``finish()`` or an `end` event, is refused.
  /// - Complexity: amortized O(1) per event and cue; no allocation in steady state.
  public mutating func send(_ event: consuming Event) throws(RefusedEvent) {
    try engine.push(event, from: 0)
  }

  /// Idle advance (SPEC 4.1): trace time follows the wall clock while no event arrives, as if
  /// an event at `t` had been sent; the cues due before `t` − ``reorderWindow`` come out.
  ///
  /// Give it the latest event's `t` plus the time since it was sent (or `t` stamped now, as
  /// events are), so debounce and settle cues come on time from a quiet source. An event that
  /// arrives afterwards within ``reorderWindow`` of `t` is still in time; a `t` before the
  /// latest event's changes nothing.
  public mutating func advance(to t: Nanoseconds) { engine.advance(to: t) }

  /// Ends the session: events held for ordering are processed, and pending timers fire at their
  /// due times (stall timers are cancelled).
  public mutating func finish() { engine.finish(source: 0) }

  /// The trace time the session has reached.
  public var now: Nanoseconds { engine.now }

  /// The camera capture accessory's conditions not met now, as of the events the session has
  /// processed (SPEC 4.9): for a screen that shows what is missing after each change, where
  /// `accessory.eligible` speaks only when eligibility flips. An event still in the reorder
  /// window is not processed yet.
  /// - Complexity: O(1).
  public var missingAccessoryConditions: AccessoryConditions { engine.processor.missingAccessoryConditions }

  /// The most `cue` may lag the input it reflects (`t - since`) under the configuration: its
  /// stage's bound (SPEC 5), `nil` where none applies. A cue is delivered up to
  /// ``reorderWindow`` after its `t`.
  public func latencyBound(for cue: Cue) -> Nanoseconds? { engine.latencyBound(for: cue) }

  /// Calls `body` with each cue produced so far, in order, and forgets them. When `body`
  /// throws, the cues after the one it threw on stay queued for the next drain.
  public mutating func drainCues(_ body: (Cue) throws -> Void) rethrows {
    try drainCues(askingBounds: false) { cue, _ in try body(cue) }
  }

  /// Calls `body` with each cue produced so far and its latency bound (``latencyBound(for:)``),
  /// in order, and forgets them: a drain that states each cue's bound without a second access
  /// to the session inside the closure. As ``drainCues(_:)-((Cue)->Void)`` when `body` throws.
  public mutating func drainCues(_ body: (Cue, Nanoseconds?) throws -> Void) rethrows {
    try drainCues(askingBounds: true, body)
  }

  /// Drains every cue, deferred work included, asking each cue's bound only when told to.
  private mutating func drainCues(askingBounds: Bool, _ body: (Cue, Nanoseconds?) throws -> Void) rethrows {
    repeat {
      try engine.drainCues(askingBounds: askingBounds, body)
      engine.resume()
    } while engine.hasCues
  }
}
