import CreaseSynth
import Testing

@testable import Crease

@Suite("Reorder buffer")
struct ReorderBufferTests {
  /// An element with a string, so that a copy or a destroy too many or too few would show in
  /// its value (and under the address sanitizer).
  struct Item: Comparable, Sendable {
    var key: Int
    var label: String
    static func < (a: Item, b: Item) -> Bool { a.key < b.key }
  }

  static func item(_ key: Int) -> Item {
    Item(key: key, label: "item \(key) with a label too long to be inline")
  }

  @Test(
    "inserts nearly sorted keys and pops them smallest first, across growth and wrap-around",
    arguments: 0..<20)
  func matchesSortedReference(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var buffer = ReorderBuffer<Item>(capacity: 2)
    var reference: [Item] = []
    var next = 0
    for step in 0..<3000 {
      // Phases of filling and draining move the count across several sizes of the ring.
      let filling = step / 300 % 2 == 0
      if random.next() % 3 != 0 || filling && random.next() % 4 != 0 {
        // Mostly in order; now and then up to 20 places early.
        let key = next - Int(random.next() % 4 == 0 ? random.next() % 20 : 0)
        next += 1
        buffer.insert(Self.item(key)) { _ in }
        reference.append(Self.item(key))
        reference.sort { $0.key < $1.key }
      } else {
        let limit = reference.first.map { $0.key + Int(random.next() % 3) }
        let popped = buffer.popFirst(if: { limit != nil && $0.key <= limit! })
        let expected = reference.first.flatMap { $0.key <= limit! ? reference.removeFirst() : nil }
        #expect(popped?.key == expected?.key, "seed \(seed), step \(step)")
        #expect(popped?.label == expected?.label, "seed \(seed), step \(step)")
      }
      #expect(buffer.count == reference.count, "seed \(seed), step \(step)")
    }
    while let popped = buffer.popFirst() { #expect(popped == reference.removeFirst(), "seed \(seed)") }
    #expect(reference.isEmpty && buffer.isEmpty)
  }

  @Test("a copy keeps its elements when the original changes, and the other way round")
  func copied() {
    var original = ReorderBuffer<Item>(capacity: 4)
    for key in [3, 1, 2] { original.insert(Self.item(key)) { _ in } }
    var copy = original.copied()
    #expect(original.popFirst()?.key == 1)
    original.insert(Self.item(0)) { _ in }
    copy.insert(Self.item(9)) { _ in }
    #expect(Array(draining: &copy).map(\.key) == [1, 2, 3, 9])
    #expect(Array(draining: &original).map(\.key) == [0, 2, 3])
  }

  @Test("an insertion changes the element where it went, not the last slot, across wrap-around")
  func updatesInsertedElement() {
    var buffer = ReorderBuffer<Item>(capacity: 4)
    // Two in and out first, so that the ring's head is not at its storage's start.
    for key in [0, 1] { buffer.insert(Self.item(key)) { _ in } }
    _ = buffer.popFirst()
    _ = buffer.popFirst()
    for key in [10, 20, 30] { buffer.insert(Self.item(key)) { _ in } }
    let label = buffer.insert(Self.item(15)) { item in
      item.label = "changed in place"
      return item.label
    }
    #expect(label == "changed in place")
    #expect(
      Array(draining: &buffer).map(\.label) == [
        Self.item(10).label, "changed in place", Self.item(20).label, Self.item(30).label,
      ])
  }

  @Test("a condition that fails leaves the smallest element in place")
  func conditionKeepsElement() {
    var buffer = ReorderBuffer<Item>()
    buffer.insert(Self.item(5)) { _ in }
    #expect(buffer.popFirst(if: { $0.key < 5 }) == nil)
    #expect(buffer.count == 1)
    #expect(buffer.popFirst(if: { $0.key == 5 })?.label == Self.item(5).label)
  }
}

extension Array where Element == ReorderBufferTests.Item {
  init(draining buffer: inout ReorderBuffer<Element>) {
    self = []
    while let item = buffer.popFirst() { append(item) }
  }
}
