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
  /// Every bucket, by index, once a latency was added (one array: one check per add).
  private var buckets: [Bucket] = []

  /// An empty histogram.
  public init() {}

  /// The bucket of a latency (negative ones count as 0).
  @inline(__always) package static func bucket(of latency: Int64) -> Int {
    let value = Swift.max(latency, 0)
    guard value >= 2 * Int64(subBuckets) else { return Int(value) }
    let exponent = 63 - value.leadingZeroBitCount
    let offset = Int((value >> (exponent - subBucketBits)) & Int64(subBuckets - 1))
    return (exponent - subBucketBits + 1) * subBuckets + offset
  }

  /// Adds one latency.
  /// - Complexity: O(1); the bucket storage is allocated with the first latency.
  public mutating func add(_ latency: Nanoseconds) {
    let index = Self.bucket(of: latency.rawValue)
    if buckets.isEmpty {
      buckets = Array(repeating: Bucket(count: 0, maximum: .zero), count: Self.bucketCount)
    }
    // One latency a cue of one replay: its counts cannot reach `Int.max` (that many cues take
    // that many lines), so they add without the saturation that counts read from files need,
    // and the bucket is changed in place after one uniqueness check (callgrind: about 25
    // instructions a cue fewer than adding it as a bucket). `bucket(of:)` is below
    // `bucketCount` for every latency, so the unchecked index stays inside the storage.
    buckets.withUnsafeMutableBufferPointer { buckets in
      buckets[index].count &+= 1
      if latency > buckets[index].maximum { buckets[index].maximum = latency }
    }
    count &+= 1
    if latency > maximum { maximum = latency }
  }

  /// Adds every latency of `other`.
  /// - Complexity: O(*b*), the number of buckets.
  public mutating func merge(_ other: LatencyHistogram) {
    // Bucket by bucket over the other's storage: listing its occupied buckets first made an
    // array for every merge, most of a report's merging time (callgrind).
    for index in other.buckets.indices where other.buckets[index].count > 0 {
      add(other.buckets[index], toBucket: index)
    }
  }

  /// The latency at or below which `percent` of the latencies lie (nearest rank); zero when empty.
  /// - Complexity: O(*b*), the number of buckets.
  public func percentile(_ percent: Int) -> Nanoseconds {
    guard count > 0 else { return .zero }
    // ⌈count × percent / 100⌉ without overflow, for counts merged from many summaries.
    let (hundreds, rest) = count.quotientAndRemainder(dividingBy: 100)
    let rank = Swift.max(1, hundreds * percent + (rest * percent + 99) / 100)
    var seen = 0
    for bucket in buckets where bucket.count > 0 {
      // Counts read from summaries may sum past `Int.max`; the total saturated there too.
      seen = seen.addingSaturated(bucket.count)
      if seen >= rank { return bucket.maximum }
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
    buckets.indices.compactMap { index in
      buckets[index].count > 0 ? (index, buckets[index]) : nil
    }
  }

  /// Adds a whole bucket read back from a summary file; `index` must be below ``bucketCount``
  /// and the count positive (a reader checks both first).
  @inline(__always) public mutating func add(_ bucket: Bucket, toBucket index: Int) {
    precondition(index >= 0 && index < Self.bucketCount, "bucket \(index) out of range")
    if buckets.isEmpty {
      buckets = Array(repeating: Bucket(count: 0, maximum: .zero), count: Self.bucketCount)
    }
    // Counts read from files saturate rather than trap.
    buckets[index].count = buckets[index].count.addingSaturated(bucket.count)
    buckets[index].maximum = Swift.max(buckets[index].maximum, bucket.maximum)
    count = count.addingSaturated(bucket.count)
    maximum = Swift.max(maximum, bucket.maximum)
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
