import Crease
import CreaseCLI
import CreaseSynth
import Foundation
import Testing

@Suite("crease replay")
struct ReplayTests {
  @Test(
    "each bundled trace replays to its expected cues and diagnostics, byte for byte",
    arguments: [
      ("every-kind", ExitCode.success), ("disorder", .success), ("bad-lines", .dataError),
      ("open-close", .success),
      ("wobble", .success), ("fold-while-recording", .success), ("flip-around", .success),
      ("dropped-frames", .success), ("synth-open-close", .success), ("synth-wobble", .success),
      ("synth-tabletop", .success), ("synth-fold-while-recording", .success), ("synth-flip-around", .success),
      ("synth-dropped-frames", .success), ("synth-accessory", .success), ("synth-day", .success),
    ])
  func bundledTraces(name: String, status: ExitCode) throws {
    let expectedErrors = contents(of: tracePath("\(name).stderr.txt"))?
      .replacingOccurrences(of: "Traces/", with: "\(repositoryRoot)/Traces/")
    // Read ahead on a second thread, and on one thread, where the events are taken by a loop
    // of their own (`crease batch` replays each trace that way).
    for threads in ["2", "1"] {
      let run = CreaseRun("replay", "--threads", threads, tracePath("\(name).jsonl"))
      #expect(run.status == status, "--threads \(threads)")
      #expect(run.output == contents(of: tracePath("\(name).cues.jsonl")), "--threads \(threads)")
      #expect(run.error == expectedErrors, "--threads \(threads)")
    }
  }

  @Test("--threads 1 keeps the replay on one thread and writes the same bytes, from either format")
  func oneThread() throws {
    let directory = temporaryDirectory()
    let binary = "\(directory)/synth-day.crtrace"
    #expect(CreaseRun("convert", tracePath("synth-day.jsonl"), "-o", binary).status == .success)
    for trace in [tracePath("synth-day.jsonl"), binary] {
      let threaded = CreaseRun("replay", "--summary", trace)
      let alone = CreaseRun("replay", "--threads", "1", "--summary", trace)
      #expect(alone.status == .success)
      #expect(alone.output == threaded.output)
      #expect(alone.error == threaded.error)
      #expect(alone.output == contents(of: tracePath("synth-day.cues.jsonl")))
    }
  }

  @Test(
    "the wobble near the flat boundary gives one threshold cue per real crossing, and no motion until it moves"
  )
  func wobble() {
    let cues = CreaseRun("replay", tracePath("wobble.jsonl")).output.split(separator: "\n")
    let thresholds = cues.filter { $0.contains(#""cue":"hinge.threshold""#) }
    #expect(thresholds.count == 2)
    #expect(thresholds.first?.contains(#""initial":true"#) == true)
    #expect(thresholds.last?.contains(#""side":"below""#) == true)
    let firstMotion = cues.first { $0.contains(#""cue":"hinge.motion""#) }
    #expect(firstMotion?.hasPrefix(#"{"t":3"#) == true, "no motion while resting for 3 s")
  }

  @Test("the open-close trace opens, settles fully open, closes and settles closed")
  func openClose() {
    let cues = CreaseRun("replay", tracePath("open-close.jsonl")).output
    let order = [
      #""cue":"hinge.motion","phase":"opening""#, #""zone":"fullyOpen""#,
      #""cue":"hinge.motion","phase":"closing""#,
      #""from":"partiallyOpen","to":"closed""#, #""zone":"closed""#,
    ]
    var rest = cues[...]
    for fragment in order {
      guard let range = rest.range(of: fragment) else {
        Issue.record("missing \(fragment) in order")
        return
      }
      rest = rest[range.upperBound...]
    }
  }

  @Test("opening the phone while recording: a switch gap with no drop reason, a new decision, a mask")
  func foldWhileRecording() {
    let run = CreaseRun("replay", "--summary", tracePath("fold-while-recording.jsonl"))
    let cues = run.output.split(separator: "\n")
    #expect(cues.contains { $0.contains(#""cue":"camera.gap""#) && $0.contains(#""cause":"cameraSwitch""#) })
    #expect(!cues.contains { $0.contains(#""cause":"reportedDrop""#) })
    #expect(
      cues.contains {
        $0.contains(#""cue":"camera.mirroring","stream":"video","camera":"innerFront","mirrored":true"#)
      })
    #expect(
      cues.contains { $0.contains(#""cue":"camera.mask","stream":"video","on":true,"reason":"hinge""#) })
    #expect(cues.contains { $0.contains(#""cue":"camera.mask","stream":"video","on":false"#) })
    #expect(run.error.contains("camera: 0 frame(s) delivered under a stale mirroring decision"))
  }

  @Test(
    "turning the phone around: the rear camera faces the person and is mirrored; earlier frames were stale")
  func flipAround() {
    let run = CreaseRun("replay", "--summary", tracePath("flip-around.jsonl"))
    #expect(
      run.output.contains(
        #""cue":"camera.mirroring","stream":"video","camera":"backWide","mirrored":true,"basis":"direction"}"#
      ))
    #expect(run.error.contains("camera: 41 frame(s) delivered under a stale mirroring decision"))
  }

  @Test("ordinary drops explain their gaps with their reasons")
  func droppedFrames() {
    let gaps = CreaseRun("replay", tracePath("dropped-frames.jsonl")).output.split(separator: "\n")
      .filter { $0.contains(#""cue":"camera.gap""#) }
    #expect(gaps.count == 3)
    #expect(gaps.allSatisfy { $0.contains(#""cause":"reportedDrop""#) })
    #expect(gaps[1].contains(#""missing":3,"cause":"reportedDrop","reason":"outOfBuffers""#))
  }

  @Test("the same input gives the same bytes, and stdin equals the file")
  func deterministic() {
    let path = tracePath("disorder.jsonl")
    let first = CreaseRun("replay", path)
    #expect(CreaseRun("replay", path).output == first.output)
    #expect(CreaseRun(["replay", "-"], input: Array(contents(of: path)!.utf8)).output == first.output)
  }

  @Test("--strict stops at the first bad line after writing the cues already due")
  func strict() {
    let run = CreaseRun("replay", "--strict", "--summary", tracePath("bad-lines.jsonl"))
    #expect(run.status == .dataError)
    #expect(run.output == #"{"t":0,"since":0,"cue":"mark","label":"first good line"}"# + "\n")
    #expect(run.error.components(separatedBy: ": error: ").count == 2)
    #expect(run.error.contains("stopped at the first bad or late line"))
  }

  @Test("--strict stops at a late line too")
  func strictLate() {
    let run = CreaseRun("replay", "--strict", tracePath("disorder.jsonl"))
    #expect(run.status == .dataError)
    #expect(run.error.contains("disorder.jsonl:7:1: error: late event: 50000001 ns behind"))
    #expect(!run.output.contains("\"g\""))
  }

  @Test("rejected and late lines are written verbatim to their files")
  func rejectsAndLate() {
    let directory = temporaryDirectory()
    let run = CreaseRun(
      "replay", "--rejects", "\(directory)/rejects.jsonl", "--late", "\(directory)/late.jsonl",
      tracePath("bad-lines.jsonl"), tracePath("disorder.jsonl"))
    #expect(run.status == .dataError)
    let rejects = contents(of: "\(directory)/rejects.jsonl")!.split(separator: "\n")
    #expect(rejects.count == 10)
    #expect(rejects.first == #"{"t":1000,"kind":"hinge","angle":12,"status":"clsed"}"#)
    #expect(rejects.last == #"{"t":8000,"kind":"mark","label":"truncated"#)
    let late = contents(of: "\(directory)/late.jsonl")!.split(separator: "\n")
    #expect(
      late == [
        #"{"t":49999999,"kind":"mark","label":"late (1 ns beyond the window)"}"#,
        #"{"t":10000000,"kind":"mark","label":"late again (190 ms behind)"}"#,
      ])
  }

  @Test("the summary accounts for every line once")
  func summary() {
    let run = CreaseRun("replay", "--summary", tracePath("bad-lines.jsonl"), tracePath("disorder.jsonl"))
    #expect(run.error.contains("bad-lines.jsonl: 14 read = 4 processed + 10 rejected + 0 late + 0 blank"))
    #expect(run.error.contains("disorder.jsonl: 11 read = 9 processed + 0 rejected + 2 late + 0 blank"))
    #expect(run.error.contains("all: 25 read = 13 processed + 10 rejected + 2 late + 0 blank"))
    #expect(run.error.contains("    mark     11  0.000  0.000  0.000  0.000  0.000 ms (instant)\n"))
  }

  @Test("several traces merge by t, ties in command-line order")
  func merge() {
    let a = #"{"t":0,"kind":"mark","label":"a0"}"# + "\n" + #"{"t":20,"kind":"mark","label":"a20"}"# + "\n"
    let directory = temporaryDirectory()
    try? write(a, to: "\(directory)/a.jsonl")
    let b = #"{"t":10,"kind":"mark","label":"b10"}"# + "\n" + #"{"t":20,"kind":"mark","label":"b20"}"# + "\n"
    let run = CreaseRun(["replay", "-f", "text", "-", "\(directory)/a.jsonl"], input: Array(b.utf8))
    let labels = run.output.split(separator: "\n").map { $0.split(separator: "label=").last! }
    #expect(labels == ["a0", "b10", "b20", "a20"])
  }

  @Test("only 20 bad lines are shown, then a count; all are counted")
  func reportLimit() {
    let input = String(repeating: "{}\n", count: 25) + #"{"t":1,"kind":"mark","label":"ok"}"# + "\n"
    let run = CreaseRun(["replay", "-"], input: Array(input.utf8))
    #expect(run.status == .dataError)
    #expect(run.error.components(separatedBy: "error: missing 'kind'").count == 21)
    #expect(run.error.contains("crease: 5 more bad line(s) not shown; 25 rejected in all"))
    #expect(run.output.contains("\"ok\""))
  }

  @Test("a line of several megabytes is rejected with its length and the next line still counts")
  func overlongLine() {
    let huge = #"{"t":0,"kind":"mark","label":""# + String(repeating: "x", count: 3 << 20) + "\"}\n"
    let input = huge + #"{"t":1,"kind":"mark","label":"after"}"# + "\n"
    let run = CreaseRun(["replay", "--summary", "-"], input: Array(input.utf8))
    #expect(run.status == .dataError)
    #expect(run.error.contains("<stdin>:1:1048577: error: line is 3145760 bytes long"))
    #expect(run.output == #"{"t":1,"since":1,"cue":"mark","label":"after"}"# + "\n")
    let directory = temporaryDirectory()
    _ = CreaseRun(["replay", "--rejects", "\(directory)/rejects.jsonl", "-"], input: Array(input.utf8))
    #expect(
      contents(of: "\(directory)/rejects.jsonl") == huge, "the whole line, streamed to the rejects file")
  }

  @Test("a binary file passed as a trace gives errors, not a crash")
  func binaryInput() {
    var random = SplitMix64(seed: 7)
    let bytes = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let run = CreaseRun(["replay", "--summary", "-"], input: bytes)
    #expect(run.status == .dataError)
    #expect(run.output.isEmpty)
    #expect(run.error.contains("Summary"))
  }

  @Test("lines after a trace's end are rejected, blank ones excepted, and the end rule applies")
  func linesAfterEnd() {
    let input = [
      #"{"t":0,"kind":"mark","label":"a"}"#, #"{"t":5,"kind":"end"}"#, "",
      #"{"t":6,"kind":"mark","label":"too late"}"#,
    ].joined(separator: "\n")
    let run = CreaseRun(["replay", "--summary", "-"], input: Array(input.utf8))
    #expect(run.status == .dataError)
    #expect(run.error.contains("<stdin>:4:1: error: a line after this trace's 'end' event (line 2)"))
    #expect(run.error.contains("<stdin>: 4 read = 2 processed + 1 rejected + 0 late + 1 blank"))
    #expect(run.error.contains("end: end event at t=5"))
    #expect(run.output == #"{"t":0,"since":0,"cue":"mark","label":"a"}"# + "\n")
  }

  @Test("the text format renders the same cues")
  func textFormat() {
    let run = CreaseRun("replay", "-f", "text", tracePath("every-kind.jsonl"))
    #expect(
      run.output.hasPrefix(
        "     0.000000000  mark                   label=\"recording starts on the outer display\"\n"))
    #expect(
      run.output.contains(
        "     0.130000000  hinge.status           from=closed to=partiallyOpen  (+50.000 ms)\n"))
    #expect(run.output.contains("     0.300000000  hinge.unavailable\n"))
    #expect(
      run.output.split(separator: "\n").count
        == contents(of: tracePath("every-kind.cues.jsonl"))!.split(separator: "\n").count)
  }

  @Test("-o writes the cues to a file")
  func outputFile() {
    let directory = temporaryDirectory()
    let run = CreaseRun("replay", "-o", "\(directory)/cues.jsonl", tracePath("every-kind.jsonl"))
    #expect(run.status == .success)
    #expect(run.output.isEmpty)
    #expect(contents(of: "\(directory)/cues.jsonl") == contents(of: tracePath("every-kind.cues.jsonl")))
  }
}

@Suite("crease replay -f chrome")
struct ChromeFormatTests {
  func events(_ arguments: String...) throws -> [[String: Any]] {
    let run = CreaseRun(arguments)
    let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    return try #require(object?["traceEvents"] as? [[String: Any]])
  }

  /// Checks the Trace Event Format's structure as the Perfetto UI reads it (SPEC 3), for machines
  /// without a browser (`Tests/Browser` checks the UI itself): known phases, times in µs with at
  /// most three decimals, B/E balanced and nested per track with each E named as its B (the UI
  /// matches them by name), b/e paired by a process-local id (`id2.local`; a plain `id` is global
  /// and leaves its process), every process and thread used named by metadata.
  func checkStructure(_ events: [[String: Any]]) throws {
    var open: [String: [String]] = [:]
    var asyncOpen: Set<String> = []
    var named: Set<String> = []
    var used: Set<String> = []
    for event in events {
      let phase = try #require(event["ph"] as? String)
      #expect(["B", "E", "X", "i", "C", "b", "e", "M"].contains(phase), "phase \(phase)")
      let pid = try #require(event["pid"] as? Int)
      if phase == "M" {
        let name = try #require(event["name"] as? String)
        let label = (event["args"] as? [String: Any])?["name"] as? String
        if name == "process_name" { named.insert("\(pid)") }
        if name == "thread_name" { named.insert("\(pid)/\(event["tid"]!)") }
        #expect(["process_name", "process_sort_index", "thread_name"].contains(name))
        #expect(label != nil || name == "process_sort_index")
        continue
      }
      let ts = try #require(event["ts"] as? Double)
      #expect(abs(ts * 1000 - (ts * 1000).rounded()) < 1e-3, "ts \(ts) is µs with ns decimals")
      used.insert("\(pid)")
      if !["C", "b", "e"].contains(phase) { used.insert("\(pid)/\(event["tid"]!)") }
      let track = "\(pid)/\(event["tid"] ?? "")"
      switch phase {
      case "B": open[track, default: []].append(event["name"] as! String)
      case "E":
        let begun = open[track]?.popLast()
        #expect(
          begun == event["name"] as? String,
          "E named \(event["name"]!) closes \(begun ?? "nothing") on \(track)")
      case "b", "e":
        #expect(event["id"] == nil, "a plain id is global: the slice would leave its process")
        let local = try #require((event["id2"] as? [String: Any])?["local"] as? Int)
        let key = "\(pid)/\(local)"
        if phase == "b" {
          asyncOpen.insert(key)
        } else {
          #expect(asyncOpen.remove(key) != nil, "e without b")
        }
      default: break
      }
    }
    let leftOpen = open.filter { !$0.value.isEmpty }
    #expect(leftOpen.isEmpty, "slices left open: \(leftOpen)")
    #expect(asyncOpen.isEmpty)
    #expect(used.isSubset(of: named), "unnamed: \(used.subtracting(named))")
  }

  @Test("the Trace Event Format's structure holds for every bundled trace")
  func structure() throws {
    for name in [
      "every-kind", "fold-while-recording", "dropped-frames", "synth-day", "bad-lines", "disorder",
    ] {
      try checkStructure(try events("replay", "-f", "chrome", tracePath("\(name).jsonl")))
    }
  }

  @Test("tracks: hinge angle and progress counters, status slices, masks and gaps, instants, latency")
  func tracks() throws {
    let events = try events("replay", "-f", "chrome", tracePath("fold-while-recording.jsonl"))
    let hingeLines = contents(of: tracePath("fold-while-recording.jsonl"))!.split(separator: "\n")
      .filter { $0.contains(#""kind":"hinge""#) }
    let counters = events.filter { $0["ph"] as? String == "C" }
    #expect(counters.filter { $0["name"] as? String == "hinge angle" }.count == hingeLines.count)
    let jsonl = CreaseRun("replay", tracePath("fold-while-recording.jsonl")).output.split(separator: "\n")
    let progress = jsonl.filter { $0.contains(#""cue":"hinge.progress""#) }
    #expect(counters.filter { $0["name"] as? String == "hinge.progress" }.count == progress.count)
    let statuses = events.filter { $0["ph"] as? String == "B" && $0["tid"] as? Int == 2 }.map {
      $0["name"] as! String
    }
    #expect(statuses == ["closed", "partiallyOpen", "fullyOpen"])
    let gap = try #require(events.first { $0["ph"] as? String == "X" })
    #expect(gap["name"] as? String == "gap video")
    let arguments = try #require(gap["args"] as? [String: Any])
    #expect(arguments["cause"] as? String == "cameraSwitch")
    let gapCue = try #require(jsonl.first { $0.contains("camera.gap") })
    #expect(gapCue.contains(#""since":\#(Int((arguments["since"] as! Double) * 1000))"#), "since in µs")
    let delayed = jsonl.filter { line in
      let fields = line.split(separator: ",")
      return fields[0].dropFirst(5) != fields[1].dropFirst(8)
    }
    #expect(
      events.filter { $0["ph"] as? String == "b" }.count == delayed.count, "a latency slice per delayed cue")
  }

  @Test("merged traces stay apart: a process per trace, named by its file")
  func processPerTrace() throws {
    let events = try events(
      "replay", "-f", "chrome", tracePath("open-close.jsonl"), tracePath("synth-dropped-frames.jsonl"))
    try checkStructure(events)
    let names = events.filter { $0["name"] as? String == "process_name" }
      .map { (($0["pid"] as! Int), ($0["args"] as! [String: Any])["name"] as! String) }
    #expect(names.map(\.0) == [1, 2])
    #expect(names[0].1.hasSuffix("open-close.jsonl"))
    #expect(names[1].1.hasSuffix("synth-dropped-frames.jsonl"))
    let gaps = events.filter { $0["ph"] as? String == "X" }
    #expect(!gaps.isEmpty)
    #expect(gaps.allSatisfy { $0["pid"] as? Int == 2 }, "the camera trace's gaps are its own")
    let angles = events.filter { $0["name"] as? String == "hinge angle" }
    #expect(Set(angles.map { $0["pid"] as! Int }) == [1], "only the hinge trace has hinge deliveries")
    let statuses = events.filter { $0["ph"] as? String == "B" && $0["tid"] as? Int == 2 }
    #expect(!statuses.isEmpty && statuses.allSatisfy { $0["pid"] as? Int == 1 })
  }

  @Test("a paced replay stopped by SIGINT midway leaves valid JSON, every slice ended")
  func pacedAndInterrupted() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: creaseExecutable)
    // Paced at a fifth of real time, fold-while-recording lasts 13 s: it is stopped midway.
    process.arguments = ["replay", "--speed", "0.2", "-f", "chrome", tracePath("fold-while-recording.jsonl")]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let first = output.fileHandleForReading.availableData
    #expect(!first.isEmpty, "the timeline starts at once")
    usleep(500_000)
    process.interrupt()
    let rest = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(
      process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT,
      "it ends of the signal")
    let object = try JSONSerialization.jsonObject(with: first + rest) as? [String: Any]
    try checkStructure(try #require(object?["traceEvents"] as? [[String: Any]]))
  }

  @Test("the output stays valid JSON when --strict stops early, and is the same every run")
  func strictAndDeterministic() throws {
    try checkStructure(try events("replay", "-f", "chrome", "--strict", tracePath("bad-lines.jsonl")))
    let first = CreaseRun("replay", "-f", "chrome", tracePath("every-kind.jsonl")).output
    #expect(CreaseRun("replay", "-f", "chrome", tracePath("every-kind.jsonl")).output == first)
  }
}
