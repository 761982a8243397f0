import CreaseCLI
import CreaseIO
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Each case once trapped (signal 4) on Swift arithmetic or a conversion reached from a trace,
/// a configuration file or an option. Run in-process: a trap would end the test run.
@Suite("Hostile input: numbers at the edge of their range")
struct HostileInputTests {
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

@Suite("Hostile input: bounded memory")
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

@Suite("Faults: every line verbatim, every write error reported")
struct FaultTests {
  @Test("a rejected or late line keeps its CR LF in the rejects and late files")
  func carriageReturnsKept() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let input =
      #"{"t":100000000,"kind":"mark","label":"a"}"# + "\r\n"
      + #"{"t":1,"kind":"hinge","angle":1,"status":"clsed"}"#
      + "\r\n" + #"{"t":2,"kind":"mark","label":"late"}"# + "\r\n"
    let run = CreaseRun(
      ["replay", "--rejects", "\(directory)/r", "--late", "\(directory)/l", "-"], input: Array(input.utf8))
    #expect(run.status == .dataError)
    #expect(contents(of: "\(directory)/r") == #"{"t":1,"kind":"hinge","angle":1,"status":"clsed"}"# + "\r\n")
    #expect(contents(of: "\(directory)/l") == #"{"t":2,"kind":"mark","label":"late"}"# + "\r\n")
  }

  @Test("an angle too large for three decimals prints as the shortest exact number, not a clamped integer")
  func hugeAngle() {
    let run = CreaseRun(
      ["replay", "-"], input: Array((#"{"t":0,"kind":"hinge","angle":1e20,"status":"closed"}"# + "\n").utf8))
    #expect(run.output.contains(#""cue":"hinge.initial","status":"closed","angle":1e+20}"#))
  }

  /// A file even root may not read (a write-only sysctl): permission checks hold for it.
  static let unreadable = "/proc/sys/vm/drop_caches"

  @Test(
    "an input that cannot be read for its permissions is exit 66, like a missing one",
    .enabled(if: open(unreadable, O_RDONLY) == -1 && errno == EACCES))
  func unreadableInput() {
    for command in [["replay", Self.unreadable], ["check", Self.unreadable], ["stats", Self.unreadable]] {
      let run = CreaseRun(command)
      #expect(run.status == .noInput, "\(command)")
      #expect(run.error.contains("Permission denied"))
    }
  }

  @Test(
    "a write error on standard output is exit 74 with a message, on every command",
    arguments: [
      ["stats", tracePath("open-close.jsonl")], ["check", tracePath("open-close.jsonl")], ["scenarios"],
      ["--help"], ["--version"], ["help", "replay"], ["replay", tracePath("open-close.jsonl")],
      ["synth", "wobble"], ["replay", "--help"],
    ])
  func fullDisk(arguments: [String]) throws {
    let full = open("/dev/full", O_WRONLY)
    #expect(full >= 0)
    let error = MemorySink()
    let streams = StandardStreams(
      input: MemorySource([], name: "<stdin>"),
      output: FileSink(descriptor: full, name: "<stdout>", closesDescriptor: true), error: error)
    #expect(CreaseCommand.run(arguments, streams: streams) == .ioError)
    #expect(error.text.contains("No space left on device"))
  }
}
