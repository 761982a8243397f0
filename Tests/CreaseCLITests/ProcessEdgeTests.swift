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

// What only a process shows: signals, pipes, descriptors, limits and threads, run as `crease` under `/bin/sh`.

@Suite("Signals, pipes, descriptors and threads", .serialized)
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

  @Test(
    "SIGTERM stops --loop 0 with a whole summary of what was read; the old summary stays until then",
    .timeLimit(.minutes(1)), arguments: [["--loop", "0"], ["--speed", "1"]])
  func summaryOnSignal(mode: [String]) throws {
    let directory = temporaryDirectory()
    try write("old summary\n", to: "\(directory)/summary.json")
    let run = try shell(
      """
      $CREASE replay \(mode.joined(separator: " ")) -o cues.jsonl --summary --summary-json summary.json \
        '\(tracePath("open-close.jsonl"))' 2>err & pid=$!
      sleep 0.5
      echo "during: $(cat summary.json)"
      kill -TERM $pid; wait $pid; echo "status $?"
      """, in: directory)
    #expect(run.output.contains("during: old summary"), "not truncated while the replay runs: \(run.output)")
    #expect(run.output.contains("status 143"), "ended by SIGTERM: \(run.output)")
    let json = try #require(bytes(of: "\(directory)/summary.json"))
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
    let end = summary["end"] as? [String: Any]
    #expect(end?["rule"] as? String == "signal", "\(summary)")
    let total = summary["total"] as? [String: Any]
    #expect((total?["lines"] as? Int ?? 0) > 0, "what was read is counted")
    #expect(contents(of: "\(directory)/err")?.contains("stopped by a signal") == true)
    #expect(try listing(directory).filter { $0.contains("crease-") }.isEmpty, "no temporary file left")
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
