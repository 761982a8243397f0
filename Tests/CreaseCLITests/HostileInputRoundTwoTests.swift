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
    let pipe = try #require(makePipe())
    let traceBytes = try #require(bytes(of: trace))
    #expect(writeDescriptor(pipe.write, traceBytes) == traceBytes.count)
    close(pipe.write)
    let replaced = inode(out)
    let fromPipe = CreaseRun(
      ["replay", "-", "-o", out],
      input: FileSource(descriptor: pipe.read, name: "<stdin>", closesDescriptor: true),
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
}

@Suite("Hostile input, round 2: the same acceptance and values as json-c")
struct DuplicateKeyTests {
  @Test(
    "of a key given twice the last counts, as json-c keeps it, even when it saturates",
    arguments: [
      #"{"t":5,"kind":"mark","label":"x","t":-9223372036854775808}"#,
      #"{"t":5,"kind":"mark","label":"x","\u0074":-9223372036854775808}"#,
      #"{"t":5,"kind":"mark","label":"x","t":9223372036854775808}"#,
    ])
  func lastOfTwice(line: String) {
    let run = CreaseRun("replay", "-", input: line + "\n")
    #expect(run.status == .dataError)
    #expect(run.output.isEmpty, "not accepted at t = 5")
    #expect(run.error.contains("'t'"), "\(run.error)")
  }

  @Test("a key given twice whose last value is good is taken with that value")
  func goodLast() {
    let run = CreaseRun("replay", "-", input: #"{"t":-1,"kind":"mark","label":"y","t":7}"# + "\n")
    #expect(run.status == .success)
    #expect(run.output == #"{"t":7,"since":7,"cue":"mark","label":"y"}"# + "\n")
  }

  @Test("a configuration key given twice: the last, and the error names its place")
  func configurationTwice() throws {
    let directory = temporaryDirectory()
    try write(#"{"reorderWindowMs":50,"reorderWindowMs":99999999999999999999}"#, to: "\(directory)/c.json")
    let run = CreaseRun("replay", "-c", "\(directory)/c.json", tracePath("every-kind.jsonl"))
    #expect(run.status == .configuration)
    #expect(run.error.contains("c.json:1:41:"), "\(run.error)")
  }
}

@Suite("Hostile input, round 2: messages and outputs stay well-formed")
struct WellFormedTests {
  static let hostileStatus = #"{"t":1,"kind":"hinge","angle":1,"status":"clo\nsed\u001b[31m"}"#

  @Test(
    "a problem quoting control characters is one line, the characters escaped",
    arguments: ["replay", "check", "stats"])
  func escapedDiagnostics(command: String) {
    let run = CreaseRun([command, "-"], input: Array((Self.hostileStatus + "\n").utf8))
    let text = command == "check" ? run.output : run.error
    let problem = text.split(separator: "\n").filter { $0.contains("error:") }
    #expect(problem.count == 1, "\(text)")
    #expect(problem.first?.contains(#"'clo\nsed\u001B[31m'"#) == true, "\(text)")
    #expect(!text.utf8.contains(0x1B))
  }

  @Test("a usage error quoting an argument with control characters stays on its line")
  func escapedUsage() {
    let run = CreaseRun("replay", "--format", "te\nxt\u{1b}", tracePath("every-kind.jsonl"))
    #expect(run.status == .usage)
    #expect(run.error.hasPrefix("Error: ") && run.error.split(separator: "\n")[0].contains(#"te\nxt\u001B"#))
  }

  @Test("a label with control characters leaves the plot well-formed XML")
  func plotControlCharacters() throws {
    let directory = temporaryDirectory()
    try write(#"{"t":0,"kind":"mark","label":"a\u0001b\u001f<&>"}"# + "\n", to: "\(directory)/t.jsonl")
    let run = CreaseRun("plot", "\(directory)/t.jsonl", "-o", "\(directory)/t.svg")
    #expect(run.status == .success, "\(run.error)")
    let svg = try #require(bytes(of: "\(directory)/t.svg"))
    #expect(!svg.contains { $0 < 0x20 && $0 != 0x0A }, "no control byte but newlines")
    #expect(String(decoding: svg, as: UTF8.self).contains(#"a\u0001b\u001F&lt;&amp;&gt;"#))
    let parsed = try shell(
      #"python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' t.svg"#, in: directory)
    #expect(parsed.status == 0, "an XML parser reads it: \(parsed.output)")
  }

  @Test(
    "ill-formed UTF-8 that json-c's check lets through is refused at its byte",
    arguments: [[0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]] as [[UInt8]])
  func illFormedUTF8(sequence: [UInt8]) throws {
    let line = Array(#"{"t":0,"kind":"mark","label":"a"#.utf8) + sequence + Array("\"}\n".utf8)
    let run = CreaseRun(["replay", "-"], input: line)
    #expect(run.status == .dataError)
    #expect(run.error.contains("<stdin>:1:32: error: invalid JSON: invalid utf-8 string"), "\(run.error)")
    let directory = temporaryDirectory()
    let configuration =
      Array(#"{"hinge":{"boundaries":[{"name":""#.utf8) + sequence
      + Array(#"","below":1,"above":2}]}}"#.utf8)
    let sink = try FileSink(creatingFileAt: "\(directory)/c.json")
    try sink.write(configuration)
    try sink.flush()
    let refused = CreaseRun("replay", "-c", "\(directory)/c.json", tracePath("every-kind.jsonl"))
    #expect(refused.status == .configuration)
    #expect(refused.error.contains("invalid utf-8"), "\(refused.error)")
  }

  @Test("the line length limit does not count the CR of a CR LF line")
  func carriageReturnNotCounted() throws {
    let reader = LineReader(source: MemorySource("12345678\r\n123456789\r\n12345678\n"), maximumLineLength: 8)
    guard case .complete(let first)? = try reader.next() else { Issue.record("the first line fits"); return }
    #expect(first.count == 8 && reader.endedWithCarriageReturn)
    guard case .overlong(let length)? = try reader.next() else {
      Issue.record("the second is too long"); return
    }
    #expect(length == 10)
    guard case .complete(let third)? = try reader.next() else { Issue.record("the third fits"); return }
    #expect(third.count == 8)
  }
}

@Suite("Hostile input, round 2: links, permissions, and large exports")
struct LinkAndModeTests {
  static let cues = contents(of: tracePath("every-kind.cues.jsonl"))

  @Test("-o naming a symbolic link replaces the file it points to and keeps the link")
  func throughLink() throws {
    let directory = temporaryDirectory()
    try write("old\n", to: "\(directory)/target")
    #expect(symlink("target", "\(directory)/link") == 0)
    let run = CreaseRun("replay", tracePath("every-kind.jsonl"), "-o", "\(directory)/link")
    #expect(run.status == .success)
    var status = stat()
    #expect(lstat("\(directory)/link", &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK)
    #expect(contents(of: "\(directory)/target") == Self.cues)
    #expect(try listing(directory) == ["link", "target"])
  }

  @Test(
    "a replaced file keeps its mode; a new one gets the umask's",
    arguments: [0o400, 0o640, 0o755] as [mode_t])
  func modeKept(mode: mode_t) throws {
    let directory = temporaryDirectory()
    try write("old\n", to: "\(directory)/out")
    chmod("\(directory)/out", mode)
    let run = CreaseRun("replay", tracePath("every-kind.jsonl"), "-o", "\(directory)/out")
    #expect(run.status == .success)
    var status = stat()
    #expect(stat("\(directory)/out", &status) == 0)
    #expect(status.st_mode & 0o7777 == mode)
    // Read, not set and restored: tests run in parallel and create files meanwhile.
    let umaskLine = contents(of: "/proc/self/status")?.split(separator: "\n").first { $0.hasPrefix("Umask:") }
    let mask = try #require(
      umaskLine.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) })
    _ = CreaseRun("replay", tracePath("every-kind.jsonl"), "-o", "\(directory)/new")
    #expect(stat("\(directory)/new", &status) == 0)
    #expect(status.st_mode & 0o7777 == 0o666 & ~mask)
  }

  @Test("each preview mask track of a Chrome export is named for its own stream")
  func maskTrackNames() throws {
    let lines = (0..<3).flatMap { index in
      [
        #"{"t":\#(index * 2),"kind":"input","stream":"s\#(index)","camera":"outerFront"}"#,
        #"{"t":\#(index * 2 + 1),"kind":"input","stream":"s\#(index)","camera":"innerFront"}"#,
      ]
    }
    let run = CreaseRun("replay", "-f", "chrome", "-", input: lines.joined(separator: "\n") + "\n")
    #expect(run.status == .success)
    for index in 0..<3 {
      #expect(
        run.output.contains(#""tid":\#(10 + index),"args":{"name":"preview mask s\#(index)"}"#),
        "\(run.output)")
    }
  }
}

@Suite("Hostile input, round 2: signals, pipes, descriptors and threads", .serialized)
struct ProcessEdgeTests {
  /// A script that starts a replay reading the FIFO `in` into `out`, waits until it has opened
  /// its temporary output, sends it `signal`, and prints how it ended. `prelude` runs first.
  static func interruptScript(_ signal: String, prelude: String = "") -> String {
    """
    \(prelude)
    mkfifo in
    $CREASE replay in -o out & pid=$!
    exec 3>in
    printf '%s\\n' '{"t":0,"kind":"mark","label":"a"}' >&3
    i=0; while [ "$(ls -a | grep -c crease-)" = 0 ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done
    kill -\(signal) $pid
    sleep 0.2
    exec 3>&-
    wait $pid; echo "status $?"
    """
  }

  @Test(
    "a fatal signal leaves the old output and no temporary file", .timeLimit(.minutes(1)),
    // Not INT or QUIT: a shell starts background jobs with those ignored, and they stay so.
    arguments: ["HUP", "TERM", "USR1", "ALRM", "USR2"])
  func fatalSignal(signal: String) throws {
    let directory = temporaryDirectory()
    try write("old\n", to: "\(directory)/out")
    let run = try shell(Self.interruptScript(signal), in: directory)
    #expect(!run.output.contains("status 0"), "ended by the signal: \(run.output)")
    #expect(contents(of: "\(directory)/out") == "old\n")
    let left = try listing(directory)
    #expect(left == ["in", "out"], "left behind: \(left), \(run.output)")
  }

  @Test("a signal removes every temporary file, however many are open", .timeLimit(.minutes(1)))
  func manyTemporaryFiles() throws {
    let directory = temporaryDirectory()
    // 24 replays at once, each with its cue file open and waiting on a FIFO that stays quiet.
    let run = try shell(
      """
      i=0; while [ $i -lt 24 ]; do mkfifo f$i; sleep 30 > f$i & i=$((i+1)); done
      $CREASE batch $(ls f*) -d out -j 24 2>/dev/null & pid=$!
      n=0; while [ "$(ls -a out 2>/dev/null | grep -c crease-)" -lt 24 ] && [ $n -lt 500 ]; do sleep 0.01; n=$((n+1)); done
      echo "open $(ls -a out | grep -c crease-)"
      kill -TERM $pid; wait $pid
      echo "left $(ls -a out | grep -c crease-)"
      pkill -P $$ sleep
      """, in: directory)
    #expect(run.output.contains("open 24"), "\(run.output)")
    #expect(run.output.contains("left 0"), "\(run.output)")
  }

  @Test("a signal the parent set to be ignored stays ignored", .timeLimit(.minutes(1)))
  func ignoredSignal() throws {
    let directory = temporaryDirectory()
    try write("old\n", to: "\(directory)/out")
    let run = try shell(Self.interruptScript("HUP", prelude: "trap '' HUP"), in: directory)
    #expect(run.output.contains("status 0"), "\(run.output)")
    #expect(contents(of: "\(directory)/out") == #"{"t":0,"since":0,"cue":"mark","label":"a"}"# + "\n")
    #expect(try listing(directory) == ["in", "out"])
  }

  @Test(
    "a reader that goes away ends the run cleanly, however the parent set SIGPIPE", .timeLimit(.minutes(1)))
  func readerGoesAway() throws {
    let directory = temporaryDirectory()
    // Cues enough to fill the pipe long after the reader left.
    let replay = "$CREASE replay --loop 40 \(tracePath("synth-day.jsonl")) --summary-json S"
    let dying = try shell("\(replay) | head -c 10 >/dev/null; ls -a", in: directory)
    #expect(!dying.output.contains("crease-"), "no temporary file: \(dying.output)")
    #expect(!dying.output.contains("S\n"), "no summary of a run that did not finish")
    let ignoring = try shell(
      #"trap '' PIPE; \#(replay) 2>err | head -c 10 >/dev/null; cat err; ls -a"#, in: directory)
    #expect(
      ignoring.output.contains("crease: <stdout>: Broken pipe"), "a write error, said: \(ignoring.output)")
    #expect(!ignoring.output.contains("crease-"))
  }

  @Test("started with standard output or error closed, nothing lands in the files it opens")
  func closedDescriptors() throws {
    let directory = temporaryDirectory()
    let trace = tracePath("every-kind.jsonl")
    let run = try shell(
      #"$CREASE replay \#(trace) --summary-json S >&-; echo "out $?"; $CREASE replay \#(trace) --summary-json E 2>&- >/dev/null; echo "err $?""#,
      in: directory)
    #expect(run.output.contains("out 0") && run.output.contains("err 0"), "\(run.output)")
    for file in ["S", "E"] {
      let summary = try #require(contents(of: "\(directory)/\(file)"))
      #expect(summary.hasPrefix("{") && !summary.contains(#""cue":"mark""#), "only the summary in \(file)")
      #expect((try? JSONSerialization.jsonObject(with: Data(summary.utf8))) != nil)
    }
  }

  @Test("with no thread to be had, a replay runs on one and a batch finishes", .timeLimit(.minutes(2)))
  func noThreads() throws {
    let directory = temporaryDirectory()
    // A stack limit no thread can be given makes every pthread_create fail (EAGAIN); the main
    // thread's stack is already there.
    let limit = "ulimit -s 100000000 || exit 3"
    let replay = try shell(
      #"\#(limit); $CREASE replay \#(tracePath("synth-day.jsonl")) -o cues.jsonl; echo "status $?""#,
      in: directory)
    #expect(replay.output.contains("status 0"), "\(replay.output)")
    #expect(contents(of: "\(directory)/cues.jsonl") == contents(of: tracePath("synth-day.cues.jsonl")))
    let traces = ["every-kind", "open-close", "dropped-frames"].map { tracePath("\($0).jsonl") }.joined(
      separator: " ")
    let batch = try shell(
      #"\#(limit); $CREASE batch \#(traces) -d out -j 3; echo "status $?""#, in: directory)
    #expect(batch.output.contains("status 0"), "\(batch.output)")
    #expect(contents(of: "\(directory)/out/report.json") != nil)
  }
}
