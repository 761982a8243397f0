import Crease

/// Cues on their way to a ``CueWriter``'s thread, each with the latency bound that applied when
/// it was drained.
///
/// The storage is the batch's own and is reused from one hand-over to the next. Cues are moved
/// in and moved out again to be written, never copied, not even to be looked at in place.
/// Tuning: moved-not-copied. Slots are counted with wrapping
/// arithmetic, unchecked: they stay within the storage.
///
/// Safe because slots `taken..<count` hold initialized cues and bounds, and only they: a cue is
/// initialized at `count` after the storage has room for it, moved out at `taken` only while
/// `taken < count`, and ``removeAll()`` and `deinit` deinitialize exactly the rest.
final class CueBatch: @unchecked Sendable {
  private var cues: UnsafeMutablePointer<Cue>
  private var bounds: UnsafeMutablePointer<Nanoseconds?>
  /// How many cues fit before the storage grows.
  private(set) var capacity: Int
  /// How many cues it holds, taken or not.
  private(set) var count = 0
  /// The bytes of text its cues carry (`CueKind/textByteCount`), so that a writer can
  /// hand over a batch of a few large cues as soon as one of many small ones.
  private(set) var textBytes = 0
  /// Cues before this one have been taken out.
  private var taken = 0
  /// Whether the replay has no cues after these.
  var isLast = false

  init(capacity: Int) {
    self.capacity = capacity
    cues = .allocate(capacity: capacity)
    bounds = .allocate(capacity: capacity)
  }

  deinit {
    removeAll()
    cues.deallocate()
    bounds.deallocate()
  }

  /// Room left before the storage would grow.
  var room: Int { capacity - count }

  /// Moves every cue `engine` has produced in after those already here, each with its latency
  /// bound asked now (`nil` unless `askingBounds`), and leaves the engine with none. Grows when
  /// they do not fit, as a burst of cues longer than a batch may not.
  /// - Complexity: O(*n*) for *n* cues moved.
  // Inlined where the replay drains its cues. Tuning: hot-inline.
  @inline(__always)
  func append<Processor>(cuesOf engine: inout Engine<Processor>, askingBounds: Bool) {
    assert(taken == 0, "a batch is filled, then taken from, then emptied")
    let added = engine.cueCount
    if added > room { grow(toHold: count + added) }
    // Safe because the storage holds `count + added` now, and the engine hands over exactly
    // `added` cues: each goes to the next uninitialized slot, counted as it is initialized.
    engine.drainCues(askingBounds: askingBounds) { cue, bound in
      textBytes &+= cue.kind.textByteCount
      (bounds + count).initialize(to: bound)
      (cues + count).initialize(to: consume cue)
      count &+= 1
    }
  }

  /// Moves out the first cue not yet taken, with its bound; `nil` when all have been.
  /// - Complexity: O(1).
  func takeFirst() -> (cue: Cue, bound: Nanoseconds?)? {
    guard taken < count else { return nil }
    defer { taken &+= 1 }
    return ((cues + taken).move(), (bounds + taken).move())
  }

  /// Destroys the cues not taken, keeping the storage.
  func removeAll() {
    // Nearly always all were taken: even for none, deinitializing calls the runtime.
    if count > taken {
      (cues + taken).deinitialize(count: count &- taken)
      (bounds + taken).deinitialize(count: count &- taken)
    }
    count = 0
    textBytes = 0
    taken = 0
    isLast = false
  }

  private func grow(toHold needed: Int) {
    let larger = Swift.max(needed, capacity * 2)
    let newCues = UnsafeMutablePointer<Cue>.allocate(capacity: larger)
    let newBounds = UnsafeMutablePointer<Nanoseconds?>.allocate(capacity: larger)
    newCues.moveInitialize(from: cues, count: count)
    newBounds.moveInitialize(from: bounds, count: count)
    cues.deallocate()
    bounds.deallocate()
    cues = newCues
    bounds = newBounds
    capacity = larger
  }
}
