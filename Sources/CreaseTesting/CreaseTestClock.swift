import CreaseLocking

/// A clock that moves only when a test moves it, for testing code that waits on a clock, such
/// as the cues of an asynchronous sequence with idle advance (`cues(idleAdvance:clock:)`).
///
/// Named for its package: an app's tests often use swift-clocks too, whose `TestClock` the
/// unqualified name would clash with (the name before 4.0.0 is kept, deprecated).
///
/// Sleepers wake, in deadline order, when ``advance(by:)`` or ``advance(to:)`` reaches their
/// deadline; a sleeper whose deadline has already passed returns at once, and a cancelled one
/// throws `CancellationError`. Time in a test is then the test's to set, never the wall
/// clock's. ``sleeping(atLeast:)`` waits until code under test is asleep on the clock, so a
/// test moves it only once the sleeper is there to wake, with no `Task.yield()` loop. Move it
/// after the iteration has taken the events it should see: time a sequence spends before it
/// reads an event is not quiet time after it.
///
/// ```swift
/// let clock = CreaseTestClock()
/// var cues = events.cues(idleAdvance: .milliseconds(10), clock: clock).makeAsyncIterator()
/// let first = try await cues.next()        // the iteration has started and taken the events
/// await clock.sleeping()                   // its idle ticker waits on the clock
/// clock.advance(by: .milliseconds(200))    // the debounce cue comes without another event
/// var status = try await cues.next()
/// while let cue = status, cue.kind.tag != .hingeStatus { status = try await cues.next() }
/// ```
public final class CreaseTestClock: Clock, Sendable {
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
    /// Tests waiting for a number of sleepers.
    var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Takes out the watchers that as many sleepers as there are now satisfy.
    mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
      let satisfied = watchers.filter { $0.count <= sleepers.count }
      watchers.removeAll { $0.count <= sleepers.count }
      return satisfied.map(\.continuation)
    }
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
        let (wakeNow, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
          if deadline <= state.now || Task.isCancelled { return (true, []) }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return (false, state.satisfiedWatchers())
        }
        for watcher in watchers { watcher.resume() }
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
    move { $0.advanced(by: duration) }
  }

  /// Moves the clock to `offset` after its start (if it is not there or past it already) and
  /// wakes every sleeper whose deadline it reached, earliest first.
  public func advance(to offset: Duration) {
    move { now in Swift.max(now, Instant(offset: offset)) }
  }

  /// Returns once at least `count` sleepers are waiting on the clock (at once if they are):
  /// code under test has reached its sleep, and a move of the clock will wake it.
  public func sleeping(atLeast count: Int = 1) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state in
        if state.sleepers.count >= count { return true }
        state.watchers.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Sets the time to `target(now)` and wakes the sleepers it reached, earliest first.
  private func move(_ target: (Instant) -> Instant) {
    let woken = state.withLock { state in
      state.now = target(state.now)
      let due = state.sleepers.filter { $0.value.deadline <= state.now }
      for id in due.keys { state.sleepers.removeValue(forKey: id) }
      return due.values.sorted { $0.deadline < $1.deadline }
    }
    for sleeper in woken { sleeper.continuation.resume() }
  }
}

/// The name before 4.0.0, which clashed with swift-clocks' `TestClock` in tests that use both.
@available(*, deprecated, renamed: "CreaseTestClock")
public typealias TestClock = CreaseTestClock
