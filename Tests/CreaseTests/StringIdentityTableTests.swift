import CreaseSynth
import Testing

@testable import Crease

@Suite("Strings found by their bits")
struct StringIdentityTableTests {
  /// A name of `length` bytes ending in `number`, built at run time (never a literal), so a
  /// long one has storage of its own.
  static func name(_ number: Int, length: Int) -> String {
    let digits = String(number)
    return String(repeating: "n", count: Swift.max(0, length - digits.count)) + digits
  }

  @Test("every string added is found with its number; a short one built anew too", arguments: 0..<8)
  func findsWhatWasAdded(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var table = StringIdentityTable()
    var added: [(string: String, number: Int)] = []
    for number in 0..<Int(random.next() % 3_000) {
      let string = Self.name(number, length: Int(random.next() % 40))
      table.add(string, number: number)
      added.append((string, number))
    }
    for (string, number) in added {
      // Past its probes a string may be left out, to be found by its text; never under
      // another number.
      let found = table[string]
      #expect(found == number || found == nil, "seed \(seed): \(string)")
      if string.utf8.count <= 15 {
        let rebuilt = String(decoding: Array(string.utf8), as: UTF8.self)
        #expect(table[rebuilt] == found, "seed \(seed): \(string) built anew")
      }
    }
    let missing = added.filter { table[$0.string] == nil }.count
    // About 1 in 100 (slots at most half full, 8 probes); 3 in 100 allowed.
    #expect(
      missing * 100 <= Swift.max(added.count, 1_000) * 3,
      "seed \(seed): \(missing) of \(added.count) left out")
    for string in ["", "not-added", Self.name(-1, length: 30)] {
      #expect(table[string] == nil, "seed \(seed)")
    }
  }

  @Test("remembering the last string found changes no answer")
  func recentLookups() {
    var table = StringIdentityTable()
    let strings = (0..<100).map { Self.name($0, length: $0 % 2 == 0 ? 6 : 30) }
    for (number, string) in strings.enumerated() { table.add(string, number: number) }
    for round in 0..<3 {
      for (number, string) in strings.enumerated().reversed() {
        // A string left out past its probes is nil both ways.
        let found = table[string]
        #expect(found == number || found == nil, "round \(round): \(string)")
        #expect(table.number(of: string) == found, "round \(round): \(string)")
        #expect(table.number(of: string) == found, "round \(round), again: \(string)")
      }
    }
    #expect(table.number(of: "absent") == nil)
  }

  @Test("a long string is never mistaken for one built where a dropped one was")
  func heldStorageIsNotReused() {
    var table = StringIdentityTable()
    // The caller's copy goes away at once: only the table keeps the storage alive, so a new
    // string of the same length cannot take its address (and with it its bits).
    table.add(Self.name(0, length: 40), number: 0)
    for number in 1..<2_000 {
      let other = Self.name(number, length: 40)
      #expect(table[other] == nil, "\(other)")
    }
    #expect(table.count == 1)
  }
}
