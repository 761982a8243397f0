import CreaseSynth
import Testing

@testable import Crease

@Suite("Run merge")
struct RunMergeTests {
  @Test("merges time-ordered runs as a stable sort of all their elements orders them", arguments: 0..<20)
  func matchesStableSort(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    // Runs of several lengths (some empty), with times that repeat within and across runs, so
    // ties between runs are common; a few runs for even seeds, up to 200 for odd ones (past the
    // size where the debug check stops looking at the whole heap).
    let runCount = Int(random.next() % (seed % 2 == 0 ? 12 : 200))
    let runs: [[Nanoseconds]] = (0..<runCount).map { _ in
      var time = Int64(random.next() % 5)
      return (0..<Int(random.next() % 40)).map { _ in
        time += Int64(random.next() % 3)
        return Nanoseconds(time)
      }
    }
    var merge = RunMerge()
    var taken = Array(repeating: 0, count: runs.count)
    for run in runs.indices where !runs[run].isEmpty { merge.insert(run: run, time: runs[run][0]) }
    var merged: [(time: Nanoseconds, run: Int)] = []
    while let (time, run) = merge.first {
      merged.append((time, run))
      taken[run] += 1
      if taken[run] < runs[run].count {
        merge.advanceFirst(to: runs[run][taken[run]])
      } else {
        merge.removeFirst()
      }
    }
    // A stable sort by time alone of the elements listed run after run.
    let expected = runs.indices.flatMap { run in runs[run].map { (time: $0, run: run) } }
      .enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    #expect(merged.map(\.time) == expected.map(\.time), "seed \(seed)")
    #expect(merged.map(\.run) == expected.map(\.run), "seed \(seed)")
    #expect(merge.isEmpty, "seed \(seed)")
  }

  @Test("finishes every run at once")
  func removeAll() {
    var merge = RunMerge()
    merge.insert(run: 0, time: Nanoseconds(5))
    merge.insert(run: 1, time: Nanoseconds(3))
    #expect(merge.first?.run == 1)
    merge.removeAll()
    #expect(merge.first == nil && merge.isEmpty)
  }
}
