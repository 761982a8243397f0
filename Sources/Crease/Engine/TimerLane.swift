/// The lane of a ``TimerScheduler``: entries in firing order in a ring, and for each slot the
/// setting number of its live entry, the one a re-arm in the lane left behind it going stale.
///
/// Both live in one ``TimerStorage``, which a copy of the scheduler shares until either changes
/// it, checked for sharing once a change. With many streams delivering in turn, each frame takes
/// its stream's stall timer from the front to the back: a ring queue and an `Array` of the
/// slots' setting numbers checked their buffers twice a frame (callgrind, a frame at 1,000
/// streams: the slot's store alone about 29 instructions). Nothing is allocated once the ring
/// and the slots have grown to their working size.
///
/// Safe because every position read or written is below the count it indexes: a ring position
/// is `head` plus an offset below the ring's capacity, wrapped once (`head` is below it, and
/// the offset at most the count, which is at most the capacity); a slot is checked where it
/// comes in (``isLive(_:)``, ``append(_:)``, ``moveFirstToBack(as:)``).
struct TimerLane: Sendable {
  typealias Entry = TimerHeap.Entry

  private var storage = TimerStorage<Entry, UInt64>(entryCapacity: 0, slotCapacity: 0)
  /// The ring position of the first entry.
  private var head = 0
  /// The number of entries in the lane, live and stale.
  private(set) var count = 0
  /// The number of slots that have a setting number.
  private(set) var slotCount = 0

  var isEmpty: Bool { count == 0 }

  /// The first entry, if any.
  @inline(__always)
  var first: Entry? { count == 0 ? nil : storage.entries[head] }

  /// The last entry, if any.
  @inline(__always)
  var last: Entry? { count == 0 ? nil : storage.entries[position(at: count &- 1)] }

  /// The entries, front first.
  /// - Complexity: O(*n*).
  var entries: [Entry] { (0..<count).map { storage.entries[position(at: $0)] } }

  /// Whether `entry` is the last one appended for its slot: a later one leaves it stale. The
  /// scheduler also asks whether the slot's timer is still in the lane at all.
  @inline(__always)
  func isLive(_ entry: Entry) -> Bool {
    precondition(UInt(bitPattern: entry.slot) < UInt(bitPattern: slotCount), "a slot below the count")
    return storage.slots[entry.slot] == entry.sequence
  }

  /// Gives slots up to `count` a setting number that no entry has.
  /// - Complexity: O(*n*) in the slots added, amortized O(1) each.
  mutating func addSlots(upTo count: Int) {
    guard count > slotCount else { return }
    makeUnique(room: self.count, count)
    (storage.slots + slotCount).initialize(repeating: .max, count: count &- slotCount)
    slotCount = count
  }

  /// Adds `entry` at the back, live: an entry of its slot still in the lane goes stale.
  /// - Complexity: O(1) amortized.
  mutating func append(_ entry: Entry) {
    precondition(UInt(bitPattern: entry.slot) < UInt(bitPattern: slotCount), "a slot below the count")
    makeUnique(room: count &+ 1, slotCount)
    storage.entries[position(at: count)] = entry
    storage.slots[entry.slot] = entry.sequence
    count &+= 1
  }

  /// Takes the first entry away; the lane is not empty.
  /// - Complexity: O(1).
  @inline(__always)
  mutating func removeFirst() {
    precondition(count > 0, "an entry to remove")
    head = position(at: 1)
    count &-= 1
  }

  /// Takes the first entry away and adds `entry`, its slot's, live at the back, in one step
  /// that checks the storage once and never grows it; the lane is not empty. A stall timer's
  /// re-arm, once a frame with many streams. Tuning: hot-inline.
  /// - Complexity: O(1).
  @inline(__always)
  mutating func moveFirstToBack(as entry: Entry) {
    precondition(count > 0, "an entry to move")
    precondition(UInt(bitPattern: entry.slot) < UInt(bitPattern: slotCount), "a slot below the count")
    makeUnique()
    // The back's position is free, or, with every position in use, the first's own: written
    // before the front moves past it either way.
    storage.entries[position(at: count)] = entry
    storage.slots[entry.slot] = entry.sequence
    head = position(at: 1)
  }

  /// Takes away every stale entry, keeping the others in order: those a later entry of their
  /// slot left behind, and those whose slot `isInLane` says has left the lane.
  /// - Complexity: O(*n*), where *n* is the number of entries.
  mutating func removeStale(slotIsInLane isInLane: (Int) -> Bool) {
    makeUnique()
    var kept = 0
    for offset in 0..<count {
      let entry = storage.entries[position(at: offset)]
      guard isInLane(entry.slot) && isLive(entry) else { continue }
      // `kept` is at most `offset`: an entry moves only toward the front, over one taken away.
      storage.entries[position(at: kept)] = entry
      kept &+= 1
    }
    count = kept
  }

  /// The ring position of the entry at `offset` from the front, for an offset of at most the
  /// count: below the capacity (a ring with no room yet has no position to ask for).
  @inline(__always)
  private func position(at offset: Int) -> Int {
    let position = head &+ offset
    return position >= storage.entryCapacity ? position &- storage.entryCapacity : position
  }

  /// Makes the storage this lane's own.
  @inline(__always)
  private mutating func makeUnique() {
    if storage.makeUnique(count: count, first: head, slotCount: slotCount) { head = 0 }
  }

  /// Makes the storage this lane's own, with room for `entries` entries and `slots` slots; a
  /// copy lays the ring out from its start.
  @inline(__always)
  private mutating func makeUnique(room entries: Int, _ slots: Int) {
    if storage.makeUnique(count: count, first: head, slotCount: slotCount, room: entries, slots) { head = 0 }
  }
}
