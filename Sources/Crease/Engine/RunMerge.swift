/// Which of several time-ordered runs holds the next element, when the runs are merged as a
/// stable sort of all their elements would order them: by time, a tie going to the run with the
/// lower number.
///
/// A binary min-heap of each unfinished run's next time, paired with the run's number. Its owner
/// keeps the elements; the merge only says which run's comes next. A synthetic trace merges its
/// producers' events with it, and an imported recording its tracks' frames; it lives here, beside
/// the engine's other orderings, because the core is the one module both depend on. The engine
/// itself does not use it: its sources are merged by the reorder buffer, event by event.
package struct RunMerge: Sendable {
  private var heap: [(time: Nanoseconds, run: Int)] = []

  /// A merge of no run.
  package init() {}

  /// The run whose next element comes first, and that element's time; `nil` once every run is
  /// finished.
  /// - Complexity: O(1).
  package var first: (time: Nanoseconds, run: Int)? { heap.first }

  /// Whether every run is finished.
  package var isEmpty: Bool { heap.isEmpty }

  /// Adds `run`, whose next element is at `time`.
  /// - Complexity: O(log *k*), where *k* is the number of unfinished runs.
  package mutating func insert(run: Int, time: Nanoseconds) {
    heap.append((time, run))
    var child = heap.count - 1
    while child > 0, Self.precedes(heap[child], heap[(child - 1) / 2]) {
      heap.swapAt(child, (child - 1) / 2)
      child = (child - 1) / 2
    }
    checkInvariants(around: child)
  }

  /// The first run's element was taken, and its next one is at `time`.
  /// - Complexity: O(log *k*).
  package mutating func advanceFirst(to time: Nanoseconds) {
    precondition(!heap.isEmpty, "a merge advances a run it holds")
    heap[0].time = time
    siftDownFirst()
  }

  /// The first run's element was taken, and the run has no more.
  /// - Complexity: O(log *k*).
  package mutating func removeFirst() {
    precondition(!heap.isEmpty, "a merge finishes a run it holds")
    heap[0] = heap[heap.count - 1]
    heap.removeLast()
    if !heap.isEmpty { siftDownFirst() }
  }

  /// Finishes every run.
  /// - Complexity: O(*k*).
  package mutating func removeAll() { heap.removeAll() }

  private static func precedes(_ a: (time: Nanoseconds, run: Int), _ b: (time: Nanoseconds, run: Int)) -> Bool
  {
    (a.time, a.run) < (b.time, b.run)
  }

  private mutating func siftDownFirst() {
    var parent = 0
    while true {
      let (left, right) = (2 * parent + 1, 2 * parent + 2)
      var first = parent
      if left < heap.count, Self.precedes(heap[left], heap[first]) { first = left }
      if right < heap.count, Self.precedes(heap[right], heap[first]) { first = right }
      if first == parent { break }
      heap.swapAt(parent, first)
      parent = first
    }
    checkInvariants(around: parent)
  }

  /// In debug builds, checks that no entry precedes its parent: every entry while the heap is
  /// small, and around `index`, where an entry just settled, once it is large (a whole pass at
  /// every step made a debug synth of a long day, with thousands of producers, quadratic).
  private func checkInvariants(around index: Int) {
    #if DEBUG
      let children =
        heap.count <= 64 ? Array(heap.indices.dropFirst()) : [index, 2 * index + 1, 2 * index + 2]
      for child in children where child > 0 && child < heap.count {
        assert(!Self.precedes(heap[child], heap[(child - 1) / 2]), "run merge out of heap order at \(child)")
      }
    #endif
  }
}
