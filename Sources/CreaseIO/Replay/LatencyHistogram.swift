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
  /// Where the buckets from `placesStart` on lie in `occupied`, plus one (0 for none), for
  /// ``add(_:)``, one latency a cue: made by it, kept in step as it makes buckets, dropped by
  /// every other change. A kind's latencies spread over a few dozen buckets, so the bucket of
  /// the latency before, looked at first, seldom held the next, and the search for it cost
  /// about 75 instructions a cue (callgrind, the day trace: 4 an event). It spans the occupied
  /// buckets' indices and ``placesSlack`` more on each side, two bytes a bucket, so that a new
  /// bucket seldom needs a larger one: grown at each, it was an allocation every few hundred
  /// events. Not part of the value.
  private var places: [UInt16] = []
  private var placesStart = 0
  private static var placesSlack: Int { 32 }

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
  /// - Complexity: O(1) when its bucket is occupied and placed; else O(*b* + *s*) to make or
  ///   find it and place the buckets after it, in occupied buckets *b* and the span *s* of
  ///   their indices (each at most 1,888).
  public mutating func add(_ latency: Nanoseconds) {
    let index = Self.bucket(of: latency.rawValue)
    let offset = index &- placesStart
    let placePlusOne = offset >= 0 && offset < places.count ? Int(places[offset]) : 0
    if placePlusOne == 0 {
      addBucket(of: latency, at: index)
    } else {
      // One latency a cue of one replay: its counts cannot reach `Int.max` (that many cues take
      // that many lines), so they add without the saturation that counts read from files need.
      // Safe because `places` holds places in `occupied` only, kept in step with it.
      occupied.withUnsafeMutableBufferPointer { occupied in
        let place = placePlusOne &- 1
        occupied[place].bucket.count &+= 1
        if latency > occupied[place].bucket.maximum { occupied[place].bucket.maximum = latency }
      }
    }
    count &+= 1
    if latency > maximum { maximum = latency }
  }

  /// Adds the first latency of the bucket at `index`, or one to a bucket not placed (after
  /// another change), and places the buckets from it on. A call: it runs once a new bucket.
  @inline(never) private mutating func addBucket(of latency: Nanoseconds, at index: Int) {
    let inStep = !places.isEmpty
    let place = merge(Bucket(count: 1, maximum: latency), intoBucketAt: index)
    let offset = index - placesStart
    if inStep && offset >= 0 && offset < places.count {
      for moved in place..<occupied.count {
        places[occupied[moved].index - placesStart] = UInt16(moved + 1)
      }
    } else {
      placeBuckets()
    }
  }

  /// Notes where every occupied bucket lies, across their indices and the slack around them.
  private mutating func placeBuckets() {
    guard let first = occupied.first, let last = occupied.last else { return }
    placesStart = Swift.max(0, first.index - Self.placesSlack)
    let end = Swift.min(Self.bucketCount, last.index + 1 + Self.placesSlack)
    places = Array(repeating: 0, count: end - placesStart)
    for (place, entry) in occupied.enumerated() { places[entry.index - placesStart] = UInt16(place + 1) }
  }

  /// Where the bucket at `index` lies or belongs in `occupied`, by binary search.
  private func insertionPlace(of index: Int) -> Int {
    var (low, high) = (0, occupied.count)
    while low < high {
      let middle = (low + high) / 2
      if occupied[middle].index < index { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Adds `bucket` to the bucket at `index`, found by binary search or made, and returns where
  /// it lies.
  private mutating func merge(_ bucket: Bucket, intoBucketAt index: Int) -> Int {
    let place = insertionPlace(of: index)
    if place < occupied.count && occupied[place].index == index {
      occupied[place].bucket.count = occupied[place].bucket.count.addingSaturated(bucket.count)
      occupied[place].bucket.maximum = Swift.max(occupied[place].bucket.maximum, bucket.maximum)
    } else {
      occupied.insert(Occupied(index: index, bucket: bucket), at: place)
    }
    checkInvariants()
    return place
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
    places = []
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
    places = []
    if occupied.last.map({ $0.index < index }) ?? true {
      occupied.append(Occupied(index: index, bucket: bucket))
    } else {
      _ = merge(bucket, intoBucketAt: index)
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
