import CreaseCLI
import Foundation
import Testing

@Suite("crease check and stats")
struct CheckAndStatsTests {
  @Test("check lists every problem with FILE:LINE:COL, warns about unknown keys and late lines, exits 65")
  func check() {
    let run = CreaseRun("check", tracePath("bad-lines.jsonl"), tracePath("disorder.jsonl"))
    #expect(run.status == .dataError)
    let lines = run.output.split(separator: "\n")
    #expect(lines.filter { $0.contains(": error: ") }.count == 10)
    #expect(run.output.contains("bad-lines.jsonl:8:71: warning: unknown key 'note' is ignored"))
    #expect(run.output.contains("disorder.jsonl:7:1: warning: late event"))
    #expect(
      run.output.contains(
        "bad-lines.jsonl: 10 bad line(s): 14 line(s), 4 processed, 10 rejected, 0 late, 0 blank"))
    #expect(run.output.contains("disorder.jsonl: ok: 11 line(s), 9 processed, 0 rejected, 2 late, 0 blank"))
  }

  @Test("check reports more than 20 problems when there are")
  func checkReportsAll() {
    let run = CreaseRun(["check", "-"], input: Array(String(repeating: "{}\n", count: 30).utf8))
    #expect(run.output.components(separatedBy: ": error: ").count == 31)
  }

  @Test("a clean trace checks ok and exits 0")
  func cleanTrace() {
    let run = CreaseRun("check", tracePath("every-kind.jsonl"))
    #expect(run.status == .success)
    #expect(
      run.output.hasSuffix("every-kind.jsonl: ok: 23 line(s), 23 processed, 0 rejected, 0 late, 0 blank\n"))
  }

  @Test("stats counts kinds and frames per stream")
  func stats() {
    let run = CreaseRun("stats", tracePath("every-kind.jsonl"))
    #expect(run.status == .success)
    #expect(run.output.contains("lines: 23 (23 processed, 0 rejected, 0 late, 0 blank)"))
    #expect(run.output.contains("duration: 0.500 s"))
    #expect(run.output.contains("  frame: 3 (6.0/s)"))
    #expect(run.output.contains("  hinge: 4 (8.0/s)"))
    #expect(run.output.contains("  streamEnd: 1 (2.0/s)"))
    #expect(run.output.contains("hinge angle: 0.0° to 178.5°"))
    #expect(
      run.output.contains(
        "stream video: 3 frame(s), 9.23 fps mean, nominal 30.00 fps, largest pts delta 183.333 ms, 1 gap(s), 5 frame(s) missing"
      ))
    #expect(run.output.contains("  drops frameWasLate: 1"))
  }

  @Test(
    "stats counts the gaps replay reports, stream by stream",
    arguments: ["dropped-frames.jsonl", "synth-dropped-frames.jsonl", "flip-around.jsonl", "synth-day.jsonl"])
  func statsAgreesWithReplay(trace: String) throws {
    let replay = CreaseRun("replay", tracePath(trace))
    var replayed: [String: (gaps: Int, missing: Int)] = [:]
    for line in replay.output.split(separator: "\n") where line.contains(#""cue":"camera.gap""#) {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let stream = try #require(object["stream"] as? String)
      replayed[stream, default: (0, 0)].gaps += 1
      replayed[stream, default: (0, 0)].missing += try #require(object["missing"] as? Int)
    }
    let stats = CreaseRun("stats", "-f", "json", tracePath(trace))
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: Any])
    let streams = try #require(document["streams"] as? [[String: Any]])
    #expect(!streams.isEmpty)
    for stream in streams {
      let name = try #require(stream["name"] as? String)
      #expect(stream["gaps"] as? Int == replayed[name]?.gaps ?? 0, "\(trace) \(name)")
      #expect(stream["missingFrames"] as? Int == replayed[name]?.missing ?? 0, "\(trace) \(name)")
    }
  }

  @Test("a stream that ends before an estimate exists has too few frames to judge, in stats as in replay")
  func statsTooFewFrames() {
    let trace = """
      {"t":1000000,"kind":"frame","stream":"video","pts":0}
      {"t":2000000,"kind":"frame","stream":"video","pts":1}
      {"t":42000000,"kind":"frame","stream":"video","pts":41666666}

      """
    let stats = CreaseRun(["stats", "-"], input: Array(trace.utf8))
    #expect(stats.output.contains("largest pts delta 41.667 ms, too few frames to judge gaps"))
    #expect(!CreaseRun(["replay", "-"], input: Array(trace.utf8)).output.contains("camera.gap"))
  }
}

@Suite("The crease executable")
struct ExecutableTests {
  var executable: String { creaseExecutable }

  @Test("the built crease replays a trace and exits with its status")
  func spawn() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["replay", tracePath("every-kind.jsonl")]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: data, as: UTF8.self) == contents(of: tracePath("every-kind.cues.jsonl")))
  }

  @Test("the built crease exits 64 on a usage error")
  func spawnUsageError() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["replay", "--bogus"]
    process.standardError = Pipe()
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 64)
  }
}
