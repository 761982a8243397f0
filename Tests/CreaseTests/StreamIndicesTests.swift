import CreaseSynth
import Testing

@testable import Crease

@Suite("Stream indices by name")
struct StreamIndicesTests {
  /// Names whose hashes agree in their low 12 bits, so they share a first slot until the table
  /// holds more than 2,048 names: past the probes they must go to the overflow dictionary.
  static let colliding: [StreamName] = {
    var byLowBits: [Int: [StreamName]] = [:]
    for number in 0..<200_000 {
      let name = StreamName(rawValue: "cam-\(number)")
      byLowBits[StreamIndices.hash(name) & 0xFFF, default: []].append(name)
      if let group = byLowBits[StreamIndices.hash(name) & 0xFFF], group.count == 24 { return group }
    }
    Issue.record("no 24 names share their low bits")
    return []
  }()

  @Test("finds every name added, and no other, as a dictionary would", arguments: 0..<12)
  func matchesDictionary(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var table = StreamIndices()
    var reference: [StreamName: Int] = [:]
    // Colliding names first in half the seeds, mixed in with the rest in the other half; long
    // and non-ASCII names among them.
    var pending = Self.colliding.shuffled(using: &random)
    let others = (0..<Int(random.next() % 3000)).map { number -> StreamName in
      switch random.next() % 4 {
      case 0: StreamName(rawValue: "s\(number)")
      case 1:
        StreamName(rawValue: "caméra-\(number)-" + String(repeating: "x", count: Int(random.next() % 40)))
      case 2: StreamName(rawValue: "\(random.next())")
      default: StreamName(rawValue: "video\(number)")
      }
    }
    pending = seed % 2 == 0 ? pending + others : (pending + others).shuffled(using: &random)
    for name in pending where reference[name] == nil {
      reference[name] = reference.count
      table.add(name, index: reference[name]!)
      // Every so often, every name so far, and one not added.
      if random.next() % 64 == 0 {
        for (known, index) in reference { #expect(table[known] == index, "seed \(seed): \(known.rawValue)") }
        #expect(table["not-a-stream"] == nil, "seed \(seed)")
      }
    }
    #expect(table.count == reference.count, "seed \(seed)")
    for (known, index) in reference { #expect(table[known] == index, "seed \(seed): \(known.rawValue)") }
    for name in ["", "s-1", "cam-200001", "vidéo"] { #expect(table[StreamName(rawValue: name)] == nil) }
  }

  @Test("names chosen to share a slot are all found")
  func collidingNames() {
    #expect(Self.colliding.count == 24)
    var table = StreamIndices()
    for (index, name) in Self.colliding.enumerated() { table.add(name, index: index) }
    for (index, name) in Self.colliding.enumerated() { #expect(table[name] == index, "\(name.rawValue)") }
    #expect(table["cam-x"] == nil)
  }
}
