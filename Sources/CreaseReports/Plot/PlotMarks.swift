import Crease

/// Markers and slices of one kind, merged where they would overlap on the canvas: a long trace
/// draws a bounded number of elements, and a merged one says in its tooltip how many it holds.
struct PlotMarks {
  /// One drawn element: where it starts and ends horizontally, and what its tooltip says.
  struct Mark {
    var from: Double
    var to: Double
    var y: Double
    var title: String
    var count = 1
    var lastSeconds: Double
  }

  /// Marks closer than this many pixels merge.
  let mergeDistance: Double

  private(set) var marks: [Mark] = []

  /// Marks that merge when closer than `mergeDistance` pixels.
  init(mergeDistance: Double = 3) { self.mergeDistance = mergeDistance }

  /// Adds a mark spanning `from...to` (a point when equal), merging it into the previous one
  /// when they overlap.
  mutating func add(from: Double, to: Double, y: Double, seconds: Double, title: @autoclosure () -> String) {
    if let last = marks.last, from <= last.to + mergeDistance, abs(y - last.y) < mergeDistance {
      marks[marks.count - 1].to = max(last.to, to)
      marks[marks.count - 1].count += 1
      marks[marks.count - 1].lastSeconds = seconds
      return
    }
    marks.append(Mark(from: from, to: to, y: y, title: title(), lastSeconds: seconds))
  }
}

extension PlotMarks.Mark {
  /// The tooltip: the first mark's description, and for a merged one how many more, until when.
  var tooltip: String {
    guard count > 1 else { return title }
    return title + " (+\(count - 1) more to \(String(fixed: lastSeconds, decimals: 3)) s)"
  }
}
