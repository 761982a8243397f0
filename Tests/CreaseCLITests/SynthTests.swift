import CreaseCLI
import Foundation
import Testing

@Suite("crease synth and scenarios")
struct SynthTests {
  /// The bundled generated traces and the commands that made them.
  static let bundled: [(scenario: String, duration: String)] = [
    ("open-close", "8"), ("wobble", "8"), ("tabletop", "8"), ("fold-while-recording", "8"),
    ("flip-around", "8"),
    ("dropped-frames", "8"), ("accessory", "12"), ("day", "40"),
  ]

  @Test(
    "regenerating each bundled synthetic trace with its seed gives the same bytes", arguments: Self.bundled)
  func regenerate(scenario: String, duration: String) {
    let run = CreaseRun("synth", scenario, "--seed", "1", "--duration", duration)
    #expect(run.status == .success)
    #expect(run.output == contents(of: tracePath("synth-\(scenario).jsonl")))
  }

  @Test("each generated trace passes crease check", arguments: Self.bundled.map(\.scenario))
  func check(scenario: String) {
    let synth = CreaseRun(
      "synth", scenario, "--seed", "9", "--duration", "20", "--fps", "60", "--hinge-hz", "90")
    let check = CreaseRun(["check", "-"], input: Array(synth.output.utf8))
    #expect(check.status == .success, "\(check.output)")
    #expect(!check.output.contains("warning"))
  }

  @Test("synth piped into replay equals replaying the file")
  func pipeIntoReplay() throws {
    let synth = CreaseRun("synth", "fold-while-recording", "--seed", "4")
    let directory = temporaryDirectory()
    try write(synth.output, to: "\(directory)/trace.jsonl")
    let fromFile = CreaseRun("replay", "\(directory)/trace.jsonl")
    let fromPipe = CreaseRun(["replay", "-"], input: Array(synth.output.utf8))
    #expect(fromFile.status == .success)
    #expect(!fromFile.output.isEmpty)
    #expect(fromPipe.output == fromFile.output)
  }

  @Test("pacing changes when lines go out, not what they are")
  func pacedBytes() {
    let plain = CreaseRun("synth", "dropped-frames", "--duration", "1")
    let paced = CreaseRun("synth", "dropped-frames", "--duration", "1", "--speed", "1000")
    #expect(paced.output == plain.output)
  }

  @Test("scenarios lists every scenario with a line each")
  func scenarios() {
    let lines = CreaseRun("scenarios").output.split(separator: "\n")
    #expect(lines.map { String($0.split(separator: " ")[0]) } == Self.bundled.map(\.scenario))
  }

  @Test(
    "bad synth arguments are usage errors",
    arguments: [
      (["synth", "wobbel"], "Error: Unknown scenario 'wobbel'. Did you mean 'wobble'?"),
      (
        ["synth", "wobble", "--fps", "0"],
        "Error: The value '0' is invalid for '--fps': expected a frame rate from 1 to 240."
      ),
      (
        ["synth", "wobble", "--speed", "-1"],
        "Error: The value '-1' is invalid for '--speed': expected a number from 0.001."
      ),
      (
        ["synth", "wobble", "--seed", "x"],
        "Error: The value 'x' is invalid for '--seed': expected a whole number."
      ),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) {
    let run = CreaseRun(arguments)
    #expect(run.status == .usage)
    #expect(run.error.hasPrefix(message + "\n"), "\(run.error)")
  }
}

@Suite("crease replay: loops, pacing and live input")
struct PacedReplayTests {
  @Test("--loop replays the input again with trace time continuing")
  func loop() {
    let once = CreaseRun("replay", tracePath("synth-open-close.jsonl")).output.split(separator: "\n")
    let twice = CreaseRun("replay", "--loop", "2", tracePath("synth-open-close.jsonl")).output.split(
      separator: "\n")
    #expect(twice.count > once.count)
    #expect(twice.prefix(once.count - 1) == once.prefix(once.count - 1))
    let times = twice.map { Int64($0.split(separator: ",")[0].dropFirst(5))! }
    #expect(times == times.sorted())
    #expect(times.last! > 8_000_000_000)
  }

  @Test("--loop over two traces replays both again, merged by t, and counts every line of each pass")
  func loopSeveral() throws {
    let directory = temporaryDirectory()
    try write(
      #"{"t":0,"kind":"mark","label":"a0"}"# + "\n" + #"{"t":20,"kind":"mark","label":"a20"}"# + "\n",
      to: "\(directory)/a.jsonl")
    try write(
      #"{"t":10,"kind":"mark","label":"b10"}"# + "\n" + #"{"t":20,"kind":"mark","label":"b20"}"# + "\n",
      to: "\(directory)/b.jsonl")
    let run = CreaseRun(
      "replay", "--loop", "2", "--summary", "-f", "text", "\(directory)/a.jsonl", "\(directory)/b.jsonl")
    #expect(run.status == .success)
    let labels = run.output.split(separator: "\n").map { String($0.split(separator: "label=").last!) }
    // Ties in command-line order; each trace's second pass starts 33,333,333 ns after its last t.
    #expect(labels == ["a0", "b10", "a20", "b20", "a0", "b10", "b20", "a20"])
    #expect(run.error.contains("a.jsonl: 4 read = 4 processed + 0 rejected + 0 late + 0 blank"))
    #expect(run.error.contains("b.jsonl: 4 read = 4 processed + 0 rejected + 0 late + 0 blank"))
    #expect(run.error.contains("all: 8 read = 8 processed + 0 rejected + 0 late + 0 blank"))
  }

  @Test("--loop needs files, not standard input")
  func loopStdin() {
    let run = CreaseRun("replay", "--loop", "2", "-")
    #expect(run.status == .usage)
    #expect(run.error.hasPrefix("Error: Standard input cannot be replayed more than once"))
  }

  @Test("--speed reports pacing accuracy in the summary")
  func pacingSummary() {
    let run = CreaseRun("replay", "--speed", "1000", "--summary", tracePath("synth-dropped-frames.jsonl"))
    #expect(run.status == .success)
    #expect(run.error.contains("  pacing: 8 line(s) late by p50 "))
    #expect(run.output == contents(of: tracePath("synth-dropped-frames.cues.jsonl")))
  }

  @Test("live input through a pipe: with idle advance the debounced cue comes while the pipe stays open")
  func livePipe() throws {
    let live = try LiveCrease(["replay", "--idle-advance", "20", "-"])
    live.send(
      #"{"t":0,"kind":"hinge","angle":1,"status":"closed"}"# + "\n"
        + #"{"t":100000000,"kind":"hinge","angle":40,"status":"partiallyOpen"}"# + "\n")
    let received = live.receive(until: "hinge.status")
    #expect(received.contains(#""cue":"hinge.status","from":"closed","to":"partiallyOpen""#))
    #expect(live.process.isRunning, "the input is still open")
    #expect(try live.close() == 0)
  }

  @Test("live input through a pipe: a due cue comes with the line that moves the watermark past it")
  func livePipeWatermark() throws {
    let live = try LiveCrease(["replay", "-"])
    live.send(
      #"{"t":0,"kind":"hinge","angle":0.0,"status":"closed"}"# + "\n"
        + #"{"t":100000000,"kind":"hinge","angle":40.0,"status":"partiallyOpen"}"# + "\n"
        + #"{"t":2000000000,"kind":"mark","label":"a"}"# + "\n")
    // The line at 2 s moves the watermark to 1.95 s, past the debounce due at 150 ms. The line
    // at 4 s is not written until the cue has come.
    let received = live.receive(until: "hinge.status")
    #expect(received.contains(#""cue":"hinge.status","from":"closed","to":"partiallyOpen""#))
    #expect(!received.contains(#""label":"a""#), "the mark waits for the reorder window")
    live.send(#"{"t":4000000000,"kind":"mark","label":"b"}"# + "\n")
    #expect(try live.close() == 0)
  }
}

/// A `crease` process fed through a pipe, for live-input tests that judge only the order in
/// which lines arrive.
struct LiveCrease {
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let watchdog: DispatchWorkItem

  init(_ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: creaseExecutable)
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // If a cue never came, stop the process so reads end instead of hanging.
    let process = self.process
    watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
  }

  func send(_ lines: String) { input.fileHandleForWriting.write(Data(lines.utf8)) }

  /// Reads what the process writes until `text` has come (or the watchdog ended it).
  func receive(until text: String) -> String {
    var received = ""
    let reader = output.fileHandleForReading
    for _ in 0..<100 where !received.contains(text) {
      received += String(decoding: reader.availableData, as: UTF8.self)
    }
    return received
  }

  /// Closes the input and waits for the exit status.
  func close() throws -> Int32 {
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    watchdog.cancel()
    return process.terminationStatus
  }
}
