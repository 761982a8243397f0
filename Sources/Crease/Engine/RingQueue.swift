/// A first-in, first-out queue in one array used as a ring: taking the first element and
/// appending one are O(1), and no element moves while the queue keeps its size.
///
/// The timer scheduler's lane: with many streams, each frame takes a stall timer's stale entry
/// off the front and appends the re-armed one at the back. As an array with a moving start, the
/// lane was moved down whole every time its start passed half of it (Docs/Performance.md,
/// "Streams, the second round"). Nothing is allocated once the ring has grown to the queue's
/// greatest length.
struct RingQueue<Element> {
  /// The elements from `head` on, wrapping to the start; slots outside them hold copies of some
  /// element, never read.
  private var storage: [Element] = []
  private var head = 0
  /// How many elements the queue holds.
  private(set) var count = 0

  /// An empty queue.
  init() {}

  /// Whether the queue holds no element.
  var isEmpty: Bool { count == 0 }

  /// The element at `offset` from the front.
  /// - Complexity: O(1).
  @inline(__always)
  subscript(offset: Int) -> Element {
    get {
      assert(offset >= 0 && offset < count, "an offset inside the queue")
      return storage[slot(at: offset)]
    }
    set {
      assert(offset >= 0 && offset < count, "an offset inside the queue")
      storage[slot(at: offset)] = newValue
    }
  }

  /// The first element, if any.
  /// - Complexity: O(1).
  @inline(__always)
  var first: Element? { count == 0 ? nil : storage[head] }

  /// The last element, if any.
  /// - Complexity: O(1).
  @inline(__always)
  var last: Element? { count == 0 ? nil : storage[slot(at: count &- 1)] }

  /// Adds `element` at the back.
  /// - Complexity: O(1) amortized.
  @inline(__always)
  mutating func append(_ element: Element) {
    if count == storage.count { grow(filling: element) }
    storage[slot(at: count)] = element
    count &+= 1
  }

  /// Takes the first element away; the queue is not empty.
  /// - Complexity: O(1).
  @inline(__always)
  mutating func removeFirst() {
    precondition(count > 0, "an element to remove")
    head = slot(at: 1)
    count &-= 1
  }

  /// Takes the first element away and adds `element` at the back, in one step that never
  /// grows the storage; the queue is not empty.
  /// - Complexity: O(1).
  @inline(__always)
  mutating func replaceFirstAtBack(with element: Element) {
    assert(count > 0, "an element to replace")
    // The back's slot is free, or, with every slot in use, the first's own: written before
    // the front moves past it either way.
    storage[slot(at: count)] = element
    head = slot(at: 1)
  }

  /// Takes away every element `isRemoved` says so of, keeping the others in order.
  /// - Complexity: O(*n*), where *n* is the number of elements.
  mutating func removeAll(where isRemoved: (Element) -> Bool) {
    var kept = 0
    for offset in 0..<count {
      let element = self[offset]
      if isRemoved(element) { continue }
      // `kept` is at most `offset`: an element moves only toward the front, over one taken away.
      self[kept] = element
      kept &+= 1
    }
    count = kept
  }

  /// The elements, front first.
  /// - Complexity: O(*n*).
  var elements: [Element] { (0..<count).map { self[$0] } }

  /// The storage slot of the element at `offset`, which is at most `count` and below the
  /// storage's size: one subtraction wraps it.
  @inline(__always)
  private func slot(at offset: Int) -> Int {
    let slot = head &+ offset
    return slot >= storage.count ? slot &- storage.count : slot
  }

  /// Doubles the storage, the elements laid out from its start.
  private mutating func grow(filling filler: Element) {
    var grown = elements
    grown.reserveCapacity(Swift.max(16, storage.count &* 2))
    grown.append(contentsOf: repeatElement(filler, count: grown.capacity &- grown.count))
    storage = grown
    head = 0
  }
}

extension RingQueue: Sendable where Element: Sendable {}
