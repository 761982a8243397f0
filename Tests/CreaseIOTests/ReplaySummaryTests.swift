import Crease
import CreaseIO
import CreaseSynth
import Testing

@Suite("Latency histogram")
struct LatencyHistogramTests {
  /// The exact nearest-rank percentile of `values`.
  func exactPercentile(_ values: [Int64], _ percent: Int) -> Int64 {
    let sorted = values.sorted()
    return sorted[max(1, (sorted.count * percent + 99) / 100) - 1]
  }

  @Test(
    "percentiles are never below the exact value and within 1/32 of an octave above it", arguments: 0..<20)
  func percentiles(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var histogram = LatencyHistogram()
    var values: [Int64] = []
    for _ in 0..<(1 + Int(random.next() % 2000)) {
      // Latencies from nanoseconds to minutes, spread over the octaves.
      let value = Int64(random.next() >> (4 + random.next() % 60))
      values.append(value)
      histogram.add(Nanoseconds(value))
    }
    for percent in [1, 50, 90, 99, 100] {
      let exact = exactPercentile(values, percent)
      let estimate = histogram.percentile(percent).rawValue
      #expect(estimate >= exact, "seed \(seed), p\(percent)")
      #expect(Double(estimate - exact) <= Double(exact) / 32, "seed \(seed), p\(percent)")
    }
    #expect(histogram.maximum.rawValue == values.max(), "seed \(seed)")
    #expect(histogram.count == values.count, "seed \(seed)")
  }

  @Test("a percentile is exact when its bucket holds one distinct latency")
  func exactForFixedLatencies() {
    var histogram = LatencyHistogram()
    for _ in 0..<90 { histogram.add(.milliseconds(50)) }
    for _ in 0..<10 { histogram.add(.milliseconds(150)) }
    #expect(histogram.percentile(50) == .milliseconds(50))
    #expect(histogram.percentile(90) == .milliseconds(50))
    #expect(histogram.percentile(91) == .milliseconds(150))
    #expect(histogram.percentile(99) == .milliseconds(150))
  }

  @Test("merging two histograms gives the histogram of all their latencies", arguments: 0..<10)
  func merge(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var left = LatencyHistogram()
    var right = LatencyHistogram()
    var all = LatencyHistogram()
    for _ in 0..<500 {
      let value = Nanoseconds(Int64(random.next() >> (10 + random.next() % 50)))
      if random.next() % 2 == 0 { left.add(value) } else { right.add(value) }
      all.add(value)
    }
    left.merge(right)
    #expect(left == all, "seed \(seed)")
  }

  @Test("only occupied buckets are kept, whatever order latencies and buckets come in", arguments: 0..<20)
  func occupiedBucketsInAnyOrder(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    // The reference: every bucket, as the histogram held them before it kept only occupied ones.
    var reference = [LatencyHistogram.Bucket](
      repeating: .init(count: 0, maximum: .zero), count: LatencyHistogram.bucketCount)
    var forwards = LatencyHistogram()
    var pieces: [(index: Int, bucket: LatencyHistogram.Bucket)] = []
    for _ in 0..<(1 + Int(random.next() % 300)) {
      // Runs of one latency (as a kind's cues mostly are), then a jump anywhere.
      let value = Nanoseconds(Int64(random.next() >> (4 + random.next() % 60)))
      for _ in 0...(random.next() % 4) {
        let index = LatencyHistogram.bucket(of: value.rawValue)
        reference[index].count += 1
        reference[index].maximum = max(reference[index].maximum, value)
        forwards.add(value)
        pieces.append((index, .init(count: 1, maximum: value)))
      }
    }
    var shuffled = LatencyHistogram()
    for position in pieces.indices.reversed() {
      pieces.swapAt(position, Int(random.next() % UInt64(position + 1)))
    }
    for piece in pieces { shuffled.add(piece.bucket, toBucket: piece.index) }
    let expected = reference.indices.filter { reference[$0].count > 0 }
    #expect(forwards.occupiedBuckets.map(\.index) == expected, "seed \(seed)")
    #expect(forwards.occupiedBuckets.map(\.bucket) == expected.map { reference[$0] }, "seed \(seed)")
    #expect(shuffled == forwards, "seed \(seed)")
    #expect(shuffled.hashValue == forwards.hashValue, "seed \(seed)")
    for percent in [1, 50, 90, 99, 100] {
      #expect(shuffled.percentile(percent) == forwards.percentile(percent), "seed \(seed), p\(percent)")
    }
  }

  @Test("latencies added between merges and buckets read back land in their buckets", arguments: 0..<10)
  func latenciesBetweenOtherChanges(seed: UInt64) {
    // `add(_:)` finds a bucket by the places it notes, which every other change drops: each
    // round adds latencies, then merges a histogram or reads a bucket back, then adds more.
    var random = SplitMix64(seed: seed)
    var reference = [LatencyHistogram.Bucket](
      repeating: .init(count: 0, maximum: .zero), count: LatencyHistogram.bucketCount)
    func note(_ value: Nanoseconds, count: Int = 1) {
      let index = LatencyHistogram.bucket(of: value.rawValue)
      reference[index].count += count
      reference[index].maximum = max(reference[index].maximum, value)
    }
    var histogram = LatencyHistogram()
    for _ in 0..<20 {
      for _ in 0..<(random.next() % 30) {
        let value = Nanoseconds(Int64(random.next() >> (20 + random.next() % 40)))
        histogram.add(value)
        note(value)
      }
      let value = Nanoseconds(Int64(random.next() >> (20 + random.next() % 40)))
      if random.next() % 2 == 0 {
        var other = LatencyHistogram()
        other.add(value)
        histogram.merge(other)
        note(value)
      } else {
        histogram.add(.init(count: 3, maximum: value), toBucket: LatencyHistogram.bucket(of: value.rawValue))
        note(value, count: 3)
      }
    }
    let expected = reference.indices.filter { reference[$0].count > 0 }
    #expect(histogram.occupiedBuckets.map(\.index) == expected, "seed \(seed)")
    #expect(histogram.occupiedBuckets.map(\.bucket) == expected.map { reference[$0] }, "seed \(seed)")
    #expect(histogram.count == expected.reduce(0) { $0 + reference[$1].count }, "seed \(seed)")
  }

  @Test("an empty histogram reports zero")
  func empty() {
    #expect(LatencyHistogram().percentile(99) == .zero)
  }
}

@Suite("Replay summary")
struct ReplaySummaryTests {
  @Test("a cue kind over its bound is marked in the table and in the closing line")
  func overBound() throws {
    let summary = try summaryOfCues([
      (
        Cue(t: .milliseconds(200), since: 0, .hingeStatus(from: .closed, to: .partiallyOpen)),
        .milliseconds(150)
      ),
      (
        Cue(
          t: .milliseconds(300), since: .milliseconds(250), .hingeStatus(from: .partiallyOpen, to: .closed)),
        .milliseconds(150)
      ),
    ])
    #expect(summary.kindsOverBound == ["hinge.status"])
    #expect(summary.cues["hinge.status"]?.overBound == 1)
    let text = summary.rendered(for: .default)
    #expect(text.contains("150.000 ms (status debounce)  <- 1 OVER THE BOUND\n"))
    #expect(text.contains("  bounds: EXCEEDED by 1 hinge.status cue(s)"))
  }

  @Test("a stall is judged against its own stream's nominal frame duration")
  func stallAgainstOwnStream() throws {
    let pipeline = try Self.engineAfterSlowFrame().processor
    let stall = Cue(t: .milliseconds(300), since: 0, .cameraStall(stream: StreamName(rawValue: "slow")))
    #expect(pipeline.latencyBound(for: stall) == .milliseconds(300), "3 frames at 10 fps, not at 30")
  }

  @Test("cues drained with their bounds: each the processor's bound for it, asked as it is drained")
  func drainWithBounds() throws {
    var engine = try Self.engineAfterSlowFrame()
    try engine.push(Event(t: .milliseconds(1), .mark(label: "m")), from: 0)
    engine.advance(to: .milliseconds(400))
    var drained: [(cue: Cue, bound: Nanoseconds?)] = []
    engine.drainCues { cue, bound in drained.append((cue, bound)) }
    let allDrained = !engine.hasCues
    #expect(allDrained)
    #expect(drained.map(\.cue.kind.name) == ["mark", "camera.stall"])
    #expect(drained.last?.bound == .milliseconds(300), "the stall's bound, 3 frames at 10 fps")
    for (cue, bound) in drained { #expect(bound == engine.latencyBound(for: cue)) }
  }

  /// An engine that has taken one frame at t = 0 of a stream the header declares at 10 fps.
  static func engineAfterSlowFrame() throws -> Engine<Pipeline> {
    var engine = Engine(processor: Pipeline(configuration: .default), reorderWindow: .zero)
    var header = TraceHeader()
    header.nominalFrameRates[StreamName(rawValue: "slow")] = 10
    engine.apply(header)
    let frame = Frame(stream: StreamName(rawValue: "slow"), pts: PresentationTime(nanoseconds: 0))
    try engine.push(Event(t: 0, .frame(frame)), from: 0)
    return engine
  }

  /// A summary of `cues`, each judged against its bound, through the replay's own recording.
  func summaryOfCues(_ cues: [(Cue, Nanoseconds)]) throws -> ReplaySummary {
    var summary = ReplaySummary(sources: [])
    for (cue, bound) in cues { summary.record(cue, bound: bound) }
    return summary
  }
}
