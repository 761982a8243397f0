import Crease
import CreaseCLI
import CreaseIO
import CreaseRecording
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Memory bounded by stated limits, in items and in bytes, whatever the input.

@Suite("Bounded memory")
struct BoundedMemoryTests {
  @Test("events at one t past the reorder buffer's limit are released early and counted in the summary")
  func reorderBufferLimit() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    try write(#"{"reorderBufferLimit": 10}"#, to: "\(directory)/c.json")
    let lines = (0..<25).map { #"{"t":7,"kind":"mark","label":"m\#($0)"}"# }.joined(separator: "\n") + "\n"
    let run = CreaseRun(["replay", "-c", "\(directory)/c.json", "--summary", "-"], input: Array(lines.utf8))
    #expect(run.status == .success)
    #expect(
      run.error.contains(
        "reorder buffer: 15 event(s) released early at its limit of 10 events (reorderBufferLimit)")
    )
    let labels = run.output.split(separator: "\n").map { $0.split(separator: "\"")[11] }
    #expect(labels == (0..<25).map { "m\($0)"[...] }, "line order kept")
  }
}

@Suite("Reading that ends")
struct EndlessInputTests {
  @Test(
    "a line that never ends (/dev/zero) stops the reading after 64 MiB with one located error",
    arguments: [["check"], ["stats"], ["replay", "-o", "/dev/null"], ["import"]])
  func endlessLine(command: [String]) {
    let run = CreaseRun(command + ["/dev/zero"])
    #expect(run.status == .dataError)
    let expected =
      command[0] == "import" ? "/dev/zero:1:1: error" : "/dev/zero:1:1048577: error: line has not ended after"
    // `check` reports on standard output, the others on standard error.
    #expect((run.output + run.error).contains(expected), "\(run.output)\(run.error)")
  }
}

@Suite("Synthetic runs of any length")
struct SynthMemoryTests {
  @Test(
    "synth writes as it generates: a day at 1,000 Hz and 240 fps stops at --limit, and a long day scenario stays small",
    .enabled(if: !ByteBoundTests.sanitized), .timeLimit(.minutes(2)),
    arguments: [
      ["synth", "open-close", "--duration", "86400", "--hinge-hz", "1000", "--fps", "240", "--limit", "3"],
      ["synth", "day", "--duration", "7200", "-o", "/dev/null"],
    ])
  func flatMemory(arguments: [String]) throws {
    let peak = try peakOfCrease(arguments, in: temporaryDirectory())
    #expect(peak.status == 0)
    // Built whole before writing, the first took 2.9 GB; the second held every event (110 MB).
    #expect(peak.peakKB < 64 * 1024, "peak RSS \(peak.peakKB) KB")
  }
}

@Suite("Memory bounded in bytes")
struct ByteBoundTests {
  @Test("the reorder buffer releases early at its limit in bytes of text, counted, order kept")
  func reorderBufferBytes() throws {
    let directory = temporaryDirectory()
    try write(#"{"reorderBufferBytes": 1000}"#, to: "\(directory)/c.json")
    let label = String(repeating: "x", count: 100)
    let lines =
      (0..<25).map { #"{"t":7,"kind":"mark","label":"\#(label)\#($0)"}"# }.joined(separator: "\n") + "\n"
    let run = CreaseRun(["replay", "-c", "\(directory)/c.json", "--summary", "-"], input: Array(lines.utf8))
    #expect(run.status == .success)
    #expect(run.error.contains("reorder buffer: 16 event(s) released early"), "\(run.error)")
    #expect(run.error.contains("or 1000 bytes of text (reorderBufferBytes)"))
    let labels = run.output.split(separator: "\n").map { $0.split(separator: "\"")[11] }
    #expect(labels == (0..<25).map { "\(label)\($0)"[...] }, "line order kept")
  }

  /// Whether `crease` is a sanitizer's build, whose shadow memory and quarantine add to every
  /// peak: the bound holds for the build users run.
  static let sanitized = ["/.build/asan/", "/.build/tsan/"].contains { creaseExecutable.contains($0) }

  @Test(
    "a peak under 256 MB for marks of a megabyte a nanosecond apart, with a late output",
    .enabled(if: !sanitized), .timeLimit(.minutes(2)))
  func largeMarks() throws {
    let directory = temporaryDirectory()
    let label = String(repeating: "m", count: 1_000_000)
    let sink = try FileSink(creatingFileAt: "\(directory)/marks.jsonl")
    for t in 0..<300 { try sink.write(#"{"t":\#(t),"kind":"mark","label":"\#(label)"}"# + "\n") }
    for _ in 0..<20 { try sink.write(#"{"t":0,"kind":"mark","label":"\#(label)"}"# + "\n") }
    try sink.flush()
    // The peak of that one process, as its parent sees it.
    let run = try shell(
      """
      python3 -c 'import os, resource, subprocess
      status = subprocess.run([os.environ["CREASE"], "replay", "marks.jsonl", "-o", "/dev/null",
          "--late", "late.jsonl"], stderr=subprocess.DEVNULL).returncode
      print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)'
      """, in: directory)
    let fields = run.output.split(separator: " ").compactMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    #expect(fields.count == 2, "\(run.output)")
    #expect(fields.first == 0, "every line processed or late")
    #expect((fields.last ?? .max) < 256 * 1024, "peak RSS \(fields.last ?? -1) KB")
    #expect(contents(of: "\(directory)/late.jsonl")?.split(separator: "\n").count == 20)
  }

  @Test(
    "a report over many summaries holds a histogram a cue kind, one file open at a time",
    .enabled(if: !sanitized), .timeLimit(.minutes(2)))
  func reportOfManySummaries() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let replay = CreaseRun(
      "replay", "-o", "/dev/null", "--summary-json", "\(directory)/s.json", tracePath("synth-day.jsonl"))
    #expect(replay.status == .success, "\(replay.error)")
    let names = (0..<400).map { "s\($0).json" }
    for name in names {
      try FileManager.default.copyItem(atPath: "\(directory)/s.json", toPath: "\(directory)/\(name)")
    }
    // Every summary's seven histograms in every bucket took 426 KB a summary: 170 MB here.
    let (status, peakKB) = try peakOfCrease(["report", "-f", "json", "-o", "r.json"] + names, in: directory)
    #expect(status == 0)
    #expect(peakKB < 48 * 1024, "peak RSS \(peakKB) KB")
    // Opened one after another: the limit on open files (256 on a Mac by default) is no limit on
    // the summaries a report takes.
    let limited = try shell(
      #"ulimit -n 32 && "$CREASE" report -f json -o limited.json s[0-9]*.json"#, in: directory)
    #expect(limited.status == 0, "\(limited.output)")
    #expect(contents(of: "\(directory)/limited.json") == contents(of: "\(directory)/r.json"))
    let report = CreaseRun(["report", "-f", "json"] + names.map { "\(directory)/\($0)" })
    #expect(report.output.contains(#""traceCount": 400"#))
  }
}
