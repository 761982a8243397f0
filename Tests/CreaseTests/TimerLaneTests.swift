import CreaseSynth
import Testing

@testable import Crease

@Suite("Timer lane")
struct TimerLaneTests {
  typealias Entry = TimerHeap.Entry

  /// The lane as plain values: its entries in order and each slot's live setting number.
  struct Model {
    var entries: [Entry] = []
    var live: [Int: UInt64] = [:]

    func isLive(_ entry: Entry) -> Bool { live[entry.slot] == entry.sequence }
  }

  static let slots = 24

  @Test("appends, moves the first to the back and drops the stale as a list does", arguments: 0..<20)
  func matchesModel(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var lane = TimerLane()
    lane.addSlots(upTo: Self.slots)
    var model = Model()
    var copies: [(lane: TimerLane, model: Model)] = []
    var sequence: UInt64 = 0
    func next(slot: Int) -> Entry {
      defer { sequence += 1 }
      return Entry(due: Nanoseconds(Int64(sequence)), sequence: sequence, slot: slot)
    }
    for step in 0..<3_000 {
      // Phases that grow and shrink the lane, so it wraps round its storage and grows while
      // wrapped.
      let growing = step / 400 % 2 == 0
      switch random.next() % 12 {
      case 0 where !model.entries.isEmpty:
        // Slots that left the lane, and entries a later one of their slot left behind.
        let divisor = Int(random.next() % 4) + 2
        lane.removeStale { $0 % divisor != 0 }
        let live = model.live
        model.entries.removeAll { $0.slot % divisor == 0 || live[$0.slot] != $0.sequence }
      case 1:
        copies.append((lane, model))
      case 2...6 where growing, 2...3:
        let entry = next(slot: Int(random.next() % UInt64(Self.slots)))
        lane.append(entry)
        model.entries.append(entry)
        model.live[entry.slot] = entry.sequence
      case 7...8 where !model.entries.isEmpty:
        // In both phases, so that it also meets a full storage as the lane grows.
        let entry = next(slot: model.entries[0].slot)
        lane.moveFirstToBack(as: entry)
        model.entries.removeFirst()
        model.entries.append(entry)
        model.live[entry.slot] = entry.sequence
      default:
        if !model.entries.isEmpty {
          lane.removeFirst()
          model.entries.removeFirst()
        }
      }
      #expect(lane.count == model.entries.count, "seed \(seed), step \(step)")
      #expect(
        lane.first?.sequence == model.entries.first?.sequence
          && lane.last?.sequence == model.entries.last?.sequence, "seed \(seed), step \(step)")
    }
    #expect(lane.entries.map(\.sequence) == model.entries.map(\.sequence), "seed \(seed)")
    #expect(lane.entries.map(lane.isLive) == model.entries.map(model.isLive), "seed \(seed)")
    // Each copy kept what it held while the lane went on.
    for (copy, copyModel) in copies {
      #expect(copy.entries.map(\.sequence) == copyModel.entries.map(\.sequence), "seed \(seed)")
      #expect(copy.entries.map(copy.isLive) == copyModel.entries.map(copyModel.isLive), "seed \(seed)")
    }
  }

  @Test("moves the first to the back with every position in use, and with positions free")
  func movesFirstToBack() {
    // Among these sizes, one fills the ring exactly, so the back's position is the first's own.
    for size in 1...40 {
      var lane = TimerLane()
      lane.addSlots(upTo: size)
      var model = (0..<size).map { Entry(due: Nanoseconds(Int64($0)), sequence: UInt64($0), slot: $0) }
      for entry in model { lane.append(entry) }
      for step in 0..<(2 * size + 3) {
        let moved = Entry(
          due: Nanoseconds(Int64(100 + step)), sequence: UInt64(100 + step), slot: model[0].slot)
        lane.moveFirstToBack(as: moved)
        model.removeFirst()
        model.append(moved)
        #expect(lane.entries.map(\.sequence) == model.map(\.sequence), "size \(size), step \(step)")
        #expect(lane.entries.allSatisfy(lane.isLive), "size \(size), step \(step)")
      }
    }
  }
}
