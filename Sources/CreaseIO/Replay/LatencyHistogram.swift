import Crease

/// Latencies in constant memory, for percentiles that merge exactly across replays.
///
/// Buckets are log-linear: latencies under 64 ns have a bucket each, and every power of two
/// above is split into 32 buckets. Each bucket keeps its count and the largest latency it holds,
/// and a percentile is the largest latency in the bucket of the nearest-rank sample. So a
/// percentile is never below the exact value and at most 1/32 of an octave (about 3%) above
/// it, exactly the value when its bucket holds one distinct latency (the common case for
/// debounce, settle and stall cues); and two histograms merge into the one their latencies
/// together would give.
///
/// Only occupied buckets are kept, in ascending order: a cue kind's latencies fill a few dozen
/// of the 1,888 buckets, so a fleet report, a batch or a sweep holding thousands of histograms
/// holds kilobytes each, not the 30 KB every bucket would take.
public struct LatencyHistogram: Hashable, Sendable {
  /// Buckets per power of two, as a number of bits.
  static let subBucketBits = 5
  static let subBuckets = 1 << subBucketBits
  /// Enough buckets for every non-negative `Int64`.
  public static let bucketCount = (63 - subBucketBits + 1) * subBuckets

  /// How many latencies were added.
  public private(set) var count = 0
  /// The largest latency added.
  public private(set) var maximum = Nanoseconds.zero
  /// The occupied buckets, by ascending index.
  private var occupied: [Occupied] = []
  /// Where in `occupied` the last latency went: a kind's cues mostly land in the bucket of the
  /// one before, so `add` looks there before it searches. Not part of the value.
  private var lastPlace = 0

  /// An empty histogram.
  public init() {}

  /// An occupied bucket and its index.
  private struct Occupied: Hashable, Sendable {
    var index: Int
    var bucket: Bucket
  }

  /// The bucket of a latency (negative ones count as 0).
  @inline(__always) package static func bucket(of latency: Int64) -> Int {
    let value = Swift.max(latency, 0)
    guard value >= 2 * Int64(subBuckets) else { return Int(value) }
    let exponent = 63 - value.leadingZeroBitCount
    let offset = Int((value >> (exponent - subBucketBits)) & Int64(subBuckets - 1))
    return (exponent - subBucketBits + 1) * subBuckets + offset
  }

  /// Adds one latency.
  /// - Complexity: O(1) when it falls in the bucket of the latency before; else O(log *b*) to
  ///   find its bucket, O(*b*) to make a new one, in occupied buckets *b* (at most 1,888).
  public mutating func add(_ latency: Nanoseconds) {
    let index = Self.bucket(of: latency.rawValue)
    // One latency a cue of one replay: its counts cannot reach `Int.max` (that many cues take
    // that many lines), so they add without the saturation that counts read from files need.
    // Safe because `lastPlace` is checked against the count before the unchecked access.
    let added = occupied.withUnsafeMutableBufferPointer { occupied in
      guard lastPlace < occupied.count, occupied[lastPlace].index == index else { return false }
      occupied[lastPlace].bucket.count &+= 1
      if latency > occupied[lastPlace].bucket.maximum { occupied[lastPlace].bucket.maximum = latency }
      return true
    }
    if !added { add(Bucket(count: 1, maximum: latency), searchingFor: index) }
    count &+= 1
    if latency > maximum { maximum = latency }
  }

  /// Adds `bucket` to the bucket at `index`, found by binary search or made, and remembers its
  /// place for the next latency.
  // The search and the update go through the array's storage, one uniqueness check in all:
  // indexed, each step's checks cost more than the step (callgrind, the bench's day trace,
  // whose progress cues spread over a few dozen buckets: about 200 instructions a call).
  @inline(never) private mutating func add(_ bucket: Bucket, searchingFor index: Int) {
    // Safe because `low` stays within `0...occupied.count` and is read only below the count.
    let found = occupied.withUnsafeMutableBufferPointer { occupied -> (place: Int, isOccupied: Bool) in
      var (low, high) = (0, occupied.count)
      while low < high {
        let middle = (low &+ high) >> 1
        if occupied[middle].index < index { low = middle &+ 1 } else { high = middle }
      }
      guard low < occupied.count && occupied[low].index == index else { return (low, false) }
      occupied[low].bucket.count = occupied[low].bucket.count.addingSaturated(bucket.count)
      occupied[low].bucket.maximum = Swift.max(occupied[low].bucket.maximum, bucket.maximum)
      return (low, true)
    }
    if !found.isOccupied { occupied.insert(Occupied(index: index, bucket: bucket), at: found.place) }
    lastPlace = found.place
    checkInvariants()
  }

  /// In debug builds, checks that the occupied buckets are in ascending order, none empty.
  private func checkInvariants() {
    assert(zip(occupied, occupied.dropFirst()).allSatisfy { $0.index < $1.index }, "buckets out of order")
    assert(occupied.allSatisfy { $0.bucket.count > 0 }, "an empty bucket is kept")
  }

  /// Adds every latency of `other`.
  /// - Complexity: O(*b* + *o*), the occupied buckets of both.
  public mutating func merge(_ other: LatencyHistogram) {
    guard !other.occupied.isEmpty else { return }
    var merged: [Occupied] = []
    merged.reserveCapacity(occupied.count + other.occupied.count)
    var (mine, theirs) = (occupied[...], other.occupied[...])
    while let first = mine.first, let second = theirs.first {
      if first.index < second.index {
        merged.append(mine.removeFirst())
      } else if second.index < first.index {
        merged.append(theirs.removeFirst())
      } else {
        merged.append(
          Occupied(
            index: first.index,
            bucket: Bucket(
              count: first.bucket.count.addingSaturated(second.bucket.count),
              maximum: Swift.max(first.bucket.maximum, second.bucket.maximum))))
        (mine, theirs) = (mine.dropFirst(), theirs.dropFirst())
      }
    }
    merged.append(contentsOf: mine)
    merged.append(contentsOf: theirs)
    occupied = merged
    lastPlace = 0
    checkInvariants()
    count = count.addingSaturated(other.count)
    maximum = Swift.max(maximum, other.maximum)
  }

  /// The latency at or below which `percent` of the latencies lie (nearest rank); zero when empty.
  /// - Complexity: O(*b*), the occupied buckets.
  public func percentile(_ percent: Int) -> Nanoseconds {
    guard count > 0 else { return .zero }
    // ⌈count × percent / 100⌉ without overflow, for counts merged from many summaries.
    let (hundreds, rest) = count.quotientAndRemainder(dividingBy: 100)
    let rank = Swift.max(1, hundreds * percent + (rest * percent + 99) / 100)
    var seen = 0
    for entry in occupied {
      // Counts read from summaries may sum past `Int.max`; the total saturated there too.
      seen = seen.addingSaturated(entry.bucket.count)
      if seen >= rank { return entry.bucket.maximum }
    }
    return maximum
  }

  /// A bucket's count and the largest latency in it.
  public struct Bucket: Hashable, Sendable {
    /// Latencies in the bucket.
    public var count: Int
    /// The largest latency the bucket holds.
    public var maximum: Nanoseconds

    /// A bucket of `count` latencies at most `maximum`.
    public init(count: Int, maximum: Nanoseconds) {
      self.count = count
      self.maximum = maximum
    }
  }

  /// The buckets that hold latencies, by index, in ascending order (for a summary file).
  public var occupiedBuckets: [(index: Int, bucket: Bucket)] {
    occupied.map { ($0.index, $0.bucket) }
  }

  /// Adds a whole bucket read back from a summary file; `index` must be below ``bucketCount``
  /// and the count positive (a reader checks both first).
  /// - Complexity: O(1) for buckets added in ascending order, as files list them.
  public mutating func add(_ bucket: Bucket, toBucket index: Int) {
    precondition(index >= 0 && index < Self.bucketCount, "bucket \(index) out of range")
    // Counts read from files saturate rather than trap.
    if occupied.last.map({ $0.index < index }) ?? true {
      occupied.append(Occupied(index: index, bucket: bucket))
      lastPlace = occupied.count - 1
    } else {
      add(bucket, searchingFor: index)
    }
    count = count.addingSaturated(bucket.count)
    maximum = Swift.max(maximum, bucket.maximum)
  }

  /// Whether the two hold the same latencies.
  public static func == (lhs: LatencyHistogram, rhs: LatencyHistogram) -> Bool {
    lhs.count == rhs.count && lhs.maximum == rhs.maximum && lhs.occupied == rhs.occupied
  }

  /// Hashes the latencies, as ``==(_:_:)`` compares them.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    hasher.combine(maximum)
    hasher.combine(occupied)
  }
}

extension LatencyHistogram {
  /// A cue kind's members in summaries and reports: count, percentiles, largest, the count
  /// over the bound, and the histogram.
  package func members(overBound: Int) -> [JSONDocument.Member] {
    [
      .init("count", .count(count)),
      .init("p50Ns", .integer(percentile(50).rawValue)),
      .init("p90Ns", .integer(percentile(90).rawValue)),
      .init("p99Ns", .integer(percentile(99).rawValue)),
      .init("maxNs", .integer(maximum.rawValue)),
      .init("overBound", .count(overBound)),
      .init("histogram", json),
    ]
  }

  /// The occupied buckets as `[bucket, count, largest]` triples, as summaries and reports
  /// hold them.
  package var json: JSONDocument {
    .array(
      occupiedBuckets.map { index, bucket in
        .array([.count(index), .count(bucket.count), .integer(bucket.maximum.rawValue)])
      })
  }
}
