#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A peer program: Crease's work on a binary trace in one thread, built and measured here beside
/// Crease, part by part, and its cue lines checked against Crease's.
struct Peer {
  /// How a peer is built from its source.
  struct Program {
    /// Its name in the benchmark's output.
    var name: String
    /// Its column's label in the part table.
    var column: String
    /// Its source, whose `// MARK:` sections name the parts.
    var source: String
    /// The compiler and its options, before the output and the source.
    var compiler: String
    /// The libraries it links, after the source.
    var libraries = ""

    /// The C peer (`cc -O2`): SPEC 9's anchor, the ratio the targets are against.
    static let c = Program(
      name: "C peer", column: "C", source: "Benchmarks/peers/crease-peer.c", compiler: "cc -O2 -g",
      libraries: "-lm")
    /// The same program in Swift on plain records, built as a release build builds (`-O`, no
    /// unchecked flag): what Crease on plain records could reach at best.
    static let swift = Program(
      name: "Swift peer", column: "Swift", source: "Benchmarks/peers/crease-peer.swift",
      compiler: "swiftc -O -g")
  }

  /// The program measured.
  var program: Program
  /// Where it was built.
  var executable: String
  /// The peer's steady-state instructions (the longer trace's less the shorter's), by part.
  var profile: InstructionProfile
  /// Whether the peer wrote the same cue lines as `crease replay` on the longer trace.
  var sameCues = false

  /// Builds `program`, measures it on the two binary traces of `binaries` and compares its cue
  /// lines on the longer with `creaseCues`, crease's; `nil` when it cannot be built or callgrind
  /// did not report.
  static func measure(_ program: Program, on binaries: [String], against creaseCues: String) throws -> Peer? {
    guard let executable = build(program),
      let sections = SourceSections(path: program.source),
      let shorter = try Callgrind.run("\(executable) \(binaries[0]) > /dev/null", sections: sections),
      let longer = try Callgrind.run("\(executable) \(binaries[1]) > /dev/null", sections: sections)
    else { return nil }
    var peer = Peer(program: program, executable: executable, profile: longer.mainThread - shorter.mainThread)
    peer.sameCues = try peer.writesSameCues(on: binaries[1], as: creaseCues)
    return peer
  }

  /// Builds `program` in the benchmark's data directory and returns the executable's path, or
  /// `nil` when it does not build here.
  static func build(_ program: Program) -> String? {
    let executable =
      "Benchmarks/.data/" + (program.source.split(separator: "/").last ?? "peer").replacing(".", with: "-")
    let command = "\(program.compiler) -o \(executable) \(program.source) \(program.libraries) 2>/dev/null"
    return (try? Spawn.run(command)) == nil ? nil : executable
  }

  /// Whether the peer writes the cue lines of `creaseCues`, crease's replay of `binary`.
  func writesSameCues(on binary: String, as creaseCues: String) throws -> Bool {
    let cues = "\(executable).cues"
    guard (try? Spawn.run("\(executable) \(binary) > \(cues) 2>/dev/null")) != nil else { return false }
    return (try? Spawn.run("cmp -s \(cues) \(creaseCues)")) != nil
  }

  /// A trace the peers' cues are checked on: its binary conversion and crease's cues for it.
  struct CheckedTrace {
    var name: String
    var binary: String
    var creaseCues: String
  }

  /// Every bundled trace (`Traces/*.jsonl`), converted to binary in `data` and replayed by
  /// `crease`: SPEC 9 asks the anchor for crease's bytes on each. A trace with bad lines
  /// converts the rest (exit 65), which is what both then read.
  static func bundledTraces(crease: String, data: String) throws -> [CheckedTrace] {
    guard let directory = opendir("Traces") else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      names.append(
        withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
    }
    return try names.sorted().filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".cues.jsonl") }.map { name in
      let stem = String(name.dropLast(".jsonl".count))
      let trace = CheckedTrace(
        name: stem, binary: "\(data)/bundled-\(stem).crtrace", creaseCues: "\(data)/bundled-\(stem).cues")
      _ = try Spawn.run(
        "\(crease) convert Traces/\(name) -o \(trace.binary) 2>/dev/null; test -s \(trace.binary)")
      _ = try Spawn.run("\(crease) replay \(trace.binary) > \(trace.creaseCues) 2>/dev/null")
      return trace
    }
  }

  /// The names of the traces of `traces` on which the peer does not write crease's cue lines.
  func differingTraces(_ traces: [CheckedTrace]) throws -> [String] {
    try traces.filter { !(try writesSameCues(on: $0.binary, as: $0.creaseCues)) }.map(\.name)
  }

  /// The peer's instructions per line by part beside each run's (both threads), with the
  /// ratio of the totals last: the number SPEC 9 asks to move.
  func table(against runs: [InstructionProfile.LabelledRun], lines: Int) -> [String] {
    let cell = { (value: Int) in BenchRow.pad("\(value / lines)", 8, left: true) }
    let header =
      BenchRow.pad("part", 32) + BenchRow.pad(program.column, 8, left: true)
      + runs.map {
        BenchRow.pad($0.label, 8, left: true) + BenchRow.pad("÷ \(program.column)", 8, left: true)
      }
      .joined()
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

  /// The peer as a run of another peer's table, its work all on one thread.
  var run: InstructionProfile.LabelledRun {
    (label: program.column, mainThread: profile, otherThreads: InstructionProfile())
  }
}
