/// Counts drops and their reasons without allocating: the most common reason wins, a tie goes
/// to the reason whose first drop came earliest (SPEC 4.6); drops without a reason count as
/// drops, not for any reason.
struct DropTally {
  private var counts = (0, 0, 0)
  private var earliest = (Nanoseconds.max, Nanoseconds.max, Nanoseconds.max)
  /// Every drop added, with a reason or without.
  private(set) var drops = 0

  mutating func add(_ reason: DropReason?, pts: Nanoseconds) {
    drops += 1
    switch reason {
    case nil: break
    case .frameWasLate:
      counts.0 += 1
      earliest.0 = min(earliest.0, pts)
    case .outOfBuffers:
      counts.1 += 1
      earliest.1 = min(earliest.1, pts)
    case .discontinuity:
      counts.2 += 1
      earliest.2 = min(earliest.2, pts)
    }
  }

  var mostCommon: DropReason? {
    var best: (reason: DropReason, count: Int, earliest: Nanoseconds)?
    for (reason, count, first) in [
      (DropReason.frameWasLate, counts.0, earliest.0), (.outOfBuffers, counts.1, earliest.1),
      (.discontinuity, counts.2, earliest.2),
    ] where count > 0 {
      if best == nil || count > best!.count || (count == best!.count && first < best!.earliest) {
        best = (reason, count, first)
      }
    }
    return best?.reason
  }
}
