import Crease
import CreaseIO
import CreaseImport
import CreaseRecording
import CreaseReports
import CreaseScenarioFiles
import CreaseSynth

/// The invariants every fuzz target checks: not only "no crash", but every line accounted for
/// once, the rejects and late outputs holding exactly the counted lines, and conversions and
/// replays agreeing across formats. A broken invariant traps, which libFuzzer reports.
enum FuzzChecks {
  /// A replay of `bytes` in the given format, with its outputs.
  struct Replay {
    var summary: ReplaySummary
    var cues: [UInt8]
    var rejects: [UInt8]
    var late: [UInt8]
  }

  /// - Parameters:
  ///   - threads: whether the replay uses worker threads (taken only without a rejects output).
  ///   - keepsRejects: whether it has a rejects output.
  static func replay(
    _ bytes: [UInt8], name: String, configuration: Configuration = .default, threads: Bool = false,
    keepsRejects: Bool = true
  ) -> Replay {
    let (cues, rejects, late) = (MemorySink(), MemorySink(), MemorySink())
    var replay = TraceReplay(configuration: configuration) { Pipeline(configuration: configuration) }
    replay.maximumThreads = threads ? 2 : 1
    do {
      let (summary, _) = try replay.run(
        [MemorySource(bytes, name: name, chunkSize: 4096)],
        to: .init(
          cues: cues, diagnostics: DiscardingSink(), rejects: keepsRejects ? rejects : nil, late: late))
      return Replay(summary: summary, cues: cues.bytes, rejects: rejects.bytes, late: late.bytes)
    } catch {
      fatalError("a replay from memory cannot fail to read or write: \(error)")
    }
  }

  static func convert(_ bytes: [UInt8], name: String, toBinary: Bool) -> (bytes: [UInt8], rejected: Int) {
    let sink = MemorySink()
    do {
      let result = try TraceConverter.convert(
        MemorySource(bytes, name: name), to: sink, binary: toBinary ? BinaryTraceFormat.version : nil,
        diagnostics: DiscardingSink())
      return (sink.bytes, result.rejected)
    } catch {
      fatalError("a conversion in memory cannot fail to read or write: \(error)")
    }
  }

  static func lineCount(_ bytes: [UInt8]) -> Int { bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }

  /// A replay over worker threads writes what a replay on one thread writes.
  static func checkThreads(_ bytes: [UInt8], name: String) {
    let alone = replay(bytes, name: name, keepsRejects: false)
    let threaded = replay(bytes, name: name, threads: true, keepsRejects: false)
    precondition(threaded.summary == alone.summary, "threads change no count")
    precondition(threaded.cues == alone.cues && threaded.late == alone.late, "threads change no byte")
  }

  /// Every line counted once; rejects and late files hold one line per counted line.
  static func checkAccounting(_ replay: Replay, rejectsAreLines: Bool) {
    let total = replay.summary.total
    precondition(total.isBalanced, "every line is counted once: \(total)")
    if rejectsAreLines {
      precondition(lineCount(replay.rejects) == total.rejected, "the rejects file holds the rejected lines")
    }
    precondition(lineCount(replay.late) == total.late, "the late file holds the late lines")
  }

  static func jsonLines(_ bytes: [UInt8]) {
    let jsonl = replay(bytes, name: "fuzz.jsonl")
    // Overlong lines stream through the rejects file, so their bytes may hold newlines of their own.
    checkAccounting(jsonl, rejectsAreLines: !bytes.split(separator: 0x0A).contains { $0.count > 1 << 20 })
    // JSON Lines → binary → JSON Lines → binary is stable, and both replay to the same cues.
    let binary = convert(bytes, name: "fuzz.jsonl", toBinary: true).bytes
    let back = convert(binary, name: "fuzz.crtrace", toBinary: false)
    precondition(back.rejected == 0, "a binary conversion reads back whole")
    let again = convert(back.bytes, name: "fuzz.jsonl", toBinary: true)
    precondition(again.rejected == 0 && again.bytes == binary, "binary → JSON Lines → binary is stable")
    let fromBinary = replay(binary, name: "fuzz.crtrace")
    let fromText = replay(back.bytes, name: "fuzz.jsonl")
    precondition(fromBinary.cues == fromText.cues, "JSON Lines and binary replay to the same cues")
    checkThreads(bytes, name: "fuzz.jsonl")
    // An app's reader: any input without a trap, and every line Crease writes read back whole.
    _ = try? TraceDecoder.records(in: bytes)
    guard let decoded = try? TraceDecoder.records(in: back.bytes) else {
      preconditionFailure("TraceDecoder reads every line Crease writes")
    }
    var encoded: [UInt8] = []
    for record in decoded { TraceEncoder.encode(record, into: &encoded) }
    precondition(encoded == back.bytes, "TraceDecoder's records write the same lines again")
  }

  static func binary(_ bytes: [UInt8]) {
    let run = replay(bytes, name: "fuzz.crtrace")
    checkAccounting(run, rejectsAreLines: false)
    let text = convert(bytes, name: "fuzz.crtrace", toBinary: false)
    let binary = convert(text.bytes, name: "fuzz.jsonl", toBinary: true)
    precondition(binary.rejected == 0, "what a binary trace converts to reads back whole")
    let back = convert(binary.bytes, name: "fuzz.crtrace", toBinary: false)
    precondition(back.bytes == text.bytes, "binary → JSON Lines → binary → JSON Lines is stable")
    checkThreads(bytes, name: "fuzz.crtrace")
  }

  /// A small trace of every kind, replayed under each configuration the fuzzer finds valid.
  static let everyKind: [UInt8] = Array(
    """
    {"kind":"header","format":"crease-trace","version":1,"streams":{"video":{"fps":30}}}
    {"t":0,"kind":"app","state":"foreground"}
    {"t":0,"kind":"session","running":true,"previewVisible":true}
    {"t":0,"kind":"direction","toward":["outerFront"],"away":["innerFront"]}
    {"t":0,"kind":"input","stream":"video","camera":"virtualFront"}
    {"t":0,"kind":"hinge","angle":1,"status":"closed"}
    {"t":33333333,"kind":"frame","pts":33333333,"camera":"outerFront"}
    {"t":100000000,"kind":"hinge","angle":90,"status":"partiallyOpen"}
    {"t":120000000,"kind":"display","display":"inner","fullScreen":true}
    {"t":150000000,"kind":"drop","pts":66666666,"reason":"frameWasLate"}
    {"t":400000000,"kind":"frame","pts":400000000,"camera":"innerFront"}
    {"t":600000000,"kind":"hinge","angle":179,"status":"fullyOpen"}
    {"t":2000000000,"kind":"end"}

    """.utf8)

  /// Whatever line the fast JSON path takes, json-c (the reference) takes with the same values:
  /// for `crease check`'s parser, which leaves unknown keys to json-c, with the same unknown
  /// keys listed; for a replay's, which skips their members, as json-c's path ignores them.
  /// Each goes through `TraceParser`, the reference without its fast path.
  static func fastPath(_ bytes: [UInt8]) {
    readerAgreesWithLinesAlone(bytes)
    let checking = TraceParser()
    checking.collectsUnknownKeys = true
    let replaying = TraceParser()
    let reference = TraceParser(usesFastPath: false)
    reference.collectsUnknownKeys = true
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      line.withUnsafeBytes { buffer in
        let text = String(decoding: buffer, as: UTF8.self)
        for parser in [checking, replaying] {
          guard let taken = try? parser.parse(buffer) else { continue }
          guard let expected = try? reference.parse(buffer) else {
            fatalError("json-c refuses a line the parser took: \(text)")
          }
          precondition(
            String(describing: taken) == String(describing: expected),
            "values differ on \(text): \(taken) against \(expected)")
        }
        guard (try? checking.parse(buffer)) != nil, (try? reference.parse(buffer)) != nil else { return }
        precondition(
          checking.unknownKeys == reference.unknownKeys,
          "unknown keys differ on \(text): \(checking.unknownKeys) against \(reference.unknownKeys)")
      }
    }
  }

  /// The JSON Lines reader parses a line spelled as TraceEncoder writes it where it lies in its
  /// buffer, before it knows where the line ends: each item is what its line gives parsed alone.
  static func readerAgreesWithLinesAlone(_ bytes: [UInt8]) {
    let reader = JSONLinesReader(source: MemorySource(bytes, chunkSize: Swift.max(1, bytes.count / 3)))
    let alone = TraceParser()
    while let item = try? reader.next() {
      let observed: String
      switch item {
      case .endOfInput: return
      case .blank: continue
      case .record(let record): observed = "record \(record)"
      case .bad(let column, let message): observed = "bad \(column) \(message)"
      }
      guard let line = reader.unsafeLine else { continue }  // an overlong line, not kept
      let expected: String
      do {
        expected = "record \(try alone.parse(line))"
      } catch {
        expected = "bad \(error.column) \(error.message)"
      }
      let text = String(decoding: line, as: UTF8.self)
      precondition(
        observed == expected, "the reader and the line alone differ on \(text): \(observed), \(expected)")
    }
  }

  static func configuration(_ bytes: [UInt8]) {
    guard let configuration = try? ConfigurationFile.parse(bytes, path: "fuzz.json") else { return }
    let run = replay(everyKind, name: "fuzz.jsonl", configuration: configuration)
    checkAccounting(run, rejectsAreLines: true)
    _ = run.summary.rendered(for: configuration)
    for bound in configuration.latencyBounds { _ = bound.bound() }
  }

  /// A scenario file: read without trapping, and when it reads, written back it reads as the
  /// same scenario, and its first two seconds generate a trace in time order that ends there.
  static func scenario(_ bytes: [UInt8]) {
    guard let scenario = try? ScenarioFile.parse(bytes, path: "fuzz.json") else { return }
    let again = try? ScenarioFile.parse(ScenarioFile.json(scenario).bytes, path: "again.json")
    precondition(again == scenario, "a scenario does not read back as itself")
    let trace = scenario.generate(SynthOptions(seed: 1, duration: min(scenario.length, 2)))
    precondition(
      zip(trace.events, trace.events.dropFirst()).allSatisfy { $0.t <= $1.t }, "events out of order")
    precondition(trace.events.last?.payload == .end, "a generated trace without its end")
  }

  /// A summary or report file: read without trapping, and when it reads, its report merges with
  /// itself exactly (counts double, rows repeat) and renders both ways.
  static func report(_ bytes: [UInt8]) {
    guard let report = try? FleetReport.parse(bytes, path: "fuzz.json") else { return }
    // A report merged with itself has one provenance: merging cannot refuse it.
    let twice = try! FleetReport.merging([report, report])
    precondition(twice.traces.count == 2 * report.traces.count, "merging lost rows")
    for (name, kind) in report.kinds {
      let (doubled, overflow) = kind.latencies.count.addingReportingOverflow(kind.latencies.count)
      precondition(
        twice.kinds[name]!.latencies.count == (overflow ? .max : doubled), "merging miscounted \(name)")
    }
    // Counts from a file are input: percentiles over saturated counts rise with the percent and
    // stay within the largest latency, never trap.
    for kind in twice.kinds.values {
      let percentiles = (0...100).map { kind.latencies.percentile($0) }
      precondition(zip(percentiles, percentiles.dropFirst()).allSatisfy { $0 <= $1 }, "percentiles fall")
      precondition(percentiles.last! <= kind.latencies.maximum, "a percentile past the largest latency")
    }
    _ = twice.text
    let again = try? FleetReport.parse(report.json.bytes, path: "again.json")
    precondition(again == report, "a report does not read back as itself")
  }

  /// Recorder calls spelled by `bytes`, values from every corner of their types: whatever the
  /// recorder takes, it writes as lines `crease` reads back whole, as the events given.
  static func recorder(_ bytes: [UInt8]) {
    var input = bytes[...]
    func take() -> UInt8 { input.popFirst() ?? 0 }
    func takeWord() -> UInt64 { (0..<8).reduce(0) { word, _ in word << 8 | UInt64(take()) } }
    let names: [String] = ["video", "", "v\u{0}x", "\u{1}\u{7f}\"\\", "üñ"]
    func name() -> String { names[Int(take()) % names.count] }
    var header = TraceHeader()
    if take() & 1 == 1 {
      header.nominalFrameRates[StreamName(rawValue: name())] = Double(bitPattern: takeWord())
    }
    guard var recorder = try? TraceRecorder(sink: MemorySink(), header: header) else { return }
    var events: [Event] = []
    while !input.isEmpty {
      let t = Nanoseconds(Int64(bitPattern: takeWord()))
      let payload: Event.Payload
      switch take() % 8 {
      case 0:
        let value = Double(bitPattern: takeWord())
        let angle: HingeAngle = take() & 1 == 0 ? .degrees(value) : .radians(value)
        payload = .hinge(HingeDelivery(angle: angle, status: HingeStatus.allCases[Int(take()) % 4]))
      case 1:
        let pts = PresentationTime(nanoseconds: Int64(bitPattern: takeWord()))
        payload = .frame(
          Frame(stream: StreamName(rawValue: name()), pts: pts, camera: Camera(rawValue: take() % 8)))
      case 2:
        let pts = PresentationTime(nanoseconds: Int64(bitPattern: takeWord()))
        payload = .drop(Drop(stream: StreamName(rawValue: name()), pts: pts, reason: .discontinuity))
      case 3:
        payload = .input(
          stream: StreamName(rawValue: name()), camera: Camera(rawValue: take() % 6) ?? .backWide)
      case 4:
        let toward = take()
        payload = .direction(
          DirectionUpdate(
            view: ViewName(rawValue: name()), toward: CameraSet(rawValue: toward & 63),
            away: CameraSet(rawValue: take() & 63), innerFrontListedFirst: toward & 0x80 != 0))
      case 5: payload = .mark(label: name() + name())
      case 6: payload = .session(SessionState(running: take() & 1 == 1, previewVisible: nil))
      default: payload = .hinge(nil)
      }
      let event = Event(t: t, payload)
      if (try? recorder.send(event)) != nil { events.append(event) }
    }
    guard (try? recorder.finish()) != nil else { return }
    let parser = TraceParser()
    let lines = recorder.sink.bytes.split(separator: 0x0A)
    precondition(lines.count == events.count + 2, "a line for the header, each event and the end")
    for (index, line) in lines.enumerated() {
      let record: TraceRecord
      do {
        record = try Array(line).withUnsafeBytes { bytes throws(TraceLineError) in try parser.parse(bytes) }
      } catch {
        fatalError(
          "crease refuses a line the recorder wrote: \(String(decoding: line, as: UTF8.self)): \(error)")
      }
      if index > 0 && index <= events.count {
        precondition(
          String(describing: record) == String(describing: TraceRecord.event(events[index - 1])),
          "the line reads back as another event: \(String(decoding: line, as: UTF8.self))")
      }
    }
  }

  /// A movie, as `crease import` reads it: read without trapping or unbounded memory, and when it
  /// reads, each track's times ascend and its frames become events whose `t` never goes back.
  static func movie(_ bytes: [UInt8]) {
    let read = { (bytes: [UInt8], every: Bool) in
      try? MovieTiming.read(MemorySource(bytes, name: "fuzz.mp4"), keepingEverySample: every)
    }
    guard let movie = read(bytes, false) else { return }
    // The same file read again, keeping what edits leave out: it may be refused where the shown
    // samples were not (a sample left out can lie past 2⁶³ ns), but it never holds fewer.
    let every = read(bytes, true)
    for (track, all) in zip(movie.tracks, every?.tracks ?? movie.tracks) {
      precondition(track.timescale > 0, "a track without a timescale")
      precondition(zip(track.presentationTimes, track.presentationTimes.dropFirst()).allSatisfy { $0 <= $1 })
      var rest = Array(all.presentationTimes)[...]
      for time in track.presentationTimes {
        // Both ascending: each shown time is found in what is left of every sample's times.
        guard let found = rest.firstIndex(of: time) else {
          preconditionFailure("a shown sample not in the movie")
        }
        rest = rest[(found + 1)...]
      }
    }
    let events = Array(RecordingImport.events(of: movie, stream: .video, camera: nil))
    // A frame a sample, and a `streamEnd` for each track that ends while another goes on.
    let frames = events.count { if case .frame = $0.payload { true } else { false } }
    precondition(frames == movie.tracks.reduce(0) { $0 + $1.presentationTimes.count }, "a frame lost")
    let ends = events.count { if case .streamEnd = $0.payload { true } else { false } }
    precondition(
      frames + ends == events.count && ends < max(1, movie.tracks.count { !$0.presentationTimes.isEmpty }),
      "more stream ends than tracks that end before the last")
    precondition(zip(events, events.dropFirst()).allSatisfy { $0.t <= $1.t }, "t goes back")
    // Cut short, as a crashed phone leaves it: a throw or the samples it holds, no more.
    if let every, let cut = read(Array(bytes.prefix(bytes.count / 2 + 1)), true), cut.truncation != nil {
      for (part, whole) in zip(cut.tracks, every.tracks) {
        precondition(
          part.presentationTimes.count <= whole.presentationTimes.count, "a cut file gained samples")
      }
    }
  }
}
