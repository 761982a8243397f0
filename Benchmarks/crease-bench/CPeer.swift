#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C peer (`Benchmarks/peers/crease-peer.c`): Crease's work on a binary trace written as a
/// single-threaded C program, built and measured here beside Crease, part by part.
struct CPeer {
  static let source = "Benchmarks/peers/crease-peer.c"

  /// The peer's steady-state instructions (the longer trace's less the shorter's), by part.
  var profile: InstructionProfile
  /// Whether the peer wrote the same cue lines as `crease replay` on the longer trace.
  var sameCues: Bool

  /// Builds the peer and measures it on the two binary traces of `binaries` (`added` lines
  /// apart); `nil` when it cannot be built or callgrind did not report.
  static func measure(_ binaries: [String], added: Int, crease: String) throws -> CPeer? {
    let peer = "Benchmarks/.data/crease-peer"
    guard (try? Spawn.run("cc -O2 -g -o \(peer) \(source) -lm 2>/dev/null")) != nil,
      let sections = SourceSections(path: source),
      let shorter = try Callgrind.run("\(peer) \(binaries[0]) > /dev/null", sections: sections),
      let longer = try Callgrind.run("\(peer) \(binaries[1]) > /dev/null", sections: sections)
    else { return nil }
    let (ours, theirs) = ("Benchmarks/.data/peer.cues", "Benchmarks/.data/crease.cues")
    _ = try Spawn.run("\(peer) \(binaries[1]) > \(ours); \(crease) replay \(binaries[1]) > \(theirs)")
    let same = (try? Spawn.run("cmp -s \(ours) \(theirs)")) != nil
    return CPeer(profile: longer.mainThread - shorter.mainThread, sameCues: same)
  }

  /// The peer's instructions per line by part beside each run's (both threads), with the
  /// ratio of the totals last: the number SPEC 9 asks to move.
  func table(against runs: [InstructionProfile.LabelledRun], lines: Int) -> [String] {
    let cell = { (value: Int) in BenchRow.pad("\(value / lines)", 8, left: true) }
    let header =
      BenchRow.pad("part", 32) + BenchRow.pad("peer", 8, left: true)
      + runs.map { BenchRow.pad($0.label, 8, left: true) + BenchRow.pad("÷ peer", 8, left: true) }.joined()
    func ratio(_ value: Int, _ peer: Int) -> String {
      BenchRow.pad(peer > 0 ? BenchRow.format(Double(value) / Double(peer), 2) + "×" : "-", 8, left: true)
    }
    let rows = ReplayPart.allCases.map { part in
      BenchRow.pad(part.name, 32) + cell(profile[part])
        + runs.map { run in
          let all = (run.mainThread + run.otherThreads)[part]
          return cell(all) + ratio(all, profile[part])
        }.joined()
    }
    let total =
      BenchRow.pad("total", 32) + cell(profile.total)
      + runs.map { run in
        let all = (run.mainThread + run.otherThreads).total
        return cell(all) + ratio(all, profile.total)
      }.joined()
    return [header] + rows + [total]
  }
}
