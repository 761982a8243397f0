/// The events waiting for the reorder window, kept sorted.
///
/// Traces are nearly in order, so an event almost always belongs at the back: inserting walks
/// back from the end (O(1) for an in-order event, O(*k*) for one *k* places early) and removal
/// takes from the front without shifting, the consumed prefix being dropped now and then.
struct ReorderBuffer<Element: Comparable>: Sendable where Element: Sendable {
  private var storage: [Element] = []
  private var head = 0

  var isEmpty: Bool { head == storage.count }

  /// How many elements it holds.
  var count: Int { storage.count - head }

  /// The smallest element.
  /// - Complexity: O(1).
  var first: Element? { isEmpty ? nil : storage[head] }

  /// - Complexity: O(1) amortized for an element not smaller than the last; O(*k*) for one that
  ///   sorts *k* places before the end.
  mutating func insert(_ element: consuming Element) {
    storage.append(element)
    var index = storage.count - 1
    while index > head && storage[index] < storage[index - 1] {
      storage.swapAt(index, index - 1)
      index -= 1
    }
    checkInvariants()
  }

  /// Hands each smallest element to `body`, in order, while `condition` holds for it, and
  /// removes it. Elements are looked at and handed over in place, never copied out: an event
  /// is a payload enum with strings, and each copy goes through its value witnesses.
  /// - Complexity: O(*k*) amortized for *k* elements removed.
  mutating func removeFirst(while condition: (Element) -> Bool, _ body: (Element) -> Void) {
    while !isEmpty, condition(storage[head]) {
      body(storage[head])
      head += 1
    }
    dropTaken()
  }

  /// Removes and returns the smallest element.
  /// - Complexity: O(1) amortized.
  mutating func popFirst() -> Element? {
    guard !isEmpty else { return nil }
    let element = storage[head]
    head += 1
    dropTaken()
    return element
  }

  /// Frees the slots of taken elements: all of them once the buffer is empty, or the taken
  /// prefix when it has grown large and is most of the storage.
  private mutating func dropTaken() {
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 4096 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }

  private func checkInvariants() {
    #if DEBUG
      for index in storage.indices.dropFirst(head + 1) {
        assert(!(storage[index] < storage[index - 1]), "reorder buffer out of order at \(index)")
      }
    #endif
  }
}
