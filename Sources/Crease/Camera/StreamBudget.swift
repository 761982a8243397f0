/// How many streams, and how many bytes of their names, a stage keeps state for: memory stays
/// bounded on a trace that names new streams without end, or streams with names of a megabyte.
///
/// A stream past the budget is not tracked; its events are counted by whoever asked.
public struct StreamBudget: Hashable, Sendable {
  /// The most streams tracked: about 100 MB of the camera stage's state at the most.
  public static let maximumStreams = 100_000
  /// The most bytes of stream names kept.
  public static let maximumNameBytes = 32 << 20

  /// Streams admitted so far.
  public private(set) var streams = 0
  /// Bytes of their names.
  public private(set) var nameBytes = 0

  /// A budget with nothing spent.
  public init() {}

  /// Admits a stream not seen before when it fits the budget, and says whether it did.
  /// - Complexity: O(1).
  public mutating func admit(_ name: StreamName) -> Bool {
    let bytes = name.rawValue.utf8.count
    guard streams < Self.maximumStreams, nameBytes + bytes <= Self.maximumNameBytes else { return false }
    streams += 1
    nameBytes += bytes
    return true
  }

  /// The limits in words, for a summary.
  public static let description = "100,000 streams or 32 MiB of stream names"
}
