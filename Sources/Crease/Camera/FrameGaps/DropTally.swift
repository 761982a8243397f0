/// Counts drops and their reasons without allocating: the most common reason wins, a tie goes
/// to the reason of the drop with the earliest pts, then of the first to arrive (SPEC 4.6);
/// drops without a reason count as drops, not for any reason. Drops are added in the order
/// they arrived.
struct DropTally {
  /// Where a reason's first drop stands: its pts, then its place in arrival order.
  private typealias Place = (pts: Nanoseconds, arrival: Int)

  private var counts = (0, 0, 0)
  private var earliest: (Place, Place, Place) = ((.max, .max), (.max, .max), (.max, .max))
  /// Every drop added, with a reason or without.
  private(set) var drops = 0

  mutating func add(_ reason: DropReason?, pts: Nanoseconds) {
    let place = (pts, drops)
    drops += 1
    // Strictly earlier only: of drops at one pts, the first to arrive keeps the place.
    switch reason {
    case nil: break
    case .frameWasLate:
      counts.0 += 1
      if pts < earliest.0.pts { earliest.0 = place }
    case .outOfBuffers:
      counts.1 += 1
      if pts < earliest.1.pts { earliest.1 = place }
    case .discontinuity:
      counts.2 += 1
      if pts < earliest.2.pts { earliest.2 = place }
    }
  }

  var mostCommon: DropReason? {
    var best: (reason: DropReason, count: Int, first: Place)?
    for (reason, count, first) in [
      (DropReason.frameWasLate, counts.0, earliest.0), (.outOfBuffers, counts.1, earliest.1),
      (.discontinuity, counts.2, earliest.2),
    ] where count > 0 {
      if best == nil || count > best!.count || (count == best!.count && first < best!.first) {
        best = (reason, count, first)
      }
    }
    return best?.reason
  }
}
