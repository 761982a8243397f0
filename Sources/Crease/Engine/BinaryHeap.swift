/// A min-heap in an array: the reorder buffer's storage.
struct BinaryHeap<Element: Comparable>: Sendable where Element: Sendable {
  private var storage: [Element] = []

  var isEmpty: Bool { storage.isEmpty }
  var count: Int { storage.count }

  /// The smallest element.
  /// - Complexity: O(1).
  var min: Element? { storage.first }

  /// - Complexity: O(log *n*).
  mutating func insert(_ element: Element) {
    storage.append(element)
    var child = storage.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard storage[child] < storage[parent] else { break }
      storage.swapAt(child, parent)
      child = parent
    }
    checkInvariants()
  }

  /// Removes and returns the smallest element.
  /// - Complexity: O(log *n*).
  mutating func popMin() -> Element? {
    guard !storage.isEmpty else { return nil }
    storage.swapAt(0, storage.count - 1)
    let smallest = storage.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallestChild = parent
      if left < storage.count && storage[left] < storage[smallestChild] { smallestChild = left }
      if right < storage.count && storage[right] < storage[smallestChild] { smallestChild = right }
      guard smallestChild != parent else { break }
      storage.swapAt(parent, smallestChild)
      parent = smallestChild
    }
    checkInvariants()
    return smallest
  }

  private func checkInvariants() {
    #if DEBUG
      for index in storage.indices.dropFirst() {
        assert(!(storage[index] < storage[(index - 1) / 2]), "heap order broken at \(index)")
      }
    #endif
  }
}
