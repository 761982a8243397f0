/// The plain values of a ``TimerHeap`` or a ``TimerLane`` in two allocations that copies of a
/// scheduler share until one of them changes them: the entries, and a value for each slot (a
/// heap's places, a lane's live setting numbers).
///
/// Its owner checks it for sharing once a change (``makeUnique(count:first:slotCount:room:_:)``),
/// not at every store: two `Array`s checked theirs at every store, two or three times a sift
/// even for a heap of a handful of timers (callgrind, the bench's day trace: a stall timer
/// re-armed with each frame cost about 190 instructions), and a lane's ring and its slots' array
/// once each a frame (a frame at 1,000 streams: 33 instructions).
///
/// Safe because its owner reads and writes only entries and slots below the counts it keeps,
/// which ``makeUnique(count:first:slotCount:room:_:)`` has made room for, and writes only once
/// that has made the storage its own. Values are plain: nothing to deinitialize.
struct TimerStorage<Entry, SlotValue>: @unchecked Sendable {
  private var storage: Storage

  /// A storage with room for `entryCapacity` entries and `slotCapacity` slot values.
  init(entryCapacity: Int, slotCapacity: Int) {
    storage = Storage(entryCapacity: entryCapacity, slotCapacity: slotCapacity)
  }

  /// The entries: as many as the owner counts, from where it says they start.
  @inline(__always) var entries: UnsafeMutablePointer<Entry> { storage.entries }
  /// A value for each slot the owner counts.
  @inline(__always) var slots: UnsafeMutablePointer<SlotValue> { storage.slots }
  /// How many entries there is room for.
  @inline(__always) var entryCapacity: Int { storage.entryCapacity }

  /// Makes the storage its owner's own, copied as ``makeUnique(count:first:slotCount:room:_:)``
  /// copies it when it is shared: for a change that needs no more room. Whether it copied.
  @inline(__always)
  mutating func makeUnique(count: Int, first: Int = 0, slotCount: Int) -> Bool {
    guard _slowPath(!isKnownUniquelyReferenced(&storage)) else { return false }
    copy(count: count, first: first, slotCount: slotCount, room: count, slotCount)
    return true
  }

  /// Makes the storage its owner's own, with room for `entries` entries and `slots` slot
  /// values: when it is shared or too small, copied, its `count` entries taken from `first` on
  /// (a ring's, wrapping at the capacity) and laid out from the start, and its first
  /// `slotCount` slot values, each capacity grown at least twofold (and to 8) when it grows.
  /// Whether it copied.
  @inline(__always)
  mutating func makeUnique(count: Int, first: Int = 0, slotCount: Int, room entries: Int, _ slots: Int)
    -> Bool
  {
    guard
      _slowPath(
        !isKnownUniquelyReferenced(&storage) || entries > storage.entryCapacity
          || slots > storage.slotCapacity)
    else { return false }
    copy(count: count, first: first, slotCount: slotCount, room: entries, slots)
    return true
  }

  private mutating func copy(count: Int, first: Int, slotCount: Int, room entries: Int, _ slots: Int) {
    func capacity(_ needed: Int, _ capacity: Int) -> Int {
      needed > capacity ? Swift.max(needed, capacity &* 2, 8) : capacity
    }
    let copy = Storage(
      entryCapacity: capacity(entries, storage.entryCapacity),
      slotCapacity: capacity(slots, storage.slotCapacity))
    for offset in 0..<count {
      let position = first &+ offset
      let wrapped = position >= storage.entryCapacity ? position &- storage.entryCapacity : position
      (copy.entries + offset).initialize(to: storage.entries[wrapped])
    }
    copy.slots.initialize(from: storage.slots, count: slotCount)
    storage = copy
  }

  /// The two allocations.
  private final class Storage {
    let entries: UnsafeMutablePointer<Entry>
    let slots: UnsafeMutablePointer<SlotValue>
    let entryCapacity: Int
    let slotCapacity: Int

    init(entryCapacity: Int, slotCapacity: Int) {
      entries = .allocate(capacity: entryCapacity)
      slots = .allocate(capacity: slotCapacity)
      (self.entryCapacity, self.slotCapacity) = (entryCapacity, slotCapacity)
    }

    deinit {
      entries.deallocate()
      slots.deallocate()
    }
  }
}
