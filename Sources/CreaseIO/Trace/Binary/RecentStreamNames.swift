import Crease

/// The stream names a binary trace has decoded lately, found again by their bytes.
///
/// Every frame and drop record repeats its stream's name. Building and checking a `String` for
/// it each time cost about 100 instructions a record; a name of up to 16 bytes seen before is
/// instead matched as two machine words and its earlier value returned. Longer names are decoded
/// every time. The bytes of a remembered name were valid UTF-8 when first decoded, so a match
/// needs no check.
struct RecentStreamNames {
  /// The longest name remembered: two 8-byte words.
  static let maximumLength = 16
  /// How many names are remembered; a trace rarely has more streams than this.
  static let capacity = 4

  private struct Key: Equatable {
    var count: Int
    var low: UInt64
    var high: UInt64
  }

  private var keys: [Key] = []
  private var names: [StreamName] = []
  private var nextReplaced = 0

  /// The remembered name spelled by `count` bytes at `start`, or `nil`.
  ///
  /// - Precondition: `maximumLength` bytes from `start` are readable (the bytes past `count`
  ///   are ignored).
  /// - Complexity: O(`capacity`).
  func name(at start: UnsafeRawPointer, count: Int) -> StreamName? {
    guard let key = Self.key(at: start, count: count) else { return nil }
    for index in keys.indices where keys[index] == key { return names[index] }
    return nil
  }

  /// Remembers `name` as the one spelled by `count` bytes at `start`, in place of the oldest
  /// once `capacity` names are remembered.
  /// - Precondition: as for ``name(at:count:)``.
  mutating func remember(_ name: StreamName, at start: UnsafeRawPointer, count: Int) {
    guard let key = Self.key(at: start, count: count) else { return }
    if keys.count < Self.capacity {
      keys.append(key)
      names.append(name)
      return
    }
    keys[nextReplaced] = key
    names[nextReplaced] = name
    nextReplaced = (nextReplaced + 1) % Self.capacity
  }

  /// The name's bytes as two little-endian words, the bytes past `count` cleared. Safe because
  /// callers guarantee `maximumLength` (16) readable bytes from `start` (the binary reader keeps
  /// 16 zero bytes after what it read), and the two loads read exactly those.
  private static func key(at start: UnsafeRawPointer, count: Int) -> Key? {
    guard count <= maximumLength else { return nil }
    let low = UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
    let high = UInt64(littleEndian: (start + 8).loadUnaligned(as: UInt64.self))
    return Key(count: count, low: low & mask(keeping: count), high: high & mask(keeping: count - 8))
  }

  /// A mask of the low `count` bytes of a word (none when `count` ≤ 0, all from 8).
  private static func mask(keeping count: Int) -> UInt64 {
    count >= 8 ? .max : count <= 0 ? 0 : (1 << (8 * UInt64(count))) - 1
  }
}
