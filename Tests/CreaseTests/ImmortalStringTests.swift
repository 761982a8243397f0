import Testing

@testable import Crease

@Suite("Strings copied and ended without the runtime when immortal")
struct ImmortalStringTests {
  /// A string of `length` bytes built at run time (never a literal), so a long one has storage
  /// of its own.
  static func built(length: Int, byte: Character = "n") -> String {
    String(repeating: byte, count: length)
  }

  /// The address part of a string's second word: where a string with storage keeps it.
  static func storageBits(_ string: String) -> UInt64 {
    withUnsafeBytes(of: string) { $0.load(fromByteOffset: 8, as: UInt64.self) } & 0x00FF_FFFF_FFFF_FFFF
  }

  @Test("short strings and literals are immortal; a long string built at run time is not")
  func whichAreImmortal() {
    #expect(Self.built(length: 0).isImmortal)
    #expect(Self.built(length: 6).isImmortal)
    #expect(Self.built(length: 15).isImmortal)
    #expect(Self.built(length: 5, byte: "é").isImmortal, "ten bytes of UTF-8 fit in the two words")
    #expect("a literal longer than fifteen bytes".isImmortal)
    #expect(!Self.built(length: 16).isImmortal)
    #expect(!Self.built(length: 40).isImmortal)
    #expect(!("video" + Self.built(length: 20)).isImmortal)
  }

  @Test("a copy is the string, and a long one's copy outlives the original", arguments: 0...40)
  func copies(length: Int) {
    var copies: [String] = []
    for number in 0..<64 {
      // Each original ends with this scope: a copy that skipped a retain it needed would be
      // left naming storage that was freed and reused by the next original.
      let original = Self.built(length: length) + String(number)
      copies.append(original.copyIgnoringImmortality())
    }
    for (number, copy) in copies.enumerated() {
      #expect(copy == Self.built(length: length) + String(number), "length \(length)")
    }
  }

  @Test("ending a long string releases it: the copy left is unique again")
  func endingReleases() {
    var kept = Self.built(length: 40)
    kept.reserveCapacity(200)
    let storage = Self.storageBits(kept)
    let second = kept
    (consume second).endWithoutReleaseIfImmortal()
    // Unique, the string grows in its own storage; still shared (a release skipped), it would
    // be copied to new storage first.
    kept.append("x")
    #expect(Self.storageBits(kept) == storage)
    #expect(kept == Self.built(length: 40) + "x")
  }

  @Test("ending an immortal string leaves its copies as they were", arguments: [0, 6, 15])
  func endingImmortal(length: Int) {
    let kept = Self.built(length: length)
    let second = kept
    (consume second).endWithoutReleaseIfImmortal()
    #expect(kept == Self.built(length: length))
  }
}
