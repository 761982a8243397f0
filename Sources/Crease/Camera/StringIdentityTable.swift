/// Numbers for `String` values, found by the bits of the value rather than by its text.
///
/// A `String` is two words on 64-bit platforms. A string of up to 15 UTF-8 bytes keeps its text
/// in them; a longer one keeps its count and flags and the address of its storage. Looking a
/// string up by those words is two compares in a slot picked by a multiply: no walk over the
/// text, whatever its length and however many strings the table holds. A string with the same
/// text but other bits (a long name built anew) is not found here; its caller then looks it up
/// by its text.
///
/// Safe because equal bits mean equal text: the table holds every string it keys by, so the
/// storage an address in a key names stays alive and unchanged while the key is held (a
/// change to a shared string's storage copies it first, to a new address), and a short
/// string's bits are its text. Where a `String` is not two words (32-bit platforms), nothing is
/// added and nothing is found.
struct StringIdentityTable {
  private struct Key: Equatable {
    var low: UInt64
    var high: UInt64
  }

  /// A slot: a key and its number plus one, or 0 for an empty slot; read together, as one
  /// array, so a probe checks one index (two arrays: two checks and two loads of a buffer).
  private struct Slot {
    var key: Key
    var numberPlusOne: Int
  }

  private var slots: [Slot]
  /// The strings keyed by, held so that their storage outlives their keys.
  private var strings: [String]
  /// The slot found last, and its key: most traces have one stream, and two compares cost less
  /// than a probe.
  private var recent: (key: Key, number: Int)?
  /// How many strings the table holds.
  private(set) var count = 0

  /// How many slots a string may take the place of, from its own on: past them it is not
  /// added, and is found by its text (with slots at most half full, about 1 string in 100).
  private static var probes: Int { 8 }

  /// An empty table.
  init() {
    slots = Array(repeating: Self.emptySlot, count: 16)
    strings = Array(repeating: "", count: 16)
  }

  private static var emptySlot: Slot { Slot(key: Key(low: 0, high: 0), numberPlusOne: 0) }

  /// The number added with a string whose bits are `string`'s, if any, remembered for the
  /// next lookup.
  /// - Complexity: O(1).
  // Asked for every frame. Tuning: hot-inline.
  @inline(__always)
  mutating func number(of string: String) -> Int? {
    guard let key = Self.key(of: string) else { return nil }
    if let recent, recent.key == key { return recent.number }
    guard let number = number(of: key) else { return nil }
    recent = (key, number)
    return number
  }

  /// The number added with a string whose bits are `string`'s, if any.
  /// - Complexity: O(1).
  subscript(string: String) -> Int? {
    Self.key(of: string).flatMap(number(of:))
  }

  @inline(__always)
  private func number(of key: Key) -> Int? {
    let mask = slots.count &- 1
    var slot = Self.slot(of: key) & mask
    for _ in 0..<Self.probes {
      let held = slots[slot]
      if held.numberPlusOne == 0 { return nil }
      if held.key == key { return held.numberPlusOne &- 1 }
      slot = (slot &+ 1) & mask
    }
    return nil
  }

  /// Adds `string`, under `number`, unless a string with its bits is held already or its
  /// probes are all taken.
  /// - Complexity: O(1) amortized.
  mutating func add(_ string: String, number: Int) {
    guard Self.key(of: string) != nil, self[string] == nil else { return }
    if (count &+ 1) &* 2 > slots.count { grow() }
    if place(string, number: number) { count &+= 1 }
  }

  /// Puts `string` in the first empty slot of its probes; whether there was one.
  private mutating func place(_ string: String, number: Int) -> Bool {
    guard let key = Self.key(of: string) else { return false }
    let mask = slots.count &- 1
    var slot = Self.slot(of: key) & mask
    for _ in 0..<Self.probes {
      if slots[slot].numberPlusOne == 0 {
        slots[slot] = Slot(key: key, numberPlusOne: number &+ 1)
        strings[slot] = string
        return true
      }
      slot = (slot &+ 1) & mask
    }
    return false
  }

  /// Doubles the slots and places every string again.
  private mutating func grow() {
    let held = slots.indices.filter { slots[$0].numberPlusOne != 0 }.map {
      (strings[$0], slots[$0].numberPlusOne &- 1)
    }
    let size = slots.count &* 2
    slots = Array(repeating: Self.emptySlot, count: size)
    strings = Array(repeating: "", count: size)
    count = 0
    recent = nil
    for (string, number) in held where place(string, number: number) { count &+= 1 }
  }

  /// The two words of `string`, or `nil` where a `String` is not two words. Read without a
  /// stack protector, as `String.isImmortal` reads them: safe, since the load is of the 16
  /// bytes lent.
  @inline(__always)
  private static func key(of string: String) -> Key? {
    guard MemoryLayout<String>.size == MemoryLayout<Key>.size else { return nil }
    return _withUnprotectedUnsafeBytes(of: string) { $0.loadUnaligned(as: Key.self) }
  }

  /// The key's slot before masking: the high word multiplied into the low, and that multiplied
  /// at full width, its two halves folded together, so the low bits a mask keeps depend on
  /// every byte of both (a short name's bytes are in the low word, its length in the high one).
  @inline(__always)
  private static func slot(of key: Key) -> Int {
    let mixed = key.low ^ (key.high &* 0x9E37_79B9_7F4A_7C15)
    let product = mixed.multipliedFullWidth(by: 0xFF51_AFD7_ED55_8CCD)
    return Int(truncatingIfNeeded: product.high ^ product.low)
  }
}
