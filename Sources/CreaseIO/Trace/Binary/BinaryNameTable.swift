/// The names a version 2 binary trace has spelled out so far, which later records give by
/// number (1 for the first).
///
/// Writer and reader keep the same table: a name spelled out joins it while it holds fewer than
/// ``capacity`` names, so a trace with more distinct names than that spells the rest out every
/// time and the table stays bounded whatever the input.
struct BinaryNameTable {
  /// The most names a table holds.
  static let capacity = 1_024

  private var names: [String] = []

  /// The name numbered `number`, or `nil` when no name has that number yet.
  /// - Complexity: O(1).
  func name(numbered number: UInt64) -> String? {
    number >= 1 && number <= UInt64(names.count) ? names[Int(number - 1)] : nil
  }

  /// Adds a name just spelled out, unless the table is full.
  mutating func add(_ name: String) {
    if names.count < Self.capacity { names.append(name) }
  }
}
