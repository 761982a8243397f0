/// What the engine knows of each source, by its index: the latest `t` read, the `end` time, and
/// whether it has finished.
///
/// The first source is kept in the collection itself and the others in an array. A replay of
/// one source writes its latest `t` for every event, and writing into an array element first
/// asks whether the array's storage is shared (a runtime call); a stored field needs no such
/// check.
@usableFromInline
struct SourceStates: RandomAccessCollection, MutableCollection, Sendable {
  /// One source's state.
  @usableFromInline
  struct State: Sendable {
    @usableFromInline var latest: Nanoseconds?
    var endTime: Nanoseconds?
    @usableFromInline var finished = false
  }

  // Usable from inlinable code: the engine's admission test reads them from other modules.
  @usableFromInline var first = State()
  @usableFromInline var others: [State]

  /// `count` sources that have read nothing; `count` is at least 1.
  init(count: Int) {
    precondition(count > 0, "an engine needs at least one source")
    others = Array(repeating: State(), count: count - 1)
  }

  @usableFromInline var startIndex: Int { 0 }
  @usableFromInline var endIndex: Int { others.count + 1 }

  /// Moves source `index`'s latest `t` up to `t` when `t` is later than it (than `.min` while the
  /// source has read nothing).
  /// - Complexity: O(1).
  // Asked for every event: through the subscript, a read and a write of the whole state each
  // asked which source it was (callgrind, the day trace: 1 instruction an event, both formats).
  @inline(__always)
  mutating func raiseLatest(of index: Int, to t: Nanoseconds) {
    if index == 0 {
      if t > first.latest ?? .min { first.latest = t }
    } else if t > others[index - 1].latest ?? .min {
      others[index - 1].latest = t
    }
  }

  /// - Complexity: O(1).
  @inlinable
  subscript(index: Int) -> State {
    get { index == 0 ? first : others[index - 1] }
    set {
      if index == 0 { first = newValue } else { others[index - 1] = newValue }
    }
  }
}
