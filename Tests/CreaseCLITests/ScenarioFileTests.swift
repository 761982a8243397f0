import CreaseCLI
import CreaseSynth
import Foundation
import Testing

/// `synth --scenario` and `scenarios --json` (SPEC 6): the built-ins as data, and scenarios
/// users write, each knob checked by what the generated trace and its cues show.
@Suite("Scenario files")
struct ScenarioFileTests {
  /// A scenario file in a fresh folder, written from `text`.
  private func scenarioFile(_ text: String) throws -> String {
    let path = "\(temporaryDirectory())/scenario.json"
    try write(text, to: path)
    return path
  }

  /// The trace lines (header first) of `synth --scenario` on `text`.
  private func synthesize(_ text: String, _ options: String...) throws -> [[String: Any]] {
    let run = CreaseRun(["synth", "--scenario", try scenarioFile(text)] + options)
    #expect(run.status == .success, "\(run.error)")
    return jsonLines(run.output)
  }

  /// The cues of replaying `synth --scenario` on `text`.
  private func cues(_ text: String) throws -> [[String: Any]] {
    let synth = CreaseRun("synth", "--scenario", try scenarioFile(text))
    let replay = CreaseRun(["replay", "-"], input: Array(synth.output.utf8))
    #expect(replay.status == .success, "\(replay.error)")
    return jsonLines(replay.output)
  }

  private func jsonLines(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  // MARK: Built-ins as data

  @Test(
    "every built-in, exported and played from its file, gives the built-in's bytes",
    arguments: Scenario.allCases)
  func builtInsRoundTrip(scenario: Scenario) throws {
    let exported = CreaseRun("scenarios", "--json", scenario.rawValue)
    #expect(exported.status == .success)
    let path = try scenarioFile(exported.output)
    for options in [["--seed", "5", "--duration", "9"], ["--seed", "2", "--fps", "60", "--to", "binary"]] {
      let builtIn = CreaseRun(["synth", scenario.rawValue] + options)
      let fromFile = CreaseRun(["synth", "--scenario", path] + options)
      #expect(fromFile.status == .success, "\(fromFile.error)")
      #expect(fromFile.output == builtIn.output, "\(options)")
    }
  }

  @Test("scenarios --json lists every built-in with every parameter and a note on each")
  func exportAll() throws {
    let run = CreaseRun("scenarios", "--json")
    let list = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
    #expect(list.map { $0["name"] as? String } == Scenario.allCases.map(\.rawValue))
    for (document, scenario) in zip(list, Scenario.allCases) {
      let segment = try #require((document["segments"] as? [[String: Any]])?.first)
      let parameters = try #require(segment["parameters"] as? [String: Any])
      let notes = try #require(segment["notes"] as? [String: String])
      #expect(Set(parameters.keys) == Set(scenario.defaultParameters.all.map(\.name)))
      #expect(Set(notes.keys) == Set(parameters.keys))
    }
  }

  @Test("an edited parameter changes what the model does: a wobble moved to 90°")
  func editedParameter() throws {
    var text = CreaseRun("scenarios", "--json", "wobble").output
    text = text.replacingOccurrences(of: "\"around\": 140.0", with: "\"around\": 90")
    let angles = try synthesize(text).filter { $0["kind"] as? String == "hinge" }.compactMap {
      $0["angle"] as? Double
    }
    #expect(!angles.isEmpty)
    #expect(angles.allSatisfy { (84...96).contains($0) }, "\(angles.min()!)...\(angles.max()!)")
  }

  // MARK: The README's example, knob by knob

  private static let example = "\(repositoryRoot)/Examples/Scenarios/drops-while-wobbling.json"

  private func exampleTrace() -> [[String: Any]] {
    let run = CreaseRun("synth", "--scenario", Self.example)
    #expect(run.status == .success, "\(run.error)")
    return jsonLines(run.output)
  }

  private func exampleCues() -> [[String: Any]] {
    let synth = CreaseRun("synth", "--scenario", Self.example)
    return jsonLines(CreaseRun(["replay", "-"], input: Array(synth.output.utf8)).output)
  }

  private func t(_ line: [String: Any]) -> Int64 { (line["t"] as? NSNumber)?.int64Value ?? -1 }

  @Test("example, hinge: wobbling near 90° makes no motion; the close makes one and settles closed")
  func exampleHinge() {
    let trace = exampleTrace()
    let wobbling = trace.filter { $0["kind"] as? String == "hinge" && t($0) < 6_000_000_000 }
    #expect(wobbling.compactMap { $0["angle"] as? Double }.allSatisfy { (85...95).contains($0) })
    let cues = exampleCues()
    let motions = cues.filter { $0["cue"] as? String == "hinge.motion" }
    #expect(motions.count == 1)
    #expect(motions.first?["phase"] as? String == "closing")
    #expect(t(motions[0]) > 6_000_000_000)
    #expect(cues.contains { $0["cue"] as? String == "hinge.settled" && $0["zone"] as? String == "closed" })
  }

  @Test("example, camera: 60 fps declared and delivered, then 30 fps after the rate change")
  func exampleFrameRate() {
    let trace = exampleTrace()
    #expect(((trace[0]["streams"] as? [String: Any])?["video"] as? [String: Any])?["fps"] as? Double == 60)
    let pts = trace.filter { $0["kind"] as? String == "frame" }.map {
      ($0["pts"] as? NSNumber)?.int64Value ?? 0
    }
    let deltas = zip(pts.dropFirst(), pts).map { $0 - $1 }
    #expect(deltas.prefix(20).allSatisfy { (16_666_000...16_667_000).contains($0) })
    #expect(deltas.suffix(20).allSatisfy { (33_333_000...33_334_000).contains($0) })
  }

  @Test("example, drops: about 2 % of frames, all out of buffers, each a gap explained by its drop")
  func exampleDrops() {
    let trace = exampleTrace()
    let drops = trace.filter { $0["kind"] as? String == "drop" }
    let frames = trace.filter { $0["kind"] as? String == "frame" && t($0) < 6_000_000_000 }
    #expect(!drops.isEmpty)
    #expect(drops.allSatisfy { $0["reason"] as? String == "outOfBuffers" })
    #expect(Double(drops.count) / Double(frames.count + drops.count) < 0.05)
    let gaps = exampleCues().filter { $0["cue"] as? String == "camera.gap" && t($0) < 6_000_000_000 }
    #expect(gaps.count == drops.count)
    #expect(
      gaps.allSatisfy {
        $0["cause"] as? String == "reportedDrop" && $0["reason"] as? String == "outOfBuffers"
      })
  }

  @Test("example, switch gap: a camera-switch gap, then the outer camera faces the person, mirrored")
  func exampleSwitchGap() {
    let cues = exampleCues()
    let gap = cues.first { $0["cue"] as? String == "camera.gap" && $0["cause"] as? String == "cameraSwitch" }
    #expect(gap != nil)
    #expect(
      cues.contains {
        $0["cue"] as? String == "camera.mirroring" && $0["camera"] as? String == "outerFront"
          && $0["mirrored"] as? Bool == true
      })
    #expect(cues.contains { $0["cue"] as? String == "camera.mask" && $0["on"] as? Bool == true })
  }

  @Test("example, events and marks: eligible at the start, not once on the outer display; a mark per segment")
  func exampleEvents() {
    let cues = exampleCues()
    let eligibility = cues.filter { $0["cue"] as? String == "accessory.eligible" }.map {
      $0["eligible"] as? Bool
    }
    #expect(eligibility.contains(true))
    #expect(eligibility.last == false)
    let marks = cues.filter { $0["cue"] as? String == "mark" }
    #expect(marks.map { $0["label"] as? String } == ["wobbling near 90°", "closed onto the outer display"])
    #expect(marks.map(t) == [0, 6_000_000_000])
  }

  // MARK: The other knobs

  @Test(
    "hinge sensor: noise 0 gives the planned angle, unknownChance 1 every status unknown, rateHz the rate")
  func hingeSensor() throws {
    let trace = try synthesize(
      """
      {"name": "still", "segments": [{"duration": 4,
        "hinge": {"from": 45, "moves": [{"rest": 4}], "noise": 0, "unknownChance": 1, "rateHz": 10}}]}
      """)
    let hinge = trace.filter { $0["kind"] as? String == "hinge" }
    #expect(hinge.allSatisfy { $0["angle"] as? Double == 45 && $0["status"] as? String == "unknown" })
    #expect((30...50).contains(hinge.count), "\(hinge.count) deliveries in 4 s at 10 Hz")
  }

  @Test("hinge moves: open and close over drawn ranges, repeated until the segment ends")
  func hingeRepeat() throws {
    let cues = try cues(
      """
      {"name": "flaps", "duration": 12, "segments": [{
        "hinge": {"from": 0, "repeat": [{"open": [170, 178], "over": 0.8}, {"rest": 1.2},
                                         {"close": 0, "over": 0.8}, {"rest": 1.2}], "noise": 0}}]}
      """)
    let statuses = cues.filter { $0["cue"] as? String == "hinge.status" }.map { $0["to"] as? String }
    #expect(statuses.filter { $0 == "fullyOpen" }.count == 3, "\(statuses)")
    #expect(statuses.filter { $0 == "closed" }.count == 3, "\(statuses)")
  }

  @Test("drop reasons by weight, none for callbacks without one, and bursts")
  func dropReasons() throws {
    let trace = try synthesize(
      """
      {"name": "drops", "segments": [{"duration": 60, "camera": {"camera": "backWide", "fps": 30,
        "drops": {"chance": 0.05, "reasons": {"frameWasLate": 3, "none": 1}, "burstChance": 1}}}]}
      """)
    let drops = trace.filter { $0["kind"] as? String == "drop" }
    let late = drops.filter { $0["reason"] as? String == "frameWasLate" }.count
    let none = drops.filter { $0["reason"] == nil }.count
    #expect(late + none == drops.count)
    #expect(none > 0 && late > 2 * none, "late \(late), none \(none)")
    let pts = drops.map { ($0["pts"] as? NSNumber)?.int64Value ?? 0 }
    let consecutive = zip(pts.dropFirst(), pts).filter { $0 - $1 == 33_333_333 }.count
    #expect(consecutive >= drops.count / 2, "burstChance 1: every drop is followed by more")
  }

  @Test("segments: without a duration a segment lasts to the end; --duration cuts the run")
  func segmentsAndDuration() throws {
    let text = """
      {"name": "two", "duration": 5, "segments": [
        {"duration": 2, "mark": "first", "hinge": {"from": 10, "moves": [{"rest": 2}]}},
        {"mark": "second", "hinge": {"moves": [{"open": 100, "over": 1}]}}]}
      """
    let whole = try synthesize(text)
    #expect(t(whole.last!) == 5_000_000_000)
    #expect(whole.filter { $0["kind"] as? String == "mark" }.map(t) == [0, 2_000_000_000])
    let secondStart = whole.first { $0["kind"] as? String == "hinge" && t($0) >= 2_000_000_000 }
    #expect(
      (8...12).contains(secondStart?["angle"] as? Double ?? 0),
      "the second hinge starts where the first ended")
    let cut = try synthesize(text, "--duration", "1.5")
    #expect(t(cut.last!) == 1_500_000_000)
    #expect(cut.filter { $0["kind"] as? String == "mark" }.count == 1)
  }

  @Test("--duration 0 plays a user's scenario pass after pass, trace time going on")
  func endless() throws {
    let text =
      #"{"name": "short", "segments": [{"duration": 1, "hinge": {"from": 30, "moves": [{"rest": 1}]}}]}"#
    let trace = try synthesize(text, "--duration", "0", "--limit", "200")
    let times = trace.dropFirst().map(t)
    #expect(times.count == 200)
    #expect(times == times.sorted())
    #expect(times.last! > 2_000_000_000, "three passes of a one-second scenario at 60 Hz")
    #expect(!trace.contains { $0["kind"] as? String == "end" })
  }

  // MARK: Mistakes

  /// Scenario files with one mistake each, and what the error says.
  static let mistakenFiles: [(text: String, message: String)] = [
    (
      #"{"name": "x","# + "\n"
        + #" "segments": [{"duration": 1, "hinge": {"moves": [{"open": 90, "ovr": 2}]}}]}"#,
      "scenario.json:2:71: error: unknown key 'segments[0].hinge.moves[0].ovr'. Did you mean 'over'?"
    ),
    (
      #"{"name": "x", "segments": [{"model": "wobble", "hinge": {}}]}"#,
      "scenario.json:1:57: error: unknown key 'segments[0].hinge'"
    ),
    (
      #"{"name": "x", "segments": [{"duration": 1, "hinge": {"repeat": [{"rest": 0}]}}]}"#,
      "'segments[0].hinge.repeat' must take at least 10 ms a cycle"
    ),
    (
      #"{"name": "x", "segments": [{"duration": 86400, "mark": "a"}, {"duration": 1, "mark": "b"}]}"#,
      "the segments last 86401.0 s in all; a run lasts at most a day"
    ),
    (
      #"{"name": "x", "segments": [{"duration": 1, "hinge": {"from": [90, 10]}}]}"#,
      "'segments[0].hinge.from' is a range [low, high] with low above high"
    ),
    (
      #"{"name": "x", "segments": [{"duration": 1, "events": [{"at": 2, "kind": "mark", "label": "l"}]}]}"#,
      "'segments[0].events[0].at' must be from 0 to 1, not 2"
    ),
    (
      #"{"name": "x", "segments": [{"hinge": {}}]}"#,
      "'segments[0]' needs a 'duration': the scenario has none"
    ),
    (#"{"name": "x", "segments": [{"model": "wobbel"}]}"#, "Did you mean 'wobble'?"),
    (
      #"{"name": "x", "duration": 3, "segments": [{"model": "wobble", "parameters": {"driftOver": [1, 1e400]}}]}"#,
      "scenario.json:1:"
    ),
  ]

  @Test(
    "a mistaken scenario is refused with its line, column and reason; exit 65", arguments: Self.mistakenFiles)
  func mistakes(text: String, message: String) throws {
    let run = CreaseRun("synth", "--scenario", try scenarioFile(text))
    #expect(run.status == .dataError)
    #expect(run.output.isEmpty)
    #expect(run.error.contains(message), "\(run.error)")
  }

  @Test("the output may not be the scenario file; a built-in and a file at once is a usage error")
  func usage() throws {
    let path = try scenarioFile(CreaseRun("scenarios", "--json", "wobble").output)
    let before = contents(of: path)
    let same = CreaseRun("synth", "--scenario", path, "-o", path, "--to", "jsonl")
    #expect(same.status == .usage)
    #expect(same.error.contains("it would be destroyed"))
    #expect(contents(of: path) == before)
    #expect(CreaseRun("synth", "wobble", "--scenario", path).status == .usage)
    #expect(CreaseRun("synth").status == .usage)
  }
}
