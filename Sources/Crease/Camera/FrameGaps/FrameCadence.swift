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
  private var deltas: [Int64]
  private var scratch: [Int64]
  private var count = 0
  private var next = 0

  /// A cadence fixed by a declared rate, or estimated when `framesPerSecond` is `nil`.
  init(framesPerSecond: Double?) {
    nominal = framesPerSecond.map(FrameDuration.init(framesPerSecond:))
    isDeclared = framesPerSecond != nil
    deltas = Array(repeating: 0, count: Self.window)
    scratch = deltas
  }

  /// Takes in an ordinary delta (not a gap, and not bridged by a reported drop) of a stream
  /// without a declared rate.
  // The test inlined into each frame's step, the estimate a call: a declared rate, the usual
  // case, needs none (callgrind: 4 instructions an event as a call).
  @inline(__always)
  mutating func observe(_ delta: Nanoseconds) {
    guard !isDeclared, delta > .zero else { return }
    estimate(adding: delta)
  }

  /// Adds a delta to the window and takes the median of the window as the nominal duration.
  private mutating func estimate(adding delta: Nanoseconds) {
    deltas[next] = delta.rawValue
    next = (next + 1) % Self.window
    count = Swift.min(count + 1, Self.window)
    guard count >= Self.minimumSamples else { return }
    // An insertion sort in place: at most 15 values, and a slice sort would copy.
    for index in 0..<count {
      let value = deltas[index]
      var position = index
      while position > 0 && scratch[position - 1] > value {
        scratch[position] = scratch[position - 1]
        position -= 1
      }
      scratch[position] = value
    }
    nominal = FrameDuration(Nanoseconds(scratch[count / 2]))
  }

  /// The median of the deltas seen so far, however few, the lower of two: the estimate the
  /// first deltas are judged against when the input ends (or the session stops) before a
  /// trusted one exists. A hole only lengthens a delta, so of two the shorter is the frame.
  var provisional: FrameDuration? {
    guard count > 0 else { return nil }
    let seen = deltas[..<count].sorted()
    return FrameDuration(Nanoseconds(seen[(count - 1) / 2]))
  }

  /// A rate change was confirmed: the new duration holds from now on.
  mutating func adopt(_ duration: Nanoseconds) {
    nominal = FrameDuration(duration)
    for index in deltas.indices { deltas[index] = duration.rawValue }
    count = Self.window
  }
}
