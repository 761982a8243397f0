import Crease
import CreaseIO
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A live source on a manual clock: chunks of lines with silences between them.
final class ScriptedSource: ByteSource {
  enum Step {
    case data(String)
    case silence(Nanoseconds)
  }

  let name = "<live>"
  private var steps: [Step]
  private let clock: ManualClock
  /// Called before each chunk is handed over, to look at what was written by then.
  var beforeChunk: (String) -> Void = { _ in }

  init(_ steps: [Step], clock: ManualClock) {
    self.steps = steps
    self.clock = clock
  }

  func waitForInput(timeout: Nanoseconds, clock: WallClock) throws -> Bool {
    guard case .silence(let remaining) = steps.first else { return true }
    if remaining > timeout {
      self.clock.advance(by: timeout)
      steps[0] = .silence(remaining - timeout)
      return false
    }
    self.clock.advance(by: remaining)
    steps.removeFirst()
    return true
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    while case .silence(let remaining) = steps.first {
      clock.advance(by: remaining)
      steps.removeFirst()
    }
    guard case .data(let text) = steps.first else { return 0 }
    steps.removeFirst()
    beforeChunk(text)
    let bytes = Array(text.utf8)
    buffer.copyBytes(from: bytes)
    return bytes.count
  }
}

@Suite("Live input")
struct LiveInputTests {
  static let launch = #"{"t":0,"kind":"hinge","angle":1,"status":"closed"}"# + "\n"
  static let opening = #"{"t":100000000,"kind":"hinge","angle":40,"status":"partiallyOpen"}"# + "\n"
  static let later = #"{"t":700000000,"kind":"mark","label":"later"}"# + "\n"

  /// What had been written when the chunk after the silence was read.
  func writtenBeforeLastChunk(idleAdvance: Nanoseconds?) throws -> String {
    let clock = ManualClock()
    let source = ScriptedSource(
      [.data(Self.launch + Self.opening), .silence(.milliseconds(500)), .data(Self.later)], clock: clock)
    let output = MemorySink()
    var seen = ""
    source.beforeChunk = { chunk in if chunk == Self.later { seen = output.text } }
    var replay = TraceReplay(reorderWindow: .zero) { Pipeline(configuration: .default) }
    replay.idleAdvance = idleAdvance
    replay.clock = clock
    _ = try replay.run([source], to: .init(cues: output, diagnostics: MemorySink()))
    #expect(output.text.contains(#""label":"later""#))
    return seen
  }

  @Test("a regular file and memory never wait for a writer; a pipe may, and sniffing keeps the answer")
  func whichSourcesAreLive() throws {
    let path = "/tmp/crease-live-\(getpid()).jsonl"
    defer { unlink(path) }
    let file = fopen(path, "w")!
    fputs("{}\n", file)
    fclose(file)
    #expect(try !FileSource(path: path).isLive)
    #expect(try !SniffedSource(FileSource(path: path)).isLive)
    #expect(!MemorySource("{}\n").isLive)
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    close(ends[1])
    #expect(FileSource(descriptor: ends[0], name: "pipe").isLive)
    #expect(ScriptedSource([], clock: ManualClock()).isLive, "a source is live unless it says otherwise")
  }

  @Test("with idle advance, a debounced cue goes out while the input is silent")
  func idleAdvance() throws {
    let seen = try writtenBeforeLastChunk(idleAdvance: .milliseconds(20))
    #expect(
      seen.contains(
        #"{"t":150000000,"since":100000000,"cue":"hinge.status","from":"closed","to":"partiallyOpen"}"#))
  }

  @Test("without it, the cue waits for the next event; cues already due are flushed before waiting")
  func withoutIdleAdvance() throws {
    let seen = try writtenBeforeLastChunk(idleAdvance: nil)
    #expect(!seen.contains("hinge.status"))
    #expect(seen.contains("hinge.initial"))
  }
}

@Suite("Pacing")
struct PacerTests {
  @Test("lines are due at their trace time divided by the speed, from the first line")
  func schedule() {
    let clock = ManualClock(start: .milliseconds(1000))
    var pacer = Pacer(speed: 10, clock: clock)
    #expect(pacer.schedule(.milliseconds(500)) == .milliseconds(1000))
    #expect(pacer.schedule(.milliseconds(1500)) == .milliseconds(1100))
    #expect(pacer.schedule(.milliseconds(10_500)) == .milliseconds(2000))
  }

  @Test("lateness is measured against the schedule: p50, p99, max")
  func accuracy() {
    let clock = ManualClock(wakeUpDelay: .milliseconds(2))
    var pacer = Pacer(speed: 1, clock: clock)
    for index in 0..<100 {
      let due = pacer.wait(for: .milliseconds(Int64(index) * 10))
      if index == 99 { clock.advance(by: .milliseconds(30)) }
      pacer.sent(due)
    }
    let accuracy = pacer.accuracy!
    #expect(accuracy.lines == 100)
    #expect(accuracy.p50 == .milliseconds(2))
    #expect(accuracy.p99 == .milliseconds(2))
    #expect(accuracy.maximum == .milliseconds(32))
  }

  @Test(
    "a paced replay lasts until its last event's t (the end's, when there is one) divided by the speed",
    arguments: [
      #"{"t":6000000000,"kind":"end"}"#,
      #"{"t":6000000000,"kind":"hinge","angle":1,"status":"closed"}"#,
    ])
  func pacedReplayLastsAsLongAsTheInput(lastLine: String) throws {
    let clock = ManualClock()
    let trace = [
      #"{"t":0,"kind":"hinge","angle":1,"status":"closed"}"#,
      #"{"t":3400000000,"kind":"mark","label":"last cue"}"#, lastLine,
    ]
    var replay = TraceReplay(reorderWindow: .zero) { Pipeline(configuration: .default) }
    replay.pacer = Pacer(speed: 3, clock: clock)
    let output = MemorySink()
    _ = try replay.run(
      [MemorySource(Array((trace.joined(separator: "\n") + "\n").utf8), name: "paced")],
      to: .init(cues: output, diagnostics: MemorySink()))
    #expect(output.text.contains("last cue"))
    #expect(clock.now() == .seconds(2), "6 s of trace at 3× take 2 s, although the last cue is at 3.4 s")
  }

  @Test("paced output writes every line, in order")
  func pacedOutput() throws {
    let sink = MemorySink()
    var output = LineOutput(sink: sink, pacer: Pacer(speed: 2, clock: ManualClock()))
    for index in 0..<3 {
      try output.write(at: .milliseconds(Int64(index) * 100)) { $0 += Array("\(index)\n".utf8) }
    }
    #expect(sink.text == "0\n1\n2\n")
    #expect(output.pacer?.accuracy?.lines == 3)
  }
}

@Suite("Progress on a terminal")
struct ProgressReporterTests {
  @Test("silent for the first second, then a percentage in place, erased at the end")
  func progress() throws {
    let clock = ManualClock()
    let sink = MemorySink()
    let progress = ProgressReporter(sink: sink, total: 1000, clock: clock)
    try progress.update(done: 100, traceTime: .zero)
    #expect(sink.text.isEmpty)
    clock.advance(by: .milliseconds(1000))
    try progress.update(done: 420, traceTime: .zero)
    try progress.update(done: 421, traceTime: .zero)
    try progress.update(done: 1000, traceTime: .zero)
    try progress.finish()
    #expect(sink.text == "\rcrease: 42%\u{1B}[K\rcrease: 100%\u{1B}[K\r\u{1B}[K")
  }

  @Test("a paced replay shows trace time against the trace's length, redrawn at most 4 times a second")
  func pacedProgress() throws {
    let clock = ManualClock()
    let sink = MemorySink()
    let progress = ProgressReporter(sink: sink, total: 1000, measure: .traceTime, clock: clock)
    clock.advance(by: .milliseconds(1000))
    try progress.update(done: 250, traceTime: .milliseconds(15_000))
    clock.advance(by: .milliseconds(100))
    try progress.update(done: 300, traceTime: .milliseconds(18_000))
    clock.advance(by: .milliseconds(200))
    try progress.update(done: 500, traceTime: .milliseconds(30_050))
    #expect(
      sink.text == "\rcrease: 15.0 s of ~60.0 s of trace\u{1B}[K\rcrease: 30.0 s of ~60.1 s of trace\u{1B}[K")
    let unknownLength = MemorySink()
    let live = ProgressReporter(sink: unknownLength, total: nil, measure: .traceTime, clock: clock)
    clock.advance(by: .milliseconds(1000))
    try live.update(done: 10, traceTime: .milliseconds(2_500))
    #expect(unknownLength.text == "\rcrease: 2.5 s of trace\u{1B}[K")
  }

  @Test("a looping replay shows its pass first; past the first, a paced one no estimate")
  func passes() throws {
    let clock = ManualClock()
    let sink = MemorySink()
    let progress = ProgressReporter(sink: sink, total: 1000, passes: 3, clock: clock)
    clock.advance(by: .milliseconds(1000))
    try progress.update(done: 500, traceTime: .zero, pass: 2)
    #expect(sink.text == "\rcrease: pass 2 of 3, 50%\u{1B}[K")
    let endless = MemorySink()
    let paced = ProgressReporter(sink: endless, total: 1000, measure: .traceTime, passes: .max, clock: clock)
    clock.advance(by: .milliseconds(1000))
    try paced.update(done: 500, traceTime: .milliseconds(45_000), pass: 4)
    #expect(endless.text == "\rcrease: pass 4, 45.0 s of trace\u{1B}[K")
  }

  @Test("progress counts the bytes taken, not those read ahead: a small file is not done at its first line")
  func bytesTaken() throws {
    let text = #"{"t":0,"kind":"mark","label":"a"}"# + "\n" + #"{"t":1,"kind":"mark","label":"b"}"# + "\n"
    let reader = JSONLinesReader(source: MemorySource(Array(text.utf8)))
    _ = try reader.next()
    #expect(reader.bytesTaken == text.utf8.count / 2)
    _ = try reader.next()
    #expect(reader.bytesTaken == text.utf8.count)
    // Read ahead on a second thread, a batch's bytes are shared among its items: halfway through
    // 10,000 lines (three batches) it has taken about half.
    let lines = (0..<10_000).map { #"{"t":\#($0),"kind":"mark","label":"a"}"# + "\n" }.joined()
    let ahead = ReadAheadReader(JSONLinesReader(source: MemorySource(Array(lines.utf8))))
    var taken: [Int] = []
    while case .record = try ahead.next() { taken.append(ahead.bytesTaken) }
    #expect(taken.count == 10_000)
    #expect(zip(taken, taken.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(abs(taken[4_999] - lines.utf8.count / 2) < lines.utf8.count / 100)
    _ = try ahead.next()
    #expect(ahead.bytesTaken == lines.utf8.count, "all of it at the end")
  }

  @Test("a replay that ends within a second shows nothing")
  func quick() throws {
    let sink = MemorySink()
    let progress = ProgressReporter(sink: sink, total: 10, clock: ManualClock())
    try progress.update(done: 5, traceTime: .zero)
    try progress.finish()
    #expect(sink.text.isEmpty)
  }
}
