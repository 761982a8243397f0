/// Each tracked stream's index in the camera stage, by name.
///
/// Asked for every frame, drop and input: with many streams, cameras deliver in turn, so nearly
/// every frame names a stream other than the last frame's. A name is found first by its identity:
/// the bits of its `String` value, which for a name of up to 15 bytes hold the name itself, and for
/// a longer one the storage the binary reader's name table hands to every event of the stream. Two
/// words compared in slots keyed by a multiply of those words: a lookup that does not grow with the
/// streams (SPEC 9: no per-event hashing of a name's text). A name whose bits are not known (a long
/// name each JSON line spells anew) is found by its text: FNV-1a over its UTF-8 bytes into slots at
/// most half full, probing a few in turn. A name whose probes are all taken, as names chosen to
/// collide would be, goes to a `Dictionary` instead, so crafted names cost what every name cost
/// before and eight probes more, never a longer walk. Names are only added (a stream stays
/// tracked), so a probe that meets an empty slot has not passed the name.
struct StreamIndices {
  /// Each slot's name's hash, never 0, or 0 for an empty slot: a probe compares a name only
  /// where the hash is its own, and never copies an empty slot's.
  private var hashes: [Int] = Array(repeating: 0, count: 16)
  private var names: [StreamName] = Array(repeating: StreamName(rawValue: ""), count: 16)
  private var indices: [Int] = Array(repeating: 0, count: 16)
  /// The names whose probes were all taken when they were added.
  private var overflow: [StreamName: Int] = [:]
  /// Each held name's identity and index, found before its text is hashed.
  private var identities = StringIdentityTable()
  /// How many names the table holds.
  private(set) var count = 0

  /// How many slots a name may take the place of, from its own on.
  static var probes: Int { 8 }

  /// The index of the stream named `name`, if it is tracked.
  /// - Complexity: O(1) expected; O(*n*) for a name as long as *n* bytes whose `String` bits
  ///   are not those of the name added (a long name built anew).
  subscript(name: StreamName) -> Int? {
    identities[name.rawValue] ?? indexByText(of: name)
  }

  /// ``subscript(_:)``, remembering a name found by its identity so that asking for it next
  /// costs two compares.
  /// - Complexity: as ``subscript(_:)``.
  @inline(__always)
  mutating func index(of name: StreamName) -> Int? {
    identities.number(of: name.rawValue) ?? indexByText(of: name)
  }

  /// The index of `name` found by its text.
  private func indexByText(of name: StreamName) -> Int? {
    let hash = Self.hash(name)
    let mask = hashes.count &- 1
    var slot = hash & mask
    for _ in 0..<Self.probes {
      let stored = hashes[slot]
      if stored == 0 { return nil }
      if stored == hash && names[slot] == name { return indices[slot] }
      slot = (slot &+ 1) & mask
    }
    return overflow.isEmpty ? nil : overflow[name]
  }

  /// Adds `name`, not held yet, at `index`.
  /// - Complexity: O(1) amortized.
  mutating func add(_ name: StreamName, index: Int) {
    assert(self[name] == nil, "a name is added once")
    if (count &+ 1) &* 2 > hashes.count { grow() }
    place(name, index: index)
    identities.add(name.rawValue, number: index)
    count &+= 1
  }

  private mutating func place(_ name: StreamName, index: Int) {
    let hash = Self.hash(name)
    let mask = hashes.count &- 1
    var slot = hash & mask
    for _ in 0..<Self.probes {
      if hashes[slot] == 0 {
        hashes[slot] = hash
        names[slot] = name
        indices[slot] = index
        return
      }
      slot = (slot &+ 1) & mask
    }
    overflow[name] = index
  }

  /// Doubles the slots and places every name again, those that overflowed too.
  private mutating func grow() {
    let held = hashes.indices.filter { hashes[$0] != 0 }.map { (names[$0], indices[$0]) }
    let entries = held + overflow.map { ($0.key, $0.value) }
    let size = hashes.count &* 2
    hashes = Array(repeating: 0, count: size)
    names = Array(repeating: StreamName(rawValue: ""), count: size)
    indices = Array(repeating: 0, count: size)
    overflow = [:]
    for (name, index) in entries { place(name, index: index) }
  }

  /// FNV-1a over the name's UTF-8 bytes, its high half folded in so the low bits a mask keeps
  /// depend on every byte; never 0, which marks an empty slot.
  @inline(__always)
  static func hash(_ name: StreamName) -> Int {
    // Read as one buffer: walking the UTF-8 view byte by byte cost about 90 instructions more a
    // lookup of a name such as `s123` (callgrind, 1,000 streams: 216 against 127).
    var text = name.rawValue
    return text.withUTF8 { bytes in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return Int(truncatingIfNeeded: hash ^ (hash >> 32)) | 1 << 62
    }
  }
}
