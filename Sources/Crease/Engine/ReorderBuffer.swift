/// The events waiting for the reorder window, kept sorted in a ring.
///
/// Traces are nearly in order, so an event almost always belongs at the back: inserting walks
/// back from the end (O(1) for an in-order event, O(*k*) for one *k* places early), and the
/// smallest is taken from the front. Elements are moved in and out of the ring, never copied: an
/// event is a payload enum with strings, and each copy goes through its value witnesses. (An
/// array with a consumed prefix, dropped now and then, cost about 100 instructions an event more
/// in its bulk removals and destroys.)
///
/// A value type: the ring is shared between copies until one of them changes.
struct ReorderBuffer<Element: Comparable>: Sendable where Element: Sendable {
  private var ring: Ring

  /// An empty buffer with room for `capacity` elements before it first grows.
  init(capacity: Int = 64) { ring = Ring(capacity: capacity) }

  var isEmpty: Bool { ring.count == 0 }

  /// How many elements it holds.
  var count: Int { ring.count }

  /// Inserts `element` in order.
  ///
  /// `isKnownUnique` skips the copy-on-write check, for a caller that made the buffer unique
  /// (``makeUnique()``) and has not let it be copied since.
  /// - Complexity: O(1) amortized for an element not smaller than the last; O(*k*) for one that
  ///   sorts *k* places before the end.
  // Inlined into the engine's admit, its one caller per event: as a call, the element was
  // passed through memory and the call cost 29 instructions an event more (callgrind).
  @inline(__always)
  mutating func insert(_ element: consuming Element, isKnownUnique: Bool = false) {
    makeUnique(unlessKnown: isKnownUnique)
    checkInvariants(around: ring.insertSorted(element))
  }

  /// Removes and returns the smallest element when `condition` holds for it, else `nil`; the
  /// element is looked at in place.
  ///
  /// `isKnownUnique` skips the copy-on-write check, for a caller that has inserted since it
  /// last let the buffer be copied: the engine releases right after each insert, and the check
  /// costs a runtime call per element (callgrind: 12 instructions an event).
  /// - Complexity: O(1).
  mutating func popFirst(if condition: (borrowing Element) -> Bool, isKnownUnique: Bool = false) -> Element? {
    guard ring.count > 0, condition(ring[0]) else { return nil }
    makeUnique(unlessKnown: isKnownUnique)
    return ring.removeFirst()
  }

  /// Removes and returns the smallest element.
  /// - Complexity: O(1).
  mutating func popFirst() -> Element? { popFirst(if: { _ in true }) }

  /// Gives this buffer a ring of its own, copying a shared one.
  /// - Complexity: O(1) when the ring is not shared, else O(*n*).
  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&ring) { ring = ring.copy() }
  }

  /// ``makeUnique()``, or for a caller that knows the ring is unique, only a check of that in
  /// debug builds.
  @inline(__always)
  private mutating func makeUnique(unlessKnown isKnownUnique: Bool) {
    if isKnownUnique {
      assert(isKnownUniquelyReferenced(&ring), "a shared ring taken for unique")
    } else {
      makeUnique()
    }
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
  /// Unchecked-sendable because only a uniquely referenced ring is ever changed (the buffer
  /// copies a shared one first), so no two threads can change one ring.
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
      unsafeAddress { UnsafePointer(slot(offset)) }
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
    /// went. The storage, head and mask are read once, not at each slot (callgrind: 38
    /// instructions an event in the slot arithmetic when each step asked the ring).
    @inline(__always)
    func insertSorted(_ element: consuming Element) -> Int {
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
      return index
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
