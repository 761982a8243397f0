import Crease

/// The names a version 2 binary trace has spelled out so far, which later records give by
/// number (1 for the first).
///
/// Writer and reader keep the same table: a name spelled out joins it while the camera stage's
/// ``StreamBudget`` would admit it (a view's name counted as a stream's), so every stream the
/// stages can track is numbered, a trace with more names spells the rest out every time, and
/// the table stays bounded whatever the input. At 30,000 streams a frame cost 1,494
/// instructions when the table stopped at 1,024 names, 1,363 numbered.
struct BinaryNameTable {
  private var names: [String] = []
  private var room = StreamBudget()
  /// The long mark labels made lately, made again without allocating: labels are spelled out
  /// every time, and a trace repeats a few of them.
  let labels = RecentStrings()
  /// Whether an empty name has been numbered: no stream may have one, and a stream's name given
  /// by number (a frame's, a drop's, an input's, a stream end's) is checked by its text only
  /// when this is set.
  private(set) var numbersAnEmptyName = false

  /// The name numbered `number`, or `nil` when no name has that number yet.
  /// - Complexity: O(1).
  // Once a frame, inside the record's decoding. Tuning: hot-inline.
  @inline(__always)
  func name(numbered number: UInt64) -> String? {
    guard number >= 1 && number <= UInt64(names.count) else { return nil }
    return names[Int(number - 1)].copyIgnoringImmortality()
  }

  /// Adds a name just spelled out, when the budget admits it.
  /// - Complexity: Amortized O(1).
  mutating func add(_ name: String) {
    guard room.admit(StreamName(rawValue: name)) else { return }
    names.append(name)
    if name.isEmpty { numbersAnEmptyName = true }
  }
}
