import Crease

/// Where one source stands in `--loop`: pass *k* shifts `t` and pts by *k* × (the first pass's
/// span + one 30 fps frame), so looped frames continue without a gap.
struct LoopShift {
  /// The pass being read, from 0.
  private(set) var pass = 0
  /// Records read in this pass (a header is valid only as the first).
  var records = 0
  private var offset = Nanoseconds.zero
  /// The earliest and latest `t` of the first pass, which give the span.
  private var first: Nanoseconds?
  private var last = Nanoseconds.zero

  /// The event moved to this pass's trace time; the first pass only measures the span.
  mutating func shift(_ event: Event) -> Event {
    guard pass > 0 else {
      if first == nil { first = event.t }
      last = max(last, event.t)
      return event
    }
    return event.shifted(by: offset)
  }

  /// Starts the next pass.
  mutating func nextPass() {
    pass += 1
    records = 0
    let period = (last - (first ?? .zero)) + Nanoseconds(33_333_333)
    // Saturates: a loop past the end of the time range stays at its end.
    let (product, overflow) = Int64(pass).multipliedReportingOverflow(by: period.rawValue)
    offset = overflow ? .max : Nanoseconds(product)
  }
}
