import CreaseSynth
import Testing

@testable import Crease

@Suite("Ring queue")
struct RingQueueTests {
  @Test("appends, takes the first and removes in place as an array does", arguments: 0..<20)
  func matchesArray(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var queue = RingQueue<Int>()
    var model: [Int] = []
    for step in 0..<3_000 {
      // Phases that grow and shrink the queue, so it wraps round its storage and grows while
      // wrapped.
      let growing = step / 400 % 2 == 0
      switch random.next() % 10 {
      case 0 where !model.isEmpty:
        let divisor = Int(random.next() % 4) + 2
        queue.removeAll { $0 % divisor == 0 }
        model.removeAll { $0 % divisor == 0 }
      case 1...5 where growing, 1...2:
        queue.append(step)
        model.append(step)
      case 6 where !model.isEmpty:
        // In both phases, so that it also meets a full storage as the queue grows.
        queue.replaceFirstAtBack(with: step)
        model.removeFirst()
        model.append(step)
      default:
        if !model.isEmpty {
          queue.removeFirst()
          model.removeFirst()
        }
      }
      #expect(queue.count == model.count, "seed \(seed), step \(step)")
      #expect(queue.first == model.first && queue.last == model.last, "seed \(seed), step \(step)")
    }
    #expect(queue.elements == model, "seed \(seed)")
  }

  @Test("takes the first to the back with every slot in use, and with slots free")
  func replacesFirstAtBack() {
    // Among these sizes, one fills the storage exactly whatever the allocator rounds it to,
    // so the back's slot is the first's own.
    for size in 1...40 {
      var queue = RingQueue<Int>()
      var model = Array(0..<size)
      for element in model { queue.append(element) }
      for step in 0..<(2 * size + 3) {
        queue.replaceFirstAtBack(with: 100 + step)
        model.removeFirst()
        model.append(100 + step)
        #expect(queue.elements == model, "size \(size), step \(step)")
      }
    }
  }
}
