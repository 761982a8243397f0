/// Where a hand holds the hinge over time: holds and movements, eased so a movement accelerates
/// and decelerates as a hand does.
struct HingePlan {
  private struct Segment {
    var start: Int64
    var end: Int64
    var from: Double
    var to: Double
  }

  private var segments: [Segment] = []
  /// The end of the plan so far, in ns.
  private(set) var time: Int64
  /// The angle at the end of the plan so far.
  private(set) var angle: Double

  init(start: Int64 = 0, angle: Double) {
    time = start
    self.angle = angle
  }

  /// Keeps the hinge still for `duration` ns.
  mutating func hold(_ duration: Int64) { move(to: angle, over: duration) }

  /// Moves the hinge to `target` degrees over `duration` ns.
  mutating func move(to target: Double, over duration: Int64) {
    segments.append(Segment(start: time, end: time + duration, from: angle, to: target))
    time += duration
    angle = target
  }

  /// The planned angle at `t`; before the plan its first angle, after it its last.
  /// - Complexity: O(log *n*) in the number of segments.
  func angle(at t: Int64) -> Double {
    guard let first = segments.first else { return angle }
    if t <= first.start { return first.from }
    var low = 0
    var high = segments.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if segments[middle].start <= t { low = middle } else { high = middle - 1 }
    }
    let segment = segments[low]
    guard t < segment.end, segment.end > segment.start else { return segment.to }
    let x = Double(t - segment.start) / Double(segment.end - segment.start)
    let eased = x * x * (3 - 2 * x)
    return segment.from + (segment.to - segment.from) * eased
  }
}
