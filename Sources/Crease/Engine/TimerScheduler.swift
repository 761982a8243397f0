/// The pending timers of a processor, in trace time.
///
/// A binary heap ordered by (due time, setting order). Once more than 32 timers are pending,
/// each tag's place in the heap is kept in a dictionary, so scheduling, re-arming, cancelling
/// and firing are O(log *n*) however many timers a trace sets (a stall timer per stream: a
/// hostile trace may have a hundred thousand streams). A few timers, the usual case, are found
/// by comparing tags, which costs less than hashing one. Nothing is allocated once the heap and
/// the dictionary have grown to their working size. Scheduling a tag that is already pending
/// re-arms it. Heap indices and the setting count use wrapping arithmetic, unchecked: an index
/// stays below the heap's count, and 2^64 settings do not happen.
public struct TimerScheduler<Tag: Hashable & Sendable>: Sendable {
  /// What happens to a timer still pending when the input ends without an `end` event.
  public enum EndOfStream: Sendable {
    /// It fires at its due time, as if the trace had gone on.
    case fire
    /// It is dropped (a stall timer: a stream that ended did not stall).
    case cancel
  }

  /// One pending timer.
  public struct Timer: Sendable {
    /// Which timer it is.
    public var tag: Tag
    /// When the timer fires.
    public var due: Nanoseconds
    /// What happens to the timer when its input ends.
    public var endOfStream: EndOfStream
    /// Setting order, which breaks ties between timers due at the same time.
    var sequence: UInt64
  }

  private var heap: [Timer] = []
  /// Each tag's place in the heap, while `isIndexed`.
  private var positions: [Tag: Int] = [:]
  private(set) var isIndexed = false
  private var nextSequence: UInt64 = 0

  /// How many pending timers are searched, not indexed; the index is dropped again at a
  /// quarter of it, so a count that wavers around the limit does not rebuild it each time.
  static var indexedAbove: Int { 32 }

  /// A scheduler with no timer.
  public init() {}

  /// Arms `tag` to fire at `due`, replacing the pending timer with the same tag, if any.
  /// - Complexity: O(log *n*), where *n* is the number of pending timers.
  public mutating func schedule(_ tag: Tag, at due: Nanoseconds, endOfStream: EndOfStream = .fire) {
    let timer = Timer(tag: tag, due: due, endOfStream: endOfStream, sequence: nextSequence)
    nextSequence &+= 1
    if let index = index(of: tag) {
      heap[index] = timer
      // A re-armed timer is set last, so it can only sort later unless it is due earlier. Alone
      // in the heap, the usual stall timer between hinge movements, it is in place already
      // (as calls to the sifting: about 22 instructions a frame more, callgrind).
      if heap.count > 1 { restore(at: index) }
    } else {
      heap.append(timer)
      if isIndexed {
        positions[tag] = heap.count - 1
      } else if heap.count > Self.indexedAbove {
        for (index, pending) in heap.enumerated() { positions[pending.tag] = index }
        isIndexed = true
      }
      siftUp(heap.count - 1)
    }
    checkInvariants()
  }

  /// Disarms `tag`; does nothing when it is not pending.
  /// - Complexity: O(log *n*), where *n* is the number of pending timers.
  public mutating func cancel(_ tag: Tag) {
    guard let index = index(of: tag) else { return }
    remove(at: index)
    checkInvariants()
  }

  /// The due time of the first timer to fire, if any.
  /// - Complexity: O(1).
  public var nextDue: Nanoseconds? { heap.first?.due }

  /// The pending timers, in firing order.
  /// - Complexity: O(*n* log *n*).
  public var pending: [Timer] { heap.sorted(by: Self.firesBefore) }

  /// Removes and returns the first timer to fire if it is due at or before `limit`.
  /// - Complexity: O(log *n*), where *n* is the number of pending timers.
  mutating func popFirst(dueAtOrBefore limit: Nanoseconds) -> Timer? {
    guard let first = heap.first, first.due <= limit else { return nil }
    remove(at: 0)
    return first
  }

  /// Drops every timer whose end-of-stream policy is `.cancel`.
  /// - Complexity: O(*n* log *n*).
  mutating func cancelAtEndOfStream() {
    for timer in heap where timer.endOfStream == .cancel { cancel(timer.tag) }
  }

  private static func firesBefore(_ a: Timer, _ b: Timer) -> Bool {
    (a.due, a.sequence) < (b.due, b.sequence)
  }

  /// Where `tag` is in the heap, if it is pending: each frame re-arms its stream's stall timer.
  /// Tuning: hot-inline.
  @inline(__always)
  private func index(of tag: Tag) -> Int? {
    isIndexed ? positions[tag] : heap.firstIndex { $0.tag == tag }
  }

  private mutating func remove(at index: Int) {
    if isIndexed { positions[heap[index].tag] = nil }
    let last = heap.removeLast()
    if isIndexed && heap.count <= Self.indexedAbove / 4 {
      positions.removeAll(keepingCapacity: true)
      isIndexed = false
    }
    guard index < heap.count else { return }
    heap[index] = last
    if isIndexed { positions[last.tag] = index }
    restore(at: index)
  }

  /// Moves the timer at `index` up or down to its place.
  private mutating func restore(at index: Int) {
    if index > 0 && Self.firesBefore(heap[index], heap[(index &- 1) / 2]) {
      siftUp(index)
    } else {
      siftDown(index)
    }
  }

  private mutating func siftUp(_ start: Int) {
    var index = start
    while index > 0 {
      let parent = (index &- 1) / 2
      guard Self.firesBefore(heap[index], heap[parent]) else { return }
      swapAt(index, parent)
      index = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var index = start
    while true {
      let left = 2 &* index &+ 1
      guard left < heap.count else { return }
      var first = left
      if left &+ 1 < heap.count && Self.firesBefore(heap[left &+ 1], heap[left]) { first = left &+ 1 }
      guard Self.firesBefore(heap[first], heap[index]) else { return }
      swapAt(index, first)
      index = first
    }
  }

  private mutating func swapAt(_ a: Int, _ b: Int) {
    heap.swapAt(a, b)
    guard isIndexed else { return }
    positions[heap[a].tag] = a
    positions[heap[b].tag] = b
  }

  /// Debug builds check the heap whole while it is small (tests), so the check stays cheap on a
  /// hostile trace's hundred thousand timers.
  private func checkInvariants() {
    #if DEBUG
      assert(positions.count == (isIndexed ? heap.count : 0), "every timer has one position when indexed")
      guard heap.count <= 64 else { return }
      for (index, timer) in heap.enumerated() {
        assert(!isIndexed || positions[timer.tag] == index, "position of timer \(index)")
        if index > 0 { assert(!Self.firesBefore(timer, heap[(index - 1) / 2]), "heap order at \(index)") }
      }
    #endif
  }
}
