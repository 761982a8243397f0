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

// Numbers at the edge of their range, from traces, files and options: checked, saturated or refused, never a trap. Cases that once trapped run in-process, so a trap would end the test run.

/// Each case once trapped (signal 4) on Swift arithmetic or a conversion reached from a trace,
/// a configuration file or an option. Run in-process: a trap would end the test run.
@Suite("Numbers at the edge of their range")
struct NumberEdgeTests {
  static let frame30 = #"{"t":0,"kind":"frame","pts":0}"#

  /// A header declaring `fps`, then frames with a gap and a stall.
  static func trace(fps: String) -> String {
    [
      #"{"kind":"header","format":"crease-trace","version":1,"streams":{"video":{"fps":"# + fps + "}}}",
      #"{"t":0,"kind":"frame","pts":0}"#, #"{"t":33333333,"kind":"frame","pts":33333333}"#,
      #"{"t":133333333,"kind":"frame","pts":133333333}"#, #"{"t":999999999,"kind":"end"}"#,
    ].joined(separator: "\n") + "\n"
  }

  @Test(
    "a declared fps near 0, huge or subnormal saturates", arguments: ["1e-10", "1e10", "5e-324", "1e308"])
  func extremeFrameRates(fps: String) {
    for command in [["replay", "--summary", "-"], ["stats", "-"], ["check", "-"]] {
      let run = CreaseRun(command, input: Array(Self.trace(fps: fps).utf8))
      #expect(run.status == .success, "\(command) at \(fps) fps: \(run.error)")
    }
  }

  @Test("pts jumps near 2⁶³ after a held two-frame gap, and back, saturate")
  func ptsJumps() {
    let lines = [
      #"{"t":0,"kind":"frame","pts":0}"#, #"{"t":1,"kind":"frame","pts":33333333}"#,
      #"{"t":2,"kind":"frame","pts":66666666}"#, #"{"t":3,"kind":"frame","pts":99999999}"#,
      #"{"t":4,"kind":"frame","pts":166666665}"#, #"{"t":5,"kind":"frame","pts":5000000000000000000}"#,
      #"{"t":6,"kind":"frame","pts":9223372036854775807}"#,
      #"{"t":7,"kind":"frame","pts":-9223372036854775807}"#,
      #"{"t":8,"kind":"frame","pts":9223372036854775807}"#,
    ]
    let input = Array((lines.joined(separator: "\n") + "\n").utf8)
    for command in [["replay", "--summary", "-"], ["stats", "-"]] {
      let run = CreaseRun(command, input: input)
      #expect(run.status == .success, "\(command): \(run.error)")
    }
    let replay = CreaseRun(["replay", "-"], input: input)
    #expect(replay.output.contains(#""cue":"camera.gap""#))
    #expect(replay.output.contains(#""cue":"camera.ptsRegression""#))
  }

  @Test("--loop past the end of the time range saturates")
  func loopPastTimeRange() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    try write(
      #"{"t":0,"kind":"mark","label":"a"}"# + "\n" + #"{"t":4611686018427387904,"kind":"mark","label":"b"}"#
        + "\n",
      to: "\(directory)/wide.jsonl")
    let run = CreaseRun("replay", "--loop", "3", "\(directory)/wide.jsonl")
    #expect(run.status == .success, "\(run.error)")
    #expect(run.output.split(separator: "\n").count == 6)
  }

  @Test(
    "a speed too slow to ever finish is a usage error", arguments: ["1e-300", "0.0009", "0", "-1", "nan"])
  func tooSlow(speed: String) {
    let run = CreaseRun("replay", "--speed", speed, tracePath("every-kind.jsonl"))
    #expect(run.status == .usage)
    #expect(run.error.contains("a number from 0.001"))
  }

  @Test(
    "configuration values at the edge saturate wherever they are used",
    arguments: [#"{"hinge":{"progressMaxRateHz":1e-10}}"#, #"{"camera":{"stallFactor":1e300}}"#])
  func extremeConfiguration(configuration: String) throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    try write(configuration, to: "\(directory)/c.json")
    for trace in ["every-kind.jsonl", "synth-dropped-frames.jsonl", "open-close.jsonl"] {
      let replay = CreaseRun("replay", "-c", "\(directory)/c.json", "--summary", tracePath(trace))
      #expect(replay.status == .success, "\(trace): \(replay.error)")
      let budget = CreaseRun(
        "replay", "-c", "\(directory)/c.json", "--latency-budget", "1000", tracePath(trace))
      #expect(budget.status == .usage, "\(trace): a saturated bound exceeds any budget")
      let plot = CreaseRun("plot", "-c", "\(directory)/c.json", tracePath(trace), "-o", "\(directory)/p.svg")
      #expect(plot.status == .success, "\(trace): \(plot.error)")
    }
  }

  @Test(
    "plot stays small and finite for extreme times and angles",
    arguments: [
      #"{"t":9223372036854775807,"kind":"hinge","angle":10,"status":"closed"}"#,
      #"{"t":0,"kind":"hinge","angle":1e300,"status":"partiallyOpen"}"#,
      #"{"t":0,"kind":"hinge","angle":30000000,"status":"partiallyOpen"}"#,
      #"{"t":0,"kind":"hinge","angle":-1e300,"status":"partiallyOpen"}"#,
    ])
  func extremePlot(line: String) throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    try write(
      line + "\n" + line.replacingOccurrences(of: #""t":0,"#, with: #""t":1000000000,"#) + "\n",
      to: "\(directory)/t.jsonl")
    let run = CreaseRun("plot", "\(directory)/t.jsonl", "-o", "\(directory)/p.svg")
    #expect(run.status == .success, "\(run.error)")
    let svg = contents(of: "\(directory)/p.svg") ?? ""
    #expect(svg.utf8.count < 100_000)
    #expect(!svg.contains("nan") && !svg.contains("inf"))
  }
}

/// The classes of issue 31, a test or more each. Cases that once trapped run in-process, so a
/// trap would end the test run; what only a process shows (signals, descriptors, limits) runs
/// `crease` under `/bin/sh`.
@Suite("Values checked after their conversion")
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

@Suite("Report arithmetic")
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
