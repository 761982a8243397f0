/// A track's times, packed: each the difference from the one before as a zigzag varint, so
/// that a movie's presentation times, a frame's duration apart, take a byte or two each
/// instead of eight while every track waits to be merged with the others (and its samples'
/// decode times, offsets and data ends while the file is read).
///
/// Any `Int64` values pack, in any order: the differences wrap, and zigzag keeps a small step
/// back as small as a small step on.
public struct PackedTimes: Sequence, Hashable, Sendable {
  private var bytes: [UInt8] = []
  /// How many times are packed.
  public private(set) var count = 0
  /// The last time packed, which the next one's difference is from.
  private var last: Int64 = 0

  /// No times.
  init() {}

  /// `times`, in their order.
  /// - Complexity: O(*n*).
  public init(_ times: some Sequence<Int64>) {
    for time in times { append(time) }
  }

  /// Packs `time` after the others.
  /// - Complexity: O(1) amortized.
  mutating func append(_ time: Int64) {
    let step = time &- last
    var zigzag = UInt64(bitPattern: (step << 1) ^ (step >> 63))
    while zigzag >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
      zigzag >>= 7
    }
    bytes.append(UInt8(zigzag))
    last = time
    count += 1
  }

  /// Whether no time is packed.
  public var isEmpty: Bool { count == 0 }

  /// The first time, if any.
  public var first: Int64? {
    var iterator = makeIterator()
    return iterator.next()
  }

  public var underestimatedCount: Int { count }

  public func makeIterator() -> Iterator { Iterator(bytes: bytes) }

  /// The times in their order, unpacked one at a time.
  public struct Iterator: IteratorProtocol, Sendable {
    private let bytes: [UInt8]
    private var position = 0
    private var previous: Int64 = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// - Complexity: O(1): a varint is at most ten bytes, each written by ``PackedTimes/init(_:)``.
    public mutating func next() -> Int64? {
      guard position < bytes.count else { return nil }
      var zigzag: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        let byte = bytes[position]
        position += 1
        zigzag |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { break }
        shift += 7
      }
      let step = Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
      previous = previous &+ step
      return previous
    }
  }
}
