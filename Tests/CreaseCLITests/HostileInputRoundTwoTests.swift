import Crease
import CreaseCLI
import CreaseIO
import CreaseRecording
import Foundation
import Glibc
import Testing

/// The classes of issue 31, a test or more each. Cases that once trapped run in-process, so a
/// trap would end the test run; what only a process shows (signals, descriptors, limits) runs
/// `crease` under `/bin/sh`.
@Suite("Hostile input, round 2: values checked after their conversion")
struct ConversionTests {
  static let hugeRadians = #"{"t":0,"kind":"hinge","angleRad":1e308,"status":"closed"}"#

  @Test("radians finite as given but infinite in degrees are refused, never written as inf")
  func radiansOverflow() {
    let input = Self.hugeRadians + "\n" + #"{"t":10,"kind":"hinge","angleRad":1,"status":"closed"}"# + "\n"
    let run = CreaseRun("replay", "-", input: input)
    #expect(run.status == .dataError)
    #expect(run.error.contains("<stdin>:1:34: error: 'angleRad' 1e+308 is not a finite number of degrees"))
    #expect(!run.output.contains("inf"))
    #expect(run.output.contains(#""cue":"hinge.initial","status":"closed","angle":57.296"#))
  }

  @Test("a binary trace whose radians overflow in degrees is refused too", arguments: [UInt16(1), 2])
  func binaryRadiansOverflow(version: UInt16) throws {
    var encoder = BinaryTraceEncoder(version: version)
    var bytes = encoder.fileHeader
    try encoder.encode(
      .event(Event(t: 0, .hinge(HingeDelivery(angle: .radians(1e308), status: .closed)))), into: &bytes)
    try encoder.encode(.event(Event(t: 5, .mark(label: "after"))), into: &bytes)
    let run = CreaseRun(["replay", "-"], input: bytes)
    #expect(run.status == .dataError)
    #expect(run.error.contains("is not a finite number of degrees"))
    #expect(!run.output.contains("inf"))
    #expect(run.output.contains(#""label":"after""#))
  }

  @Test("plot ends on angles at the ends of the finite range", .timeLimit(.minutes(1)))
  func plotOfExtremeAngles() throws {
    let directory = temporaryDirectory()
    let lines = [
      #"{"t":0,"kind":"hinge","angle":1.7e308,"status":"closed"}"#,
      #"{"t":10,"kind":"hinge","angle":-1.7e308,"status":"closed"}"#,
      Self.hugeRadians.replacingOccurrences(of: "\"t\":0", with: "\"t\":20"),
    ]
    try write(lines.joined(separator: "\n") + "\n", to: "\(directory)/t.jsonl")
    let run = CreaseRun("plot", "\(directory)/t.jsonl", "-o", "\(directory)/t.svg")
    #expect(run.status == .dataError, "the radians line is refused, the rest drawn: \(run.error)")
    let svg = try #require(contents(of: "\(directory)/t.svg"))
    #expect(!svg.contains("inf") && !svg.contains("nan"))
  }

  @Test("spans of whole milliseconds and seconds saturate toward their sign")
  func saturatingSpans() {
    #expect(Nanoseconds.milliseconds(.min) == .min)
    #expect(Nanoseconds.milliseconds(.max) == .max)
    #expect(Nanoseconds.seconds(-9_300_000_000) == .min)
    #expect(Nanoseconds.seconds(-2) == Nanoseconds(-2_000_000_000))
  }
}

@Suite("Hostile input, round 2: report arithmetic")
struct ReportArithmeticTests {
  /// A summary of `every-kind.jsonl` whose first cue kind holds `counts` in buckets 0, 1, ….
  static func summary(counts: [Int64], in directory: String, name: String) throws -> String {
    let run = CreaseRun("replay", tracePath("every-kind.jsonl"), "-o", "/dev/null", "--summary-json", "-")
    var object = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    var cues = try #require(object["cues"] as? [[String: Any]])
    cues[0]["histogram"] = counts.enumerated().map { [$0.offset, $0.element, $0.offset] }
    cues[0]["count"] = counts.reduce(Int64(0)) { $0.addingReportingOverflow($1).overflow ? .max : $0 + $1 }
    object["cues"] = cues
    let path = "\(directory)/\(name)"
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("counts that add past 2⁶³ across summaries saturate instead of trapping")
  func countsAcrossSummaries() throws {
    let directory = temporaryDirectory()
    let half = try Self.summary(counts: [1 << 62, 1 << 62 - 1], in: directory, name: "a.json")
    let run = CreaseRun("report", half, half, half, "-f", "json")
    #expect(run.status == .success, "\(run.error)")
    #expect(run.output.contains("\"count\": 9223372036854775807"))
  }

  @Test("bucket counts that add past 2⁶³ within one summary saturate too")
  func countsWithinSummary() throws {
    let directory = temporaryDirectory()
    let path = try Self.summary(counts: [Int64.max - 1, Int64.max - 1, 5], in: directory, name: "b.json")
    let run = CreaseRun("report", path)
    #expect(run.status == .success, "\(run.error)")
    #expect(run.output.contains("9223372036854775807"))
  }
}

@Suite("Hostile input, round 2: standard input and output are files like any other")
struct StandardStreamFileTests {
  static let cues = tracePath("every-kind.cues.jsonl")

  /// A copy of `every-kind.jsonl` in a fresh folder.
  func copy() throws -> (directory: String, trace: String) {
    let directory = temporaryDirectory()
    try write(contents(of: tracePath("every-kind.jsonl"))!, to: "\(directory)/t.jsonl")
    return (directory, "\(directory)/t.jsonl")
  }

  @Test(
    "an output that is the file standard input comes from is refused, the input untouched",
    arguments: [
      ["replay", "-", "-o", "T"], ["replay", "-", "--rejects", "T"], ["replay", "-", "--late", "T"],
      ["replay", "-", "-o", "/dev/null", "--summary-json", "T"], ["convert", "-", "-o", "T"],
      ["plot", "-", "-o", "T"],
    ])
  func standardInputIsAnInput(arguments: [String]) throws {
    let (_, trace) = try copy()
    let before = contents(of: trace)
    let run = CreaseRun(
      arguments.map { $0 == "T" ? trace : $0 }, input: try FileSource(path: trace), output: MemorySink())
    #expect(run.status == .usage)
    #expect(run.error.contains("is the same file as standard input"), "\(run.error)")
    #expect(contents(of: trace) == before)
  }

  @Test("standard output redirected onto an input is refused before anything is written")
  func standardOutputIsAnOutput() throws {
    let (_, trace) = try copy()
    let before = contents(of: trace)
    let appending = open(trace, O_WRONLY | O_APPEND)
    defer { close(appending) }
    let run = CreaseRun(
      ["replay", trace], input: MemorySource([]), output: FileSink(descriptor: appending, name: "<stdout>"))
    #expect(run.status == .usage)
    #expect(run.error.contains("Standard output is the same file as input"), "\(run.error)")
    #expect(contents(of: trace) == before)
  }

  /// The inode of `path`.
  func inode(_ path: String) -> UInt64 { FileIdentity(path: path)!.inode }

  @Test("a file on standard input is replaced atomically; a pipe's reader gets its output in place")
  func redirectedInputIsNotLive() throws {
    let (directory, trace) = try copy()
    let out = "\(directory)/out.jsonl"
    try write("old\n", to: out)
    let original = inode(out)
    let fromFile = CreaseRun(
      ["replay", "-", "-o", out], input: try FileSource(path: trace), output: MemorySink())
    #expect(fromFile.status == .success)
    #expect(contents(of: out) == contents(of: Self.cues))
    #expect(inode(out) != original, "renamed into place, not rewritten")
    var pipe: [Int32] = [0, 0]
    #expect(Glibc.pipe(&pipe) == 0)
    let traceBytes = try #require(bytes(of: trace))
    #expect(Glibc.write(pipe[1], traceBytes, traceBytes.count) == traceBytes.count)
    close(pipe[1])
    let replaced = inode(out)
    let fromPipe = CreaseRun(
      ["replay", "-", "-o", out],
      input: FileSource(descriptor: pipe[0], name: "<stdin>", closesDescriptor: true),
      output: MemorySink())
    #expect(fromPipe.status == .success)
    #expect(inode(out) == replaced, "a live run writes in place")
    #expect(contents(of: out) == contents(of: Self.cues))
  }
}

@Suite("Hostile input, round 2: memory bounded in bytes")
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

  @Test("a peak under 256 MB for marks of a megabyte a nanosecond apart, with a late output")
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
}
