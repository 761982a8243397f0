import Crease

/// The names a version 2 binary trace has spelled out so far, which later records give by
/// number (1 for the first).
///
/// Writer and reader keep the same table: a name spelled out joins it while there is ``Room``,
/// so a trace with more names than that spells the rest out every time and the table stays
/// bounded whatever the input.
struct BinaryNameTable {
  /// What a table may hold, counted alike by the writer and the reader.
  ///
  /// The limits are the camera stage's (``StreamBudget``): every stream the stages can track is
  /// numbered, so no frame of a trace of many streams spells its name out (at 30,000 streams,
  /// 1,494 instructions a frame when the table stopped at 1,024 names, 1,363 numbered).
  struct Room {
    /// The most names a table holds.
    static let maximumNames = StreamBudget.maximumStreams
    /// The most bytes of names a table holds.
    static let maximumBytes = StreamBudget.maximumNameBytes

    private var names = 0
    private var bytes = 0

    /// Counts `name` in when it fits, and says whether it did.
    /// - Complexity: O(1).
    mutating func take(_ name: String) -> Bool {
      let count = name.utf8.count
      guard names < Self.maximumNames, count <= Self.maximumBytes - bytes else { return false }
      names += 1
      bytes += count
      return true
    }
  }

  private var names: [String] = []
  private var room = Room()

  /// The name numbered `number`, or `nil` when no name has that number yet.
  /// - Complexity: O(1).
  func name(numbered number: UInt64) -> String? {
    number >= 1 && number <= UInt64(names.count) ? names[Int(number - 1)] : nil
  }

  /// Adds a name just spelled out, when there is room.
  /// - Complexity: Amortized O(1).
  mutating func add(_ name: String) {
    if room.take(name) { names.append(name) }
  }
}
