import Crease
import CreaseLocking
import CreaseSynth
import Foundation
import Testing

@testable import CreaseCLI
@testable import CreaseReports

/// How reports and sweeps fold their work as it comes without keeping it: the closest traces
/// picked without sorting every row, and a sweep's settings cut down once their traces are in.
@Suite("Folding a fleet without keeping it")
struct FleetFoldingTests {
  /// A row called `name` whose closest cue came `share` of the way to its bound, or none.
  static func row(_ name: String, share: Int?) -> FleetReport.Trace {
    var row = FleetReport.Trace(name: name)
    row.closest = share.map {
      .init(cue: "hinge.status", latency: Nanoseconds(rawValue: Int64($0)), bound: Nanoseconds(rawValue: 100))
    }
    return row
  }

  @Test(
    "the closest traces are those a full sort ranks first, ties by name and then row order", arguments: 1...40
  )
  func closestMatchesFullSort(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    // Few names and few shares, so that ties of both are common; some rows have no closest.
    let rows = (0..<Int(random.next() % 60)).map { _ in
      Self.row("trace-\(random.next() % 8)", share: random.next() % 4 == 0 ? nil : Int(random.next() % 5))
    }
    let report = FleetReport(provenance: nil, traces: rows, kinds: [:], violations: [])
    let sorted = report.traces.filter { $0.closest != nil }.sorted { lhs, rhs in
      lhs.closest!.share != rhs.closest!.share ? lhs.closest!.share > rhs.closest!.share : lhs.name < rhs.name
    }
    let expected = sorted.prefix(FleetReport.closestCount).map {
      "\($0.name) \($0.closest!.latency.rawValue)"
    }
    let closest = report.closestToBound.map { "\($0.name) \($0.closest!.latency.rawValue)" }
    #expect(closest == expected, "seed \(seed)")
  }

  @Test("a report taken from its accumulator equals the one asked of it, and leaves it empty")
  func takenReportEqualsAsked() throws {
    var accumulator = FleetReport.Accumulator()
    accumulator.reserveCapacity(rows: 3)
    for name in ["c", "a", "b"] { try accumulator.add(FleetReport(failed: name, error: "gone")) }
    let asked = accumulator.report
    let taken = accumulator.takeReport()
    #expect(taken == asked)
    #expect(taken.traces.map(\.name) == ["a", "b", "c"])
    #expect(accumulator.report.traces.isEmpty)
  }

  @Test("a sweep's settings are configured once, finished in any order, and come out in sweep order")
  func sweepProgress() {
    let configured = Locked([Int]())
    var progress = SweepProgress(settings: 3, tracesEach: 2, keepingLatencies: false) { index in
      configured.withLock { $0.append(index) }
      var configuration = Configuration()
      configuration.hinge.statusDebounce = .milliseconds(Int64(10 * (index + 1)))
      return configuration
    }
    // Two workers: the second setting's traces finish before the first's last one.
    for (setting, trace) in [(0, 0), (1, 0), (1, 1), (2, 0), (0, 1), (2, 1)] {
      let (configuration, reports) = progress.start(setting)
      #expect(configuration.hinge.statusDebounce == .milliseconds(Int64(10 * (setting + 1))))
      reports.withLock { accumulator in
        #expect(throws: Never.self) {
          try accumulator.add(FleetReport(failed: "\(setting)-\(trace)", error: "gone"))
        }
      }
      progress.finish(setting, name: "setting \(setting)")
    }
    #expect(configured.withLock { $0 } == [0, 1, 2])
    let settings: [FleetSweep.Setting] = progress.finished
    #expect(settings.map { $0.name } == ["setting 0", "setting 1", "setting 2"])
    #expect(settings.map { $0.traces } == [2, 2, 2])
    // Every trace failed: no configuration, as a report of failed traces alone has none.
    #expect(settings.allSatisfy { $0.provenance == nil })
  }

  @Test(
    "a batch starts its traces largest first, ties in command-line order, and keeps their results in order")
  func largestTracesFirst() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let paths = ["a", "b", "c", "d"].map { "\(directory)/\($0).jsonl" }
    for (path, size) in zip(paths, [10, 30, 20, 30]) {
      #expect(FileManager.default.createFile(atPath: path, contents: Data(count: size)))
    }
    // A file that cannot be asked its size goes last, in its place among those.
    let order = BatchCommand.largestFirst(paths + ["\(directory)/missing.jsonl"])
    #expect(order == [1, 3, 2, 0, 4])
    // One thread: the work starts exactly in that order, and the results stay in index order.
    let started = Locked([Int]())
    let results = ParallelWork.map(count: 5, jobs: 1, order: order) { index in
      started.withLock { $0.append(index) }
      return index * 10
    }
    #expect(started.withLock { $0 } == [1, 3, 2, 0, 4])
    #expect(results == [0, 10, 20, 30, 40])
  }
}
