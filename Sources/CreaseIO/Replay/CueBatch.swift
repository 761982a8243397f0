import Crease

/// Cues on their way to a ``CueWriter``'s thread, each with the latency bound that applied when
/// it was drained.
///
/// The storage is the batch's own and is reused from one hand-over to the next. Cues are moved
/// in, never copied, and the writing thread destroys them once written. Copying each cue into
/// an array and destroying the original cost the replay's thread about 400 instructions a cue.
final class CueBatch: @unchecked Sendable {
  private var cues: UnsafeMutablePointer<Cue>
  private var bounds: UnsafeMutablePointer<Nanoseconds?>
  /// How many cues fit before the storage grows.
  private(set) var capacity: Int
  /// How many cues it holds.
  private(set) var count = 0
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

  /// Moves every cue of `moved` in after those already here, each with the bound at the same
  /// index of `movedBounds`, and leaves both arrays empty with their storage. Grows when they
  /// do not fit, as a burst of cues longer than a batch may not.
  /// - Complexity: O(*n*) for *n* cues moved.
  func append(moving moved: inout [Cue], bounds movedBounds: inout [Nanoseconds?]) {
    precondition(moved.count == movedBounds.count, "a bound for each cue")
    let added = moved.count
    if added > room { grow(toHold: count + added) }
    // Taken from the back, the only end an array gives an element up from without a copy.
    var slot = count + added
    while let cue = moved.popLast(), let bound = movedBounds.popLast() {
      slot -= 1
      (cues + slot).initialize(to: cue)
      (bounds + slot).initialize(to: bound)
    }
    count += added
  }

  /// Calls `body` with each cue and its bound, in order.
  func forEach(_ body: (borrowing Cue, Nanoseconds?) throws -> Void) rethrows {
    for index in 0..<count { try body(cues[index], bounds[index]) }
  }

  /// Destroys the cues, keeping the storage.
  func removeAll() {
    cues.deinitialize(count: count)
    bounds.deinitialize(count: count)
    count = 0
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
