import CreaseLocking

/// A clock that moves only when a test moves it, for testing code that waits on a clock, such
/// as the cues of an asynchronous sequence with idle advance (`cues(idleAdvance:clock:)`).
///
/// Sleepers wake, in deadline order, when ``advance(by:)`` reaches their deadline; a sleeper
/// whose deadline has already passed returns at once, and a cancelled one throws
/// `CancellationError`. Time in a test is then the test's to set, never the wall clock's.
///
/// ```swift
/// let clock = TestClock()
/// var cues = events.cues(idleAdvance: .milliseconds(10), clock: clock).makeAsyncIterator()
/// clock.advance(by: .milliseconds(200))   // the debounce cue comes without another event
/// ```
public final class TestClock: Clock, Sendable {
  /// A point on a test clock: the time since the clock was made.
  public struct Instant: InstantProtocol {
    /// The time since the clock started.
    public var offset: Duration

    /// An instant `offset` after the clock's start.
    public init(offset: Duration) { self.offset = offset }
    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    /// Whether `a` comes before `b`.
    public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
  }

  private struct Sleeper {
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Int: Sleeper] = [:]
    var nextID = 0
  }

  private let state = Locked(State())

  /// A clock at offset zero.
  public init() {}

  /// The clock's time: where the test last moved it.
  public var now: Instant { state.withLock { $0.now } }
  /// One nanosecond.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// Returns once the test has moved the clock to `deadline` (at once if it is there already).
  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let wakeNow = state.withLock { state in
          if deadline <= state.now || Task.isCancelled { return true }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return false
        }
        if wakeNow { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(
        throwing: CancellationError())
    }
    try Task.checkCancellation()
  }

  /// Moves the clock forward and wakes every sleeper whose deadline it reached, earliest first.
  public func advance(by duration: Duration) {
    let woken = state.withLock { state in
      state.now = state.now.advanced(by: duration)
      let due = state.sleepers.filter { $0.value.deadline <= state.now }
      for id in due.keys { state.sleepers.removeValue(forKey: id) }
      return due.values.sorted { $0.deadline < $1.deadline }
    }
    for sleeper in woken { sleeper.continuation.resume() }
  }
}
