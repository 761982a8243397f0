/// The pending timers of a processor, in trace time.
///
/// Timers are few at any moment (a debounce, a settle, a stall per stream), so they live in a
/// small array searched linearly: no heap, no allocation once the array has grown to its
/// working size. Scheduling a tag that is already pending re-arms it.
public struct TimerScheduler<Tag: Equatable & Sendable>: Sendable {
  /// What happens to a timer still pending when the input ends without an `end` event.
  public enum EndOfStream: Sendable {
    /// It fires at its due time, as if the trace had gone on.
    case fire
    /// It is dropped (a stall timer: a stream that ended did not stall).
    case cancel
  }

  /// One pending timer.
  public struct Timer: Sendable {
    public var tag: Tag
    public var due: Nanoseconds
    public var endOfStream: EndOfStream
    /// Setting order, which breaks ties between timers due at the same time.
    var sequence: UInt64
  }

  private(set) var timers: [Timer] = []
  private var nextSequence: UInt64 = 0

  public init() {}

  /// Arms `tag` to fire at `due`, replacing the pending timer with the same tag, if any.
  /// - Complexity: O(*n*), where *n* is the number of pending timers.
  public mutating func schedule(_ tag: Tag, at due: Nanoseconds, endOfStream: EndOfStream = .fire) {
    let timer = Timer(tag: tag, due: due, endOfStream: endOfStream, sequence: nextSequence)
    nextSequence += 1
    if let index = timers.firstIndex(where: { $0.tag == tag }) {
      timers[index] = timer
    } else {
      timers.append(timer)
    }
  }

  /// Disarms `tag`; does nothing when it is not pending.
  /// - Complexity: O(*n*), where *n* is the number of pending timers.
  public mutating func cancel(_ tag: Tag) {
    if let index = timers.firstIndex(where: { $0.tag == tag }) { timers.remove(at: index) }
  }

  /// The pending timers, in firing order.
  public var pending: [Timer] { timers.sorted(by: Self.firesBefore) }

  /// Removes and returns the first timer to fire if it is due at or before `limit`.
  /// - Complexity: O(*n*), where *n* is the number of pending timers.
  mutating func popFirst(dueAtOrBefore limit: Nanoseconds) -> Timer? {
    guard let index = timers.indices.min(by: { Self.firesBefore(timers[$0], timers[$1]) }),
      timers[index].due <= limit
    else { return nil }
    return timers.remove(at: index)
  }

  /// Drops every timer whose end-of-stream policy is `.cancel`.
  mutating func cancelAtEndOfStream() {
    timers.removeAll { $0.endOfStream == .cancel }
  }

  private static func firesBefore(_ a: Timer, _ b: Timer) -> Bool {
    (a.due, a.sequence) < (b.due, b.sequence)
  }
}
