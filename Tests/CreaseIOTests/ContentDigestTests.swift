import CreaseIO
import Testing

@Suite("ContentDigest: XXH64 of bytes that arrive in pieces")
struct ContentDigestTests {
  static func digest(_ text: String) -> String {
    var digest = ContentDigest()
    digest.add(Array(text.utf8))
    return digest.hexadecimal
  }

  @Test("the published XXH64 values, as xxhsum -H64 prints them")
  func knownValues() {
    #expect(Self.digest("") == "ef46db3751d8e999")
    #expect(Self.digest("abc") == "44bc2cf5ad770999")
    // 43 bytes: one full 32-byte stripe, then an 8-byte word, then three single bytes.
    #expect(Self.digest("The quick brown fox jumps over the lazy dog") == "0b242d361fda71bc")
  }

  @Test("the digest of many stripes, whole and a stripe at a time, is xxhsum's")
  func manyStripes() {
    // 31 whole stripes and 8 bytes: the lanes carried from stripe to stripe, within one call
    // and from one call to the next. `xxhsum -H64` of the same bytes prints the value.
    let bytes = (0..<1000).map { UInt8($0 * 7 % 251) }
    var whole = ContentDigest()
    whole.add(bytes)
    var stripes = ContentDigest()
    for start in stride(from: 0, to: bytes.count, by: 32) {
      stripes.add(Array(bytes[start..<min(start + 32, bytes.count)]))
    }
    #expect(whole.hexadecimal == "023fd2ed1ff957d5")
    #expect(stripes.hexadecimal == "023fd2ed1ff957d5")
  }

  @Test("any split of the bytes gives the digest of the whole")
  func pieces() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var generator = SeededGenerator(seed: seed)
    let bytes = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    var whole = ContentDigest()
    whole.add(bytes)
    for _ in 0..<50 {
      var pieces = ContentDigest()
      var offset = 0
      while offset < bytes.count {
        let count = min(Int.random(in: 0...70, using: &generator), bytes.count - offset)
        pieces.add(Array(bytes[offset..<offset + count]))
        offset += count
      }
      #expect(pieces.value == whole.value && pieces.byteCount == 1000, "seed \(seed)")
    }
  }
}

/// A SplitMix64 generator, so a failing split can be replayed from its printed seed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
