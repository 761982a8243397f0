import Crease

/// The hinge angle reduced to what a pixel column can show: per column the lowest and highest
/// sample (drawn as a band) and the mean (drawn as a line), in segments that break where the
/// samples stop for longer than ``gapLimit``, so a stretch without samples is drawn as nothing
/// rather than as a slope between its ends. A one-hour trace draws a few thousand points
/// instead of hundreds of thousands, and every extreme stays inside the band.
enum AngleColumns {
  typealias Sample = (t: Nanoseconds, degrees: Double)

  /// One pixel column's samples.
  struct Column {
    var index: Int
    var count: Int
    /// The one sample, when the column holds only one: drawn where it is, not at the centre.
    var only: Sample?
    var lowest: Double
    var highest: Double
    var sum: Double

    var mean: Double { sum / Double(count) }
  }

  /// Samples further apart than this are not joined: the hinge sent nothing in between.
  static let gapLimit = Nanoseconds.seconds(1)

  /// The columns of `samples` (in time order) on `scale`, in unbroken segments.
  /// - Complexity: O(*n*) in the number of samples.
  static func segments(_ samples: some Sequence<Sample>, on scale: PlotScale) -> [[Column]] {
    var segments: [[Column]] = []
    var segment: [Column] = []
    var previous: Nanoseconds?
    for sample in samples {
      if let previous, sample.t - previous > gapLimit, !segment.isEmpty {
        segments.append(segment)
        segment = []
      }
      previous = sample.t
      let index = scale.column(sample.t)
      if var column = segment.last, column.index == index {
        column.count += 1
        column.only = nil
        column.lowest = min(column.lowest, sample.degrees)
        column.highest = max(column.highest, sample.degrees)
        column.sum += sample.degrees
        segment[segment.count - 1] = column
      } else {
        segment.append(
          Column(
            index: index, count: 1, only: sample, lowest: sample.degrees, highest: sample.degrees,
            sum: sample.degrees))
      }
    }
    if !segment.isEmpty { segments.append(segment) }
    return segments
  }
}
