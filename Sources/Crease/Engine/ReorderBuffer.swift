/// The events waiting for the reorder window, kept sorted in a ring.
///
/// Traces are nearly in order, so an event almost always belongs at the back: inserting walks
/// back from the end (O(1) for an in-order event, O(*k*) for one *k* places early), and the
/// smallest is taken from the front. Elements are moved in and out of the ring, never copied: an
/// event is a payload enum with strings, and each copy goes through its value witnesses. (An
/// array with a consumed prefix, dropped now and then, cost about 100 instructions an event more
/// in its bulk removals and destroys.)
///
/// Not copyable: its ring is its own, so a change needs no copy-on-write check (tuning:
/// not-copyable, in Docs/Performance.md); ``copied()`` copies it on purpose.
struct ReorderBuffer<Element: Comparable>: ~Copyable, Sendable where Element: Sendable {
  private var ring: Ring

  /// An empty buffer with room for `capacity` elements before it first grows.
  init(capacity: Int = 64) { ring = Ring(capacity: capacity) }

  var isEmpty: Bool { ring.count == 0 }

  /// How many elements it holds.
  var count: Int { ring.count }

  /// Inserts `element` in order, then changes it in place where it went, with `body`'s result.
  /// `body` must not change how the element sorts.
  /// - Complexity: O(1) amortized for an element not smaller than the last; O(*k*) for one that
  ///   sorts *k* places before the end.
  // Inlined into the engine's admit, its one caller per event. The element is changed through
  // the slot the insertion ended at, not found again by its index: with the front read at
  // `head` (`Ring.first`), 9 instructions an event fewer in both formats (callgrind, the day
  // trace). Tuning: hot-inline.
  @inline(__always)
  mutating func insert<Result>(
    _ element: consuming Element, thenUpdate body: (inout Element) -> Result
  ) -> Result {
    let (index, slot) = ring.insertSorted(element)
    checkInvariants(around: index)
    #if DEBUG
      let before = slot.pointee
      defer { assert(!(slot.pointee < before) && !(before < slot.pointee), "an update moved an element") }
    #endif
    return body(&slot.pointee)
  }

  /// Removes and returns the smallest element when `condition` holds for it, else `nil`; the
  /// element is looked at in place.
  /// - Complexity: O(1).
  mutating func popFirst(if condition: (borrowing Element) -> Bool) -> Element? {
    guard ring.count > 0, condition(ring.first) else { return nil }
    return ring.removeFirst()
  }

  /// Removes and returns the smallest element.
  /// - Complexity: O(1).
  mutating func popFirst() -> Element? { popFirst(if: { _ in true }) }

  /// A buffer of the same elements with a ring of its own.
  /// - Complexity: O(*n*).
  func copied() -> ReorderBuffer {
    var copy = ReorderBuffer(capacity: 1)
    copy.ring = ring.copy()
    return copy
  }

  /// In debug builds, checks that the ring is in order: whole while it is small, and around
  /// `index`, where an element just went, once it is large (a whole pass per insert made a
  /// debug replay of a hundred thousand buffered events quadratic).
  private func checkInvariants(around index: Int) {
    #if DEBUG
      let checked = ring.count <= 256 ? 1..<max(1, ring.count) : max(1, index)..<min(ring.count, index + 2)
      for index in checked {
        assert(!(ring[index] < ring[index - 1]), "reorder buffer out of order at \(index)")
      }
    #endif
  }

  /// Elements `0..<count` from `head`, wrapping at a power-of-two capacity. Its index
  /// arithmetic wraps rather than checks: every value stays below the capacity.
  ///
  /// Safe because slots `head..<head + count` (wrapped) hold initialized elements, and only
  /// they: an element is initialized at the slot after the last, once the capacity has room,
  /// moved out from the front, and `deinit` moves out the rest; ``subscript(_:)`` is asserted
  /// to be asked below `count`, and ``first`` while there is an element. The slot
  /// ``insertSorted(_:)`` returns holds the element it placed, and the buffer writes through it
  /// before anything else changes the ring.
  ///
  /// Unchecked-sendable, safe because a ring is referenced by one buffer only (the buffer is not
  /// copyable and ``ReorderBuffer/copied()`` makes a new ring), so whoever may change the buffer
  /// is the only one who can reach its ring.
  private final class Ring: @unchecked Sendable {
    private var elements: UnsafeMutablePointer<Element>
    private var capacity: Int
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
      var rounded = 1
      while rounded < capacity { rounded <<= 1 }
      self.capacity = rounded
      elements = .allocate(capacity: rounded)
    }

    deinit {
      while count > 0 { _ = removeFirst() }
      elements.deallocate()
    }

    /// The element `offset` places from the front.
    @inline(__always)
    subscript(offset: Int) -> Element {
      unsafeAddress {
        assert(offset >= 0 && offset < count, "a reorder buffer is read within its count")
        return UnsafePointer(slot(offset))
      }
    }

    /// The element at the front, at `head` itself: no wrapping to work out.
    @inline(__always)
    var first: Element {
      unsafeAddress {
        assert(count > 0, "a reorder buffer's first element is read while it has one")
        return UnsafePointer(elements + head)
      }
    }

    func append(_ element: consuming Element) {
      if count == capacity { grow() }
      slot(count).initialize(to: element)
      count &+= 1
    }

    @inline(__always)
    func removeFirst() -> Element {
      let element = (elements + head).move()
      head = (head &+ 1) & (capacity &- 1)
      count &-= 1
      return element
    }

    /// Appends `element` and moves it toward the front past every larger one; returns where it
    /// went, as places from the front and as its slot, valid until the ring next changes. The
    /// storage, head and mask are read once, not at each slot (callgrind: 38 instructions an
    /// event in the slot arithmetic when each step asked the ring).
    @inline(__always)
    func insertSorted(_ element: consuming Element) -> (index: Int, slot: UnsafeMutablePointer<Element>) {
      if count == capacity { grow() }
      let (base, head, mask) = (elements, self.head, capacity &- 1)
      var index = count
      var current = base + ((head &+ index) & mask)
      current.initialize(to: element)
      count &+= 1
      while index > 0 {
        let previous = base + ((head &+ index &- 1) & mask)
        guard current.pointee < previous.pointee else { break }
        let moving = current.move()
        current.moveInitialize(from: previous, count: 1)
        previous.initialize(to: moving)
        current = previous
        index &-= 1
      }
      return (index, current)
    }

    /// A ring of the same elements, copied.
    func copy() -> Ring {
      let copy = Ring(capacity: capacity)
      for offset in 0..<count { copy.append(self[offset]) }
      return copy
    }

    @inline(__always)
    private func slot(_ offset: Int) -> UnsafeMutablePointer<Element> {
      elements + ((head &+ offset) & (capacity &- 1))
    }

    /// Doubles the room, moving the elements to the front of the new storage in order.
    private func grow() {
      let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
      let firstRun = Swift.min(count, capacity - head)
      larger.moveInitialize(from: elements + head, count: firstRun)
      (larger + firstRun).moveInitialize(from: elements, count: count - firstRun)
      elements.deallocate()
      elements = larger
      capacity *= 2
      head = 0
    }
  }
}
