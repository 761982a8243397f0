import Crease

/// The hinge angle reduced to what a pixel column can show: per column the first, lowest,
/// highest and last sample, in time order. Every motion stays visible (its extremes are kept)
/// while a one-hour trace draws a few thousand points instead of hundreds of thousands.
enum AngleDecimation {
  typealias Sample = (t: Nanoseconds, degrees: Double)

  /// The points to draw for `samples` (in time order) on `scale`.
  /// - Complexity: O(*n*) in the number of samples.
  static func points(_ samples: some Sequence<Sample>, on scale: PlotScale) -> [Sample] {
    // Each kept sample with its position in the input, which orders and de-duplicates them.
    typealias Numbered = (number: Int, sample: Sample)
    var points: [Sample] = []
    var column: (index: Int, first: Numbered, lowest: Numbered, highest: Numbered, last: Numbered)?
    func flush() {
      guard let column else { return }
      var previous = -1
      for kept in [column.first, column.lowest, column.highest, column.last].sorted(by: {
        $0.number < $1.number
      })
      where kept.number != previous {
        points.append(kept.sample)
        previous = kept.number
      }
    }
    for (number, sample) in samples.enumerated() {
      let numbered = (number, sample)
      let index = scale.column(sample.t)
      guard var current = column, current.index == index else {
        flush()
        column = (index, numbered, numbered, numbered, numbered)
        continue
      }
      current.last = numbered
      if sample.degrees < current.lowest.sample.degrees { current.lowest = numbered }
      if sample.degrees > current.highest.sample.degrees { current.highest = numbered }
      column = current
    }
    flush()
    return points
  }
}
