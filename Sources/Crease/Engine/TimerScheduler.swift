/// The pending timers of a processor, in trace time.
///
/// A binary heap ordered by (due time, setting order). Each tag's place in the heap is kept so
/// that scheduling, re-arming, cancelling and firing are O(log *n*) however many timers a trace
/// sets (a stall timer per stream: a hostile trace may have a hundred thousand streams). A tag
/// that numbers itself (``DenselyNumberedTimerTag``, as the pipeline's do) keeps its place in an
/// array by that number: no hashing, however many timers. Any other tag is found by comparing
/// tags while 32 or fewer are pending, and through a dictionary above that. Nothing is
/// allocated once the heap and its index have grown to their working size. Scheduling a tag
/// that is already pending re-arms it. Heap indices and the setting count use wrapping arithmetic, unchecked: an index
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
  /// Each numbered tag's place in the heap, by its number; -1 when it is not pending.
  private var numberedPositions: [Int] = []
  /// Each tag's place in the heap, while `isIndexed` (tags that do not number themselves).
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
      if let number = Self.number(of: tag) {
        if number >= numberedPositions.count {
          numberedPositions.append(contentsOf: repeatElement(-1, count: number + 1 - numberedPositions.count))
        }
        numberedPositions[number] = heap.count - 1
      } else if isIndexed {
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
    if let number = Self.number(of: tag) {
      guard number < numberedPositions.count, numberedPositions[number] >= 0 else { return nil }
      return numberedPositions[number]
    }
    return isIndexed ? positions[tag] : heap.firstIndex { $0.tag == tag }
  }

  /// `tag`'s own number, when its type numbers its tags. Tuning: hot-inline (specialized, the
  /// cast is decided when the scheduler is compiled for its tag type).
  @inline(__always)
  private static func number(of tag: Tag) -> Int? {
    (tag as? any DenselyNumberedTimerTag)?.denseNumber
  }

  /// Notes that the timer at `index` is there.
  @inline(__always)
  private mutating func place(_ index: Int) {
    if let number = Self.number(of: heap[index].tag) {
      numberedPositions[number] = index
    } else if isIndexed {
      positions[heap[index].tag] = index
    }
  }

  private mutating func remove(at index: Int) {
    if let number = Self.number(of: heap[index].tag) {
      numberedPositions[number] = -1
    } else if isIndexed {
      positions[heap[index].tag] = nil
    }
    let last = heap.removeLast()
    if isIndexed && heap.count <= Self.indexedAbove / 4 {
      positions.removeAll(keepingCapacity: true)
      isIndexed = false
    }
    guard index < heap.count else { return }
    heap[index] = last
    place(index)
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

  // The sifts carry the moving timer in hand and shift the others into its hole, placing it
  // once at the end: one write and one place update a level, not a swap's two (at 1,000
  // streams a frame's stall timer sinks ten levels).

  private mutating func siftUp(_ start: Int) {
    let moving = heap[start]
    var index = start
    while index > 0 {
      let parent = (index &- 1) / 2
      guard Self.firesBefore(moving, heap[parent]) else { break }
      heap[index] = heap[parent]
      place(index)
      index = parent
    }
    guard index != start else { return }
    heap[index] = moving
    place(index)
  }

  private mutating func siftDown(_ start: Int) {
    let moving = heap[start]
    var index = start
    while true {
      let left = 2 &* index &+ 1
      guard left < heap.count else { break }
      var first = left
      if left &+ 1 < heap.count && Self.firesBefore(heap[left &+ 1], heap[left]) { first = left &+ 1 }
      guard Self.firesBefore(heap[first], moving) else { break }
      heap[index] = heap[first]
      place(index)
      index = first
    }
    guard index != start else { return }
    heap[index] = moving
    place(index)
  }

  /// Debug builds check the heap whole while it is small (tests), so the check stays cheap on a
  /// hostile trace's hundred thousand timers.
  private func checkInvariants() {
    #if DEBUG
      assert(positions.count == (isIndexed ? heap.count : 0), "every timer has one position when indexed")
      guard heap.count <= 64 else { return }
      for (index, timer) in heap.enumerated() {
        assert(!isIndexed || positions[timer.tag] == index, "position of timer \(index)")
        assert(Self.number(of: timer.tag).map { numberedPositions[$0] == index } ?? true, "place of \(index)")
        if index > 0 { assert(!Self.firesBefore(timer, heap[(index - 1) / 2]), "heap order at \(index)") }
      }
    #endif
  }
}

/// A timer tag that gives itself a number, so a ``TimerScheduler`` keeps its timer's place in an
/// array rather than hashing the tag: the cost of a timer stays flat in the number of tags.
public protocol DenselyNumberedTimerTag: Hashable, Sendable {
  /// This tag's number: 0 or more, distinct for distinct tags, and dense (the scheduler keeps
  /// an array as long as the greatest number pending).
  var denseNumber: Int { get }
}
