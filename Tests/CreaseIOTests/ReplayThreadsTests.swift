import Crease
import CreaseIO
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("a replay over worker threads")
struct ReplayThreadsTests {
  /// Notes whether it was used on another thread than the one that made it, and which.
  final class ThreadNoting: @unchecked Sendable {
    private let creator = pthread_self()
    private(set) var elsewhere: pthread_t?
    var usedElsewhere: Bool { elsewhere != nil }
    func note() { if pthread_equal(pthread_self(), creator) == 0 { elsewhere = pthread_self() } }
  }

  /// A trace source that notes the thread it is read on.
  final class NotingSource: ByteSource {
    let name: String
    let isLive = false
    let thread = ThreadNoting()
    private let inner: MemorySource

    init(_ bytes: [UInt8], name: String) {
      inner = MemorySource(bytes, chunkSize: 4096)
      self.name = name
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      thread.note()
      return try inner.read(into: buffer)
    }
  }

  /// A sink that notes the thread it is written on, and can fail after some bytes.
  final class NotingSink: ByteSink {
    struct Full: Error, CustomStringConvertible {
      var description: String { "no space left" }
    }
    let thread = ThreadNoting()
    let inner = MemorySink()
    var room = Int.max

    func write(_ bytes: UnsafeRawBufferPointer) throws {
      thread.note()
      guard bytes.count <= room else { throw Full() }
      room -= bytes.count
      try inner.write(bytes)
    }
    func flush() throws {}
  }

  /// A trace with every kind of line, more lines and cues than a batch of either thread holds,
  /// late lines and an end.
  static let trace: [UInt8] = {
    var text = ReadAheadReaderTests.mixedTrace(lines: 3 * ReadAheadReader.batchSize)
    text += #"{"t":100,"kind":"mark","label":"late"}"# + "\n"
    text += #"{"t":5000000000,"kind":"end"}"# + "\n"
    return Array(text.utf8)
  }()

  /// The same trace in the binary format.
  static let binaryTrace: [UInt8] = {
    let converted = MemorySink()
    _ = try? TraceConverter.convert(
      MemorySource(trace), to: converted, binary: BinaryTraceFormat.version, diagnostics: MemorySink())
    return converted.bytes
  }()

  struct Run: Equatable {
    var summary: ReplaySummary
    var cues: String
    var diagnostics: String
    var late: String
    var rejects: String
    var failure: String?
    var readElsewhere = false
    var writtenElsewhere = false
    /// Whether the reading and the writing were done by one other thread.
    var readAndWrittenTogether = false

    static func == (a: Run, b: Run) -> Bool {
      (a.summary, a.cues, a.diagnostics, a.late, a.rejects, a.failure)
        == (b.summary, b.cues, b.diagnostics, b.late, b.rejects, b.failure)
    }
  }

  static func replay(
    _ bytes: [UInt8], threads: Int, strict: Bool = false, format: CueFormat = .jsonl,
    lateToCues: Bool = false, withLate: Bool = true, withRejects: Bool = false, room: Int = .max,
    name: String = "trace.jsonl", countsCues: Bool = true
  ) -> Run {
    let cues = NotingSink()
    cues.room = room
    let diagnostics = MemorySink()
    let late = MemorySink()
    let rejects = MemorySink()
    var replay = TraceReplay(configuration: .default) { Pipeline(configuration: .default) }
    replay.maximumThreads = threads
    replay.strict = strict
    replay.format = format
    replay.countsCues = countsCues
    let source = NotingSource(bytes, name: name)
    var summary = ReplaySummary(sources: [])
    var failure: String?
    do {
      (summary, _) = try replay.run(
        [source],
        to: .init(
          cues: cues, diagnostics: diagnostics, rejects: withRejects ? rejects : nil,
          late: lateToCues ? cues : withLate ? late : nil))
    } catch {
      failure = "\(error)"
    }
    return Run(
      summary: summary, cues: cues.inner.text, diagnostics: diagnostics.text, late: late.text,
      rejects: rejects.text,
      failure: failure,
      readElsewhere: source.thread.usedElsewhere, writtenElsewhere: cues.thread.usedElsewhere,
      readAndWrittenTogether: source.thread.elsewhere.flatMap { reading in
        cues.thread.elsewhere.map { pthread_equal(reading, $0) != 0 }
      } ?? false)
  }

  @Test(
    "reading and writing on their own threads gives the same cues, diagnostics, late lines and summary",
    arguments: [(false, CueFormat.jsonl), (true, .jsonl), (false, .text)])
  func sameOutput(strict: Bool, format: CueFormat) {
    let expected = Self.replay(Self.trace, threads: 1, strict: strict, format: format)
    let observed = Self.replay(Self.trace, threads: 2, strict: strict, format: format)
    #expect(!expected.readElsewhere && !expected.writtenElsewhere)
    // Parsing JSON keeps the second core busy: the cues are written here.
    #expect(observed.readElsewhere && !observed.writtenElsewhere)
    // More cues than a batch of the writing thread (1,024), unless strict stopped early.
    #expect(strict || expected.summary.cues.values.reduce(0) { $0 + $1.count } > 1024)
    #expect(expected.diagnostics.contains("error"))
    #expect(strict || expected.late.contains(#""label":"late""#))
    #expect(observed == expected)
  }

  @Test(
    "with a rejects output the JSON is read here and the cues written on a second thread, to the same bytes")
  func rejectsOutput() {
    let expected = Self.replay(Self.trace, threads: 1, withRejects: true)
    let observed = Self.replay(Self.trace, threads: 2, withRejects: true)
    #expect(!observed.readElsewhere && observed.writtenElsewhere)
    #expect(expected.rejects.contains("not json at all"))
    #expect(observed == expected)
  }

  @Test(
    "without a late output, lines are not kept for one, and late lines are counted and reported the same",
    arguments: ["trace.jsonl", "trace.crtrace"])
  func withoutLateOutput(name: String) {
    let trace = name.hasSuffix(".crtrace") ? Self.binaryTrace : Self.trace
    let expected = Self.replay(trace, threads: 1, withLate: false, name: name)
    let observed = Self.replay(trace, threads: 2, withLate: false, name: name)
    #expect(observed.readElsewhere)
    #expect(expected.summary.total.late > 0)
    #expect(expected.diagnostics.contains("late line(s) not processed"))
    #expect(observed == expected)
  }

  @Test(
    "a replay that counts no cues writes the same bytes and counts the same lines, on every sink",
    arguments: [
      (1, CueFormat.jsonl, false, "trace.jsonl"), (2, .jsonl, true, "trace.jsonl"),
      (1, .chrome, false, "trace.jsonl"),
      (2, .jsonl, false, "trace.crtrace"),
    ])
  func countingNoCues(threads: Int, format: CueFormat, withRejects: Bool, name: String) {
    let trace = name.hasSuffix(".crtrace") ? Self.binaryTrace : Self.trace
    let counted = Self.replay(trace, threads: threads, format: format, withRejects: withRejects, name: name)
    let uncounted = Self.replay(
      trace, threads: threads, format: format, withRejects: withRejects, name: name, countsCues: false)
    #expect(counted.summary.cues.values.reduce(0) { $0 + $1.count } > 1024)
    #expect(uncounted.summary.cues.isEmpty)
    #expect(uncounted.summary.total == counted.summary.total)
    #expect(uncounted.cues == counted.cues)
    #expect(uncounted.diagnostics == counted.diagnostics)
    #expect(uncounted.late == counted.late)
    #expect(uncounted.writtenElsewhere == counted.writtenElsewhere)
  }

  @Test("late lines going where the cues go keep their place among them: the cues stay on this thread")
  func sharedOutput() {
    let expected = Self.replay(Self.trace, threads: 1, lateToCues: true)
    let observed = Self.replay(Self.trace, threads: 2, lateToCues: true)
    #expect(!observed.writtenElsewhere)
    #expect(observed.cues.contains(#""label":"late""#))
    #expect(observed == expected)
  }

  @Test(
    "binary input is read, and its cues written, by one other thread, to the same bytes",
    arguments: [2, 3])
  func binaryInput(threads: Int) {
    let expected = Self.replay(Self.binaryTrace, threads: 1, name: "trace.crtrace")
    let observed = Self.replay(Self.binaryTrace, threads: threads, name: "trace.crtrace")
    #expect(expected.summary.total.processed > 3 * ReadAheadReader.batchSize / 2)
    #expect(observed.readElsewhere && observed.writtenElsewhere && observed.readAndWrittenTogether)
    #expect(observed == expected)
  }

  @Test("a burst of cues longer than a batch, drained at once, is written whole and in order")
  func burstOfCues() throws {
    // Marks at one time are released together, when a later event moves the watermark on.
    var text = #"{"t":0,"kind":"mark","label":"first"}"# + "\n"
    for index in 0..<(2 * 1024 + 500) { text += #"{"t":10,"kind":"mark","label":"burst \#(index)"}"# + "\n" }
    text += #"{"t":1000000000,"kind":"mark","label":"last"}"# + "\n"
    let converted = MemorySink()
    _ = try TraceConverter.convert(
      MemorySource(Array(text.utf8)), to: converted, binary: BinaryTraceFormat.version,
      diagnostics: MemorySink())
    let expected = Self.replay(converted.bytes, threads: 1, name: "burst.crtrace")
    let observed = Self.replay(converted.bytes, threads: 2, name: "burst.crtrace")
    #expect(observed.writtenElsewhere)
    let bursts = observed.cues.split(separator: "\n").filter { $0.contains("burst ") }
    #expect(bursts.count == 2 * 1024 + 500)
    #expect(zip(bursts, bursts.indices).allSatisfy { $0.contains(#""burst \#($1)""#) })
    #expect(observed == expected)
  }

  @Test("replayed twice (--loop), each pass is read ahead and the cues written here, to the same bytes")
  func loops() throws {
    func run(threads: Int) throws -> (cues: String, summary: ReplaySummary, sources: [NotingSource]) {
      let cues = NotingSink()
      var sources = [NotingSource(Self.binaryTrace, name: "trace.crtrace")]
      var replay = TraceReplay(configuration: .default) { Pipeline(configuration: .default) }
      replay.maximumThreads = threads
      replay.loops = 2
      let (summary, _) = try replay.run(
        sources,
        reopen: { _ in
          sources.append(NotingSource(Self.binaryTrace, name: "trace.crtrace"))
          return sources.last!
        }, to: .init(cues: cues, diagnostics: MemorySink()))
      #expect(!cues.thread.usedElsewhere)
      return (cues.inner.text, summary, sources)
    }
    let expected = try run(threads: 1)
    let observed = try run(threads: 2)
    #expect(observed.sources.count == 2 && observed.sources.allSatisfy(\.thread.usedElsewhere))
    #expect(observed.summary == expected.summary)
    #expect(observed.cues == expected.cues)
  }

  @Test("a cue output that fails stops the replay with its error, on the writing thread as on this one")
  func failingOutput() {
    let expected = Self.replay(Self.trace, threads: 1, withRejects: true, room: 50_000)
    let observed = Self.replay(Self.trace, threads: 2, withRejects: true, room: 50_000)
    #expect(observed.writtenElsewhere)
    #expect(expected.failure == "no space left")
    #expect(observed.failure == expected.failure)
  }
}
