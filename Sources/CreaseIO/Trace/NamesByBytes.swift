import Crease

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The stream names a reader has made, found again by their bytes however many streams a trace
/// has.
///
/// ``RecentStrings`` remembers a few strings, as many names as most traces have. With more
/// streams delivering in turn, each name had been replaced by the time it came round again and
/// was made anew at every frame: in JSON Lines, at 1,000 streams a frame cost 1,577
/// instructions against 1,026 with one (callgrind), and a name of more than 15 bytes was a heap
/// allocation a frame past 8 streams. This table keeps every name while the camera stage's
/// ``StreamBudget`` would admit it, so it stays bounded as the stage's own state does; a name
/// past the budget is made every time, as the stage does not track its stream either.
///
/// A slot is picked by a hash of the bytes, read a word at a time, and probed in turn (at most
/// half the slots are taken). A name of up to 15 bytes is compared by its bytes packed into
/// words (``PackedBytes``), a longer one by those and then by `memcmp` with its own UTF-8.
///
/// Its slots live behind pointers it owns, so that a look-up reads no class property that would
/// need an exclusivity check. One reader owns it and uses it from one thread at a time. Safe
/// because every slot below `capacity` is initialized from `init` (an empty one holds the empty
/// string and hash 0) until `deinit` or a growth deinitializes it, a probe index is masked
/// below `capacity`, and a probe ends at an empty slot, of which there is always one.
final class NamesByBytes {
  private struct Slot {
    /// The name's hash, never 0; 0 in an empty slot.
    var hash: UInt64
    var packed: PackedBytes
    var name: String

    static var empty: Slot {
      Slot(hash: 0, packed: PackedBytes(UnsafeRawBufferPointer(start: nil, count: 0)), name: "")
    }
  }

  /// The table's changing parts, behind one pointer.
  private struct Table {
    var slots: UnsafeMutablePointer<Slot>
    var capacity: Int
    var count = 0
    var budget = StreamBudget()
  }

  private let table: UnsafeMutablePointer<Table>

  init() {
    let capacity = 16
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    slots.initialize(repeating: .empty, count: capacity)
    table = .allocate(capacity: 1)
    table.initialize(to: Table(slots: slots, capacity: capacity))
  }

  deinit {
    table.pointee.slots.deinitialize(count: table.pointee.capacity)
    table.pointee.slots.deallocate()
    table.deinitialize(count: 1)
    table.deallocate()
  }

  /// How many names the table holds.
  var count: Int { table.pointee.count }

  /// The name kept with these bytes, if any.
  /// - Complexity: O(*n*) in the *n* bytes, expected; O(1) in the names held.
  func name(_ bytes: UnsafeRawBufferPointer) -> String? {
    let packed = PackedBytes(bytes)
    return name(packed, hash: Self.hash(packed, bytes), bytes)
  }

  /// The name kept that `line`'s sixteen bytes start with, a closing quote after it, and its
  /// length: a name of up to 15 bytes found where it lies on a JSON line once the quote is
  /// found, its bytes neither scanned nor checked.
  ///
  /// Sound for names read by the JSON Lines fast path, which takes only plain bytes (no quote,
  /// backslash, control byte or DEL): bytes up to the first quote that are a kept name's are
  /// that name, the quote closes it, and none of them is past the line's end, which is a
  /// control byte.
  /// - Complexity: O(1), expected.
  // Inlined into the JSON Lines parser's one call for a known name: as a call of its own, a
  // frame at 1,000 streams cost 17 instructions more (callgrind). Tuning: hot-inline.
  @inline(__always)
  func name(quotedAtStartOf line: LineWords) -> (string: String, count: Int)? {
    guard let count = Self.firstQuote(in: line), count > 0 else { return nil }
    let packed = PackedBytes(line, count: count)
    let empty = UnsafeRawBufferPointer(start: nil, count: 0)
    return name(packed, hash: Self.hash(packed, empty), empty).map { ($0, count) }
  }

  /// The name kept with these packed bytes and hash; `bytes` are compared whole when there are
  /// more than ``PackedBytes/longestWhole``.
  @inline(__always)
  private func name(_ packed: PackedBytes, hash: UInt64, _ bytes: UnsafeRawBufferPointer) -> String? {
    let (slots, mask) = (table.pointee.slots, table.pointee.capacity &- 1)
    var index = Int(truncatingIfNeeded: hash) & mask
    while slots[index].hash != 0 {
      if slots[index].hash == hash && slots[index].packed == packed
        && (packed.count <= PackedBytes.longestWhole || Self.equal(slots[index].name, bytes))
      {
        return slots[index].name.copyIgnoringImmortality()
      }
      index = (index &+ 1) & mask
    }
    return nil
  }

  /// Where the first quote is in `line`'s sixteen bytes, if any: the lowest byte of a word that
  /// a subtraction borrows through is a quote's (higher ones may be flagged falsely).
  @inline(__always)
  private static func firstQuote(in line: LineWords) -> Int? {
    func quote(in word: UInt64) -> Int? {
      let differences = word ^ 0x2222_2222_2222_2222
      let zeros = (differences &- 0x0101_0101_0101_0101) & ~differences & 0x8080_8080_8080_8080
      return zeros == 0 ? nil : zeros.trailingZeroBitCount >> 3
    }
    if let index = quote(in: line.low) { return index }
    return quote(in: line.high).map { $0 &+ 8 }
  }

  /// Keeps `name`, whose UTF-8 is `bytes` and which the table does not hold, while the budget
  /// admits it.
  /// - Complexity: O(*n*) in the *n* bytes, amortized.
  func add(_ name: String, bytes: UnsafeRawBufferPointer) {
    assert(self.name(bytes) == nil, "a name is kept once")
    guard table.pointee.budget.admit(StreamName(rawValue: name)) else { return }
    if (table.pointee.count &+ 1) &* 2 > table.pointee.capacity { grow() }
    let packed = PackedBytes(bytes)
    place(Slot(hash: Self.hash(packed, bytes), packed: packed, name: name))
    table.pointee.count &+= 1
  }

  /// Puts `slot` in the first empty slot of its probes.
  private func place(_ slot: Slot) {
    let (slots, mask) = (table.pointee.slots, table.pointee.capacity &- 1)
    var index = Int(truncatingIfNeeded: slot.hash) & mask
    while slots[index].hash != 0 { index = (index &+ 1) & mask }
    slots[index] = slot
  }

  /// Doubles the slots and places every name again.
  private func grow() {
    let (old, oldCapacity) = (table.pointee.slots, table.pointee.capacity)
    let capacity = oldCapacity &* 2
    table.pointee.slots = .allocate(capacity: capacity)
    table.pointee.slots.initialize(repeating: .empty, count: capacity)
    table.pointee.capacity = capacity
    for index in 0..<oldCapacity {
      if old[index].hash != 0 { place((old + index).move()) } else { (old + index).deinitialize(count: 1) }
    }
    old.deallocate()
  }

  /// A hash of a string's bytes, never 0: its packed bytes, and for more than sixteen the
  /// words of `bytes` after them, each multiplied in, folded at full width at the end.
  @inline(__always)
  private static func hash(_ packed: PackedBytes, _ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var mixed =
      (packed.low ^ UInt64(truncatingIfNeeded: packed.count) &* 0x9E37_79B9_7F4A_7C15)
      &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ packed.high) &* 0x94D0_49BB_1331_11EB
    if packed.count > 16 {
      // The words after the first sixteen bytes, the last one ending with the last byte.
      var offset = 16
      repeat {
        let word = bytes.loadUnaligned(fromByteOffset: min(offset, packed.count &- 8), as: UInt64.self)
        mixed = (mixed ^ word) &* 0x94D0_49BB_1331_11EB
        offset &+= 8
      } while offset < packed.count
    }
    let product = mixed.multipliedFullWidth(by: 0xFF51_AFD7_ED55_8CCD)
    return max(product.high ^ product.low, 1)
  }

  /// Whether `name`'s UTF-8 is `bytes`.
  private static func equal(_ name: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
    // A kept name was made from bytes, so it is native and contiguous; the comparison by
    // elements is there for one that is not.
    name.utf8.withContiguousStorageIfAvailable { utf8 in
      utf8.count == bytes.count && memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0
    } ?? name.utf8.elementsEqual(bytes)
  }
}
