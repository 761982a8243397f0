/// A stream's nominal frame duration (SPEC 4.6): declared by the trace header, or the median
/// of the stream's recent ordinary pts deltas, so a gap or a burst does not move it.
///
/// Storage is allocated once per stream; observing a delta allocates nothing.
struct FrameCadence: Sendable {
  /// How many recent deltas the median is taken over.
  static let window = 15
  /// Deltas needed before an estimate is trusted.
  static let minimumSamples = 3

  /// The nominal frame duration, once known.
  private(set) var nominal: FrameDuration?
  private let isDeclared: Bool
  /// The window's deltas in order of arrival: a ring, the oldest at `next` once it is full.
  private var deltas: [Int64]
  /// The same deltas, sorted: kept so as each delta comes and the oldest goes, rather than
  /// sorted again for every frame (an insertion sort of the window at each frame cost about 370
  /// instructions a frame of a stream without a declared rate; callgrind, `make library-cost`).
  private var sorted: [Int64]
  private var count = 0
  private var next = 0

  /// A cadence fixed by a declared rate, or estimated when `framesPerSecond` is `nil`.
  init(framesPerSecond: Double?) {
    nominal = framesPerSecond.map(FrameDuration.init(framesPerSecond:))
    isDeclared = framesPerSecond != nil
    deltas = Array(repeating: 0, count: Self.window)
    sorted = deltas
  }

  /// Takes in an ordinary delta (not a gap, and not bridged by a reported drop) of a stream
  /// without a declared rate.
  // The test inlined into each frame's step, the estimate a call: a declared rate, the usual
  // case, needs none. Tuning: hot-inline.
  @inline(__always)
  mutating func observe(_ delta: Nanoseconds) {
    guard !isDeclared, delta > .zero else { return }
    estimate(adding: delta)
  }

  /// Adds a delta to the window and takes the median of the window as the nominal duration.
  /// - Complexity: O(*w*) in the window's length.
  private mutating func estimate(adding delta: Nanoseconds) {
    let value = delta.rawValue
    // Through the storage of each array, checked for sharing once rather than at each write.
    // Safe because every index stays below `count`, which is at most `window`, both arrays' length: the
    // oldest is found among the `count` sorted values that hold it, and the new one goes in at
    // `count` or below after the oldest has left a full window.
    deltas.withUnsafeMutableBufferPointer { deltas in
      sorted.withUnsafeMutableBufferPointer { sorted in
        if count == Self.window {
          // The oldest delta leaves the sorted window, the values after it moving down one
          // place. Its first place among them is found by halving: an index below `count`
          // whatever the values.
          let oldest = deltas[next]
          var (index, end) = (0, count - 1)
          while index < end {
            let middle = (index + end) / 2
            if sorted[middle] < oldest { index = middle + 1 } else { end = middle }
          }
          while index + 1 < count {
            sorted[index] = sorted[index + 1]
            index += 1
          }
          count -= 1
        }
        deltas[next] = value
        // The new one goes in its place among the sorted values, the larger moving up one.
        var position = count
        while position > 0 && sorted[position - 1] > value {
          sorted[position] = sorted[position - 1]
          position -= 1
        }
        sorted[position] = value
      }
    }
    next = (next + 1) % Self.window
    count += 1
    checkInvariants()
    guard count >= Self.minimumSamples else { return }
    nominal = FrameDuration(Nanoseconds(sorted[count / 2]))
  }

  /// In debug builds, checks that the sorted window holds the ring's deltas.
  private func checkInvariants() {
    #if DEBUG
      let held = count < Self.window ? Array(deltas[..<count]) : deltas
      assert(Array(sorted[..<count]) == held.sorted(), "the sorted window holds the window's deltas")
    #endif
  }

  /// A rate change was confirmed: the new duration holds from now on.
  mutating func adopt(_ duration: Nanoseconds) {
    nominal = FrameDuration(duration)
    for index in deltas.indices {
      deltas[index] = duration.rawValue
      sorted[index] = duration.rawValue
    }
    count = Self.window
  }
}
