/// The binary heap of a ``TimerScheduler``: its entries in heap order, and where each slot's
/// entry is.
///
/// Both live in one ``TimerStorage``, which a copy of the scheduler shares until either changes
/// it: every mutating method checks it for sharing once, before it starts.
///
/// Safe because every position read or written is below the count it indexes: a heap place
/// and a slot are checked where they come in (``replace(at:with:)``, ``remove(at:)``,
/// ``place(ofSlot:)``, ``setPlace(_:ofSlot:)``, and an entry's slot when it is added), and the
/// sifts move only from a place to its parent or to a child checked against the count.
struct TimerHeap: Sendable {
  /// What the heap orders: a due time, the setting order, and the slot with the rest of the
  /// timer.
  struct Entry: Sendable {
    var due: Nanoseconds
    var sequence: UInt64
    var slot: Int

    // Spelled out: a tuple's `<` went through generic comparisons (callgrind: about a third of
    // a sift's level).
    @inline(__always)
    func firesBefore(_ other: Entry) -> Bool {
      due.rawValue < other.due.rawValue || (due.rawValue == other.due.rawValue && sequence < other.sequence)
    }
  }

  /// A slot's place when its timer is not pending.
  static var notPending: Int { -1 }
  /// A slot's place when its entry is in the scheduler's lane, not in the heap.
  static var inLane: Int { -2 }

  private var storage = TimerStorage<Entry, Int>(entryCapacity: 8, slotCapacity: 8)
  /// The number of entries in the heap.
  private(set) var count = 0
  /// The number of slots that have a place.
  private(set) var slotCount = 0

  var isEmpty: Bool { count == 0 }

  /// The entry that fires first, if any.
  var first: Entry? { count == 0 ? nil : storage.entries[0] }

  /// The entry at `index` in heap order.
  subscript(index: Int) -> Entry {
    precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "a heap index below the count")
    return storage.entries[index]
  }

  /// Every entry, in heap order.
  var entries: [Entry] { Array(UnsafeBufferPointer(start: storage.entries, count: count)) }

  /// Where the entry of `slot` is: a heap index, ``inLane`` or ``notPending``.
  @inline(__always)
  func place(ofSlot slot: Int) -> Int {
    precondition(UInt(bitPattern: slot) < UInt(bitPattern: slotCount), "a slot below the count")
    return storage.slots[slot]
  }

  /// Gives slots up to `count` a place (not pending).
  /// - Complexity: O(*n*) in the slots added, amortized O(1) each.
  mutating func addSlots(upTo count: Int) {
    guard count > slotCount else { return }
    makeUnique(room: self.count, count)
    (storage.slots + slotCount).initialize(repeating: Self.notPending, count: count - slotCount)
    slotCount = count
  }

  /// Marks `slot`'s timer as in the lane or as not pending; its heap entry, if it had one, must
  /// have been removed first.
  mutating func setPlace(_ place: Int, ofSlot slot: Int) {
    precondition(place < 0, "a slot is placed in the heap by its entry")
    precondition(UInt(bitPattern: slot) < UInt(bitPattern: slotCount), "a slot below the count")
    makeUnique()
    storage.slots[slot] = place
  }

  /// Puts `entry` in the heap, for a slot that has no entry in it.
  /// - Complexity: O(log *n*), amortized for the growth of the storage.
  mutating func insert(_ entry: Entry) {
    precondition(UInt(bitPattern: entry.slot) < UInt(bitPattern: slotCount), "a slot below the count")
    makeUnique(room: count &+ 1, slotCount)
    storage.entries[count] = entry
    count &+= 1
    siftUp(entry, from: count &- 1)
  }

  /// Replaces the entry at `place` by `entry` (a re-armed timer) and restores the order.
  /// - Complexity: O(log *n*).
  // Inlined into the scheduler's re-arm, once a frame. Tuning: hot-inline.
  @inline(__always)
  mutating func replace(at place: Int, with entry: Entry) {
    precondition(UInt(bitPattern: place) < UInt(bitPattern: count), "a heap index below the count")
    precondition(UInt(bitPattern: entry.slot) < UInt(bitPattern: slotCount), "a slot below the count")
    makeUnique()
    restore(entry, at: place)
  }

  /// Takes the entry at `index` out of the heap; its slot is left not pending.
  /// - Complexity: O(log *n*).
  mutating func remove(at index: Int) {
    precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "a heap index below the count")
    makeUnique()
    storage.slots[storage.entries[index].slot] = Self.notPending
    count &-= 1
    guard index < count else { return }
    restore(storage.entries[count], at: index)
  }

  /// Puts `entry` at `index`, whose entry it replaces, and moves it up or down to its place.
  @inline(__always)
  private func restore(_ entry: Entry, at index: Int) {
    if index > 0 && entry.firesBefore(storage.entries[(index &- 1) / 2]) {
      siftUp(entry, from: index)
    } else if 2 &* index &+ 1 < count {
      siftDown(entry, from: index)
    } else {
      // A leaf, or alone in the heap as one stream's stall timer is: in place already.
      storage.entries[index] = entry
      storage.slots[entry.slot] = index
    }
  }

  // The sifts carry the moving entry in hand and shift the others into its hole, placing it
  // once at the end: one entry and one place written a level.

  private func siftUp(_ moving: Entry, from start: Int) {
    let (entries, places) = (storage.entries, storage.slots)
    var index = start
    while index > 0 {
      let parent = (index &- 1) / 2
      guard moving.firesBefore(entries[parent]) else { break }
      entries[index] = entries[parent]
      places[entries[index].slot] = index
      index = parent
    }
    entries[index] = moving
    places[moving.slot] = index
  }

  // Inlined into `restore`: a stall timer re-armed at each frame sifts down at about every
  // other frame of the day trace, and as a call it cost 7 instructions an event. Tuning:
  // hot-inline.
  @inline(__always)
  private func siftDown(_ moving: Entry, from start: Int) {
    let (entries, places) = (storage.entries, storage.slots)
    var index = start
    while true {
      let left = 2 &* index &+ 1
      guard left < count else { break }
      var first = left
      if left &+ 1 < count && entries[left &+ 1].firesBefore(entries[left]) { first = left &+ 1 }
      guard entries[first].firesBefore(moving) else { break }
      entries[index] = entries[first]
      places[entries[index].slot] = index
      index = first
    }
    entries[index] = moving
    places[moving.slot] = index
  }

  /// Makes the storage this heap's own.
  @inline(__always)
  private mutating func makeUnique() { _ = storage.makeUnique(count: count, slotCount: slotCount) }

  /// Makes the storage this heap's own, with room for `entries` entries and `slots` places.
  @inline(__always)
  private mutating func makeUnique(room entries: Int, _ slots: Int) {
    _ = storage.makeUnique(count: count, slotCount: slotCount, room: entries, slots)
  }
}
