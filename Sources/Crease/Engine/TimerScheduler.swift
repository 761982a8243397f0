/// The pending timers of a processor, in trace time.
///
/// A binary heap ordered by (due time, setting order), of small plain entries: a due time, a
/// setting number and the number of the slot that holds the timer's tag and its end-of-stream
/// policy (`TimerHeap`, which also keeps where each slot's entry is). Scheduling, re-arming,
/// cancelling and firing are O(log *n*) however many timers a trace sets (a stall timer per stream:
/// a hostile trace may have a hundred thousand streams); a level of the heap is a compare and two
/// stores. Once the heap holds more than 64 timers, a timer set due after every other, as a stall
/// timer is when streams deliver in turn, joins the back of a lane instead (a `TimerLane`), in O(1)
/// amortized: the firing order is the same, and no timer sinks past log *n* levels. A tag that
/// numbers itself (``DenselyNumberedTimerTag``, as the pipeline's do) is its own slot: no hashing.
/// Any other tag is given a free slot, found again through a dictionary. Nothing is allocated once
/// the heap, the lane and the slots have grown to their working size. Scheduling a tag that is
/// already pending re-arms it. Heap indices and the setting count use wrapping arithmetic,
/// unchecked: an index stays below the heap's count, and 2^64 settings do not happen.
public struct TimerScheduler<Tag: Hashable & Sendable>: Sendable {
  /// What happens to a timer still pending when the input ends without an `end` event.
  public enum EndOfStream: Sendable {
    /// It fires at its due time, as if the trace had gone on.
    case fire
    /// It is dropped (a stall timer: a stream that ended did not stall).
    case cancel
  }

  /// One pending timer.
  public struct Timer: Sendable {
    /// Which timer it is.
    public var tag: Tag
    /// When the timer fires.
    public var due: Nanoseconds
    /// What happens to the timer when its input ends.
    public var endOfStream: EndOfStream
    /// Setting order, which breaks ties between timers due at the same time.
    var sequence: UInt64
  }

  private typealias Entry = TimerHeap.Entry

  /// A timer's tag and policy. Where its entry is, the heap keeps (``TimerHeap/place(ofSlot:)``),
  /// and which of its entries in the lane is live, the lane (``TimerLane/isLive(_:)``).
  private struct Slot {
    var tag: Tag?
    var endOfStream: EndOfStream = .fire
  }

  private var heap = TimerHeap()
  /// Entries in firing order, each set due no earlier than the one before it: a stall timer
  /// re-armed as its stream delivers, when streams deliver in turn, is due after every other,
  /// and goes to the back of the lane, not to a heap's leaf past log *n* levels. An entry whose timer was re-armed or cancelled since stays where it is,
  /// stale, until it reaches the front (the front is always live) or the lane is compacted.
  private var lane = TimerLane()
  /// How many entries of the lane are stale.
  private var staleInLane = 0
  /// The due time of the first timer to fire, kept as the timers change: the engine asks it
  /// twice an event.
  public private(set) var nextDue: Nanoseconds?
  private var slots: [Slot] = []
  /// The slots of pending tags that do not number themselves.
  private var slotsByTag: [Tag: Int] = [:]
  /// Slots given up by tags that do not number themselves, to be given again.
  private var freeSlots: [Int] = []
  private var nextSequence: UInt64 = 0

  /// A scheduler with no timer.
  public init() {}

  /// Arms `tag` to fire at `due`, replacing the pending timer with the same tag, if any.
  /// - Complexity: O(log *n*), where *n* is the number of pending timers; O(1) amortized for a
  ///   timer due after every other while more than 64 are pending.
  public mutating func schedule(_ tag: Tag, at due: Nanoseconds, endOfStream: EndOfStream = .fire) {
    let slot = slotNumber(for: tag)
    // The usual re-arms, a stall timer's at every frame, with the policy unchanged: with a few
    // timers, in the heap; with many streams delivering in turn, from the front of the lane to
    // its back. Taken first, with the rest a call: one body for every case kept its registers
    // saved and restored at every frame (callgrind, the bench's day trace).
    let entry = Entry(due: due, sequence: nextSequence, slot: slot)
    if lane.isEmpty {
      let place = heap.place(ofSlot: slot)
      if place >= 0 && heap.count <= Self.laneOpensAbove && slots[slot].endOfStream == endOfStream {
        nextSequence &+= 1
        heap.replace(at: place, with: entry)
        nextDue = heap.first?.due
        checkInvariants()
        return
      }
    } else if staleInLane == 0, let first = lane.first, first.slot == slot, lane.last!.due <= due,
      heap.place(ofSlot: slot) == TimerHeap.inLane, slots[slot].endOfStream == endOfStream
    {
      nextSequence &+= 1
      lane.moveFirstToBack(as: entry)
      updateNextDue()
      checkInvariants()
      return
    }
    schedule(tag, inSlot: slot, at: due, endOfStream: endOfStream)
  }

  /// ``schedule(_:at:endOfStream:)`` in `tag`'s slot, for what the usual re-arms taken first
  /// leave: setting a timer, a new policy, a lane with stale entries, a heap deep enough to open
  /// the lane.
  @inline(never)
  private mutating func schedule(
    _ tag: Tag, inSlot slot: Int, at due: Nanoseconds, endOfStream: EndOfStream
  ) {
    let entry = Entry(due: due, sequence: nextSequence, slot: slot)
    nextSequence &+= 1
    let place = heap.place(ofSlot: slot)
    // The lane opens once the heap is deep: with a few timers, sifting costs less than keeping
    // a lane (callgrind, one stream: about 180 instructions a frame more through the lane).
    let laneIsOpen = !lane.isEmpty || heap.count > Self.laneOpensAbove
    let joinsLane = laneIsOpen && (lane.last.map { $0.due <= due } ?? true)
    if place >= 0 && !joinsLane {
      // Written only when it changes (it seldom does): a store checks the slots for sharing.
      if slots[slot].endOfStream != endOfStream { slots[slot].endOfStream = endOfStream }
      heap.replace(at: place, with: entry)
    } else if place == TimerHeap.inLane && joinsLane {
      // A re-arm in the lane that the usual one above leaves (its entry not the first, or stale
      // entries ahead of it): the old entry goes stale, the new one to the back.
      if slots[slot].endOfStream != endOfStream { slots[slot].endOfStream = endOfStream }
      // Appended first, so that the old entry is stale when the front is cleared.
      lane.append(entry)
      staleInLane &+= 1
      dropStaleLaneEntries()
    } else {
      if place >= 0 {
        heap.remove(at: place)
      } else if place == TimerHeap.inLane {
        heap.setPlace(TimerHeap.notPending, ofSlot: slot)
        staleInLane &+= 1
        dropStaleLaneEntries()
      }
      slots[slot] = Slot(tag: tag, endOfStream: endOfStream)
      if joinsLane {
        heap.setPlace(TimerHeap.inLane, ofSlot: slot)
        lane.append(entry)
      } else {
        heap.insert(entry)
      }
    }
    updateNextDue()
    checkInvariants()
  }

  /// Disarms `tag`; does nothing when it is not pending.
  /// - Complexity: O(log *n*), where *n* is the number of pending timers.
  public mutating func cancel(_ tag: Tag) {
    cancel(slot: Self.number(of: tag) ?? slotsByTag[tag])
  }

  /// ``cancel(_:)`` of the tag whose slot this is, if any.
  @inline(__always)
  private mutating func cancel(slot: Int?) {
    guard let slot, slot < slots.count, heap.place(ofSlot: slot) != TimerHeap.notPending else { return }
    remove(slot: slot)
    updateNextDue()
    checkInvariants()
  }

  /// The pending timers, in firing order.
  /// - Complexity: O(*n* log *n*).
  public var pending: [Timer] {
    pendingEntries.sorted { $0.firesBefore($1) }.map(timer(of:))
  }

  /// The entries of the pending timers, the heap's and the lane's live ones.
  private var pendingEntries: [Entry] {
    heap.entries + lane.entries.filter { Self.isLive($0, in: lane, heap) }
  }

  /// Removes and returns the first timer to fire if it is due at or before `limit`.
  /// - Complexity: O(log *n*), where *n* is the number of pending timers.
  mutating func popFirst(dueAtOrBefore limit: Nanoseconds) -> Timer? {
    guard let due = nextDue, due <= limit else { return nil }
    let first: Entry
    if let laneFirst = lane.first, heap.first.map({ laneFirst.firesBefore($0) }) ?? true {
      first = laneFirst
    } else {
      first = heap[0]
    }
    let timer = timer(of: first)
    remove(slot: first.slot)
    updateNextDue()
    checkInvariants()
    return timer
  }

  /// Drops every timer whose end-of-stream policy is `.cancel`.
  /// - Complexity: O(*n* log *n*).
  mutating func cancelAtEndOfStream() {
    let cancelled = pendingEntries.filter { slots[$0.slot].endOfStream == .cancel }.map { timer(of: $0).tag }
    for tag in cancelled { cancel(tag) }
  }

  /// Whether `entry`, in the lane, is its timer's pending entry, not one left stale.
  private static func isLive(_ entry: Entry, in lane: TimerLane, _ heap: TimerHeap) -> Bool {
    heap.place(ofSlot: entry.slot) == TimerHeap.inLane && lane.isLive(entry)
  }

  @inline(__always)
  private mutating func updateNextDue() {
    let laneDue = lane.first?.due
    guard let heapDue = heap.first?.due else { return nextDue = laneDue }
    nextDue = laneDue.map { Swift.min($0, heapDue) } ?? heapDue
  }

  /// Takes the stale entries off the front of the lane, so its first is live, and compacts the
  /// lane when most of it is stale: each entry is stepped over once, and the lane holds at
  /// most twice its live entries (and 64 more).
  private mutating func dropStaleLaneEntries() {
    while let first = lane.first, !Self.isLive(first, in: lane, heap) {
      lane.removeFirst()
      staleInLane &-= 1
    }
    if lane.count > 64 && staleInLane &* 2 > lane.count {
      let heap = heap
      lane.removeStale { heap.place(ofSlot: $0) == TimerHeap.inLane }
      staleInLane = 0
    }
  }

  private func timer(of entry: Entry) -> Timer {
    let slot = slots[entry.slot]
    // Every pending entry's slot holds its tag (checked in debug by `checkInvariants`).
    return Timer(tag: slot.tag!, due: entry.due, endOfStream: slot.endOfStream, sequence: entry.sequence)
  }

  /// `tag`'s slot, made ready for it: its own number, or a free slot for a tag that does not
  /// number itself. Each frame re-arms its stream's stall timer. Tuning: hot-inline.
  @inline(__always)
  private mutating func slotNumber(for tag: Tag) -> Int {
    if let number = Self.number(of: tag) { return slot(numbered: number) }
    if let slot = slotsByTag[tag] { return slot }
    let slot = freeSlots.popLast() ?? slots.count
    if slot == slots.count {
      slots.append(Slot())
      heap.addSlots(upTo: slots.count)
      lane.addSlots(upTo: slots.count)
    }
    slotsByTag[tag] = slot
    return slot
  }

  /// The slot of the tag numbered `number`, there once this returns.
  @inline(__always)
  private mutating func slot(numbered number: Int) -> Int {
    if number >= slots.count {
      slots.append(contentsOf: repeatElement(Slot(), count: number &+ 1 &- slots.count))
      heap.addSlots(upTo: slots.count)
      lane.addSlots(upTo: slots.count)
    }
    return number
  }

  /// `tag`'s own number, when its type numbers its tags. Tuning: hot-inline (specialized, the
  /// cast is decided when the scheduler is compiled for its tag type).
  @inline(__always)
  private static func number(of tag: Tag) -> Int? {
    (tag as? any DenselyNumberedTimerTag)?.denseNumber
  }

  /// Removes the pending timer of `slot`, from the heap or from the lane.
  private mutating func remove(slot: Int) {
    let place = heap.place(ofSlot: slot)
    // Tags of one type either all number themselves or are all in the dictionary.
    if !slotsByTag.isEmpty {
      slotsByTag[slots[slot].tag!] = nil
      freeSlots.append(slot)
    }
    slots[slot].tag = nil
    if place >= 0 {
      heap.remove(at: place)
    } else {
      heap.setPlace(TimerHeap.notPending, ofSlot: slot)
      staleInLane &+= 1
      dropStaleLaneEntries()
    }
  }

  /// How many timers the heap holds before a timer due after every other joins the lane.
  private static var laneOpensAbove: Int { 64 }

  /// Debug builds check the heap and the lane whole while they are small (tests), so the check
  /// stays cheap on a hostile trace's hundred thousand timers.
  private func checkInvariants() {
    #if DEBUG
      assert(slotsByTag.count + freeSlots.count <= slots.count, "a slot per indexed tag or free")
      assert(
        lane.first.map { Self.isLive($0, in: lane, heap) } ?? true, "the lane's first entry is live")
      guard heap.count <= 64 && lane.count <= 64 else { return }
      let inLane = lane.entries
      assert(staleInLane == inLane.count { !Self.isLive($0, in: lane, heap) }, "stale entries counted")
      assert(zip(inLane, inLane.dropFirst()).allSatisfy { !$1.firesBefore($0) }, "the lane in order")
      assert(
        inLane.allSatisfy { !Self.isLive($0, in: lane, heap) || slots[$0.slot].tag != nil },
        "live lane entries' tags")
      assert(heap.slotCount == slots.count && lane.slotCount == slots.count, "a place for every slot")
      for (index, entry) in heap.entries.enumerated() {
        assert(entry.slot < slots.count && heap.place(ofSlot: entry.slot) == index, "place of entry \(index)")
        assert(slots[entry.slot].tag != nil, "the tag of entry \(index)")
        if index > 0 { assert(!entry.firesBefore(heap[(index - 1) / 2]), "heap order at \(index)") }
      }
    #endif
  }
}

/// A timer tag that gives itself a number, so a ``TimerScheduler`` keeps its timer in an array
/// slot by that number rather than hashing the tag: the cost of a timer stays flat in the number
/// of tags.
public protocol DenselyNumberedTimerTag: Hashable, Sendable {
  /// This tag's number: 0 or more, distinct for distinct tags, and dense (the scheduler keeps
  /// an array as long as the greatest number pending).
  var denseNumber: Int { get }
}
