import Crease
import CreaseRecording
import CreaseSynth

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The library API measured in-process: per-event latency and heap allocations per event.
enum InProcess {
  /// A realistic mix of events (a minute of the `day` scenario without its `end`), generated
  /// once so the measured run creates no events of its own.
  static let base: [Event] = Scenario.day.generate(SynthOptions(seed: 11, duration: 60)).events.filter {
    $0.payload != .end
  }

  /// Calls `body` with `count` events: the base mix over and over, time shifted each round.
  static func events(_ count: Int, _ body: (Int, Event) -> Void) {
    let span = (base.last!.t - base.first!.t) + Nanoseconds(33_333_333)
    var offset = Nanoseconds.zero
    var index = 0
    for fed in 0..<count {
      var event = base[index]
      event.t = event.t + offset
      if case .frame(var frame) = event.payload {
        frame.pts = PresentationTime(nanoseconds: (frame.pts.nanoseconds + offset).rawValue)
        event.payload = .frame(frame)
      }
      body(fed, event)
      index += 1
      if index == base.count {
        index = 0
        offset = offset + span
      }
    }
  }

  /// Feeds `count` events through a session, calling `measure` around each event.
  static func feed(_ count: Int, measure: (Int, () -> Void) -> Void = { $1() }) {
    var session = try! CreaseSession()
    var cues: [Cue] = []
    cues.reserveCapacity(64)
    events(count) { fed, event in
      measure(fed) {
        try! session.send(event)  // the events are in order by construction
        session.drainCues { cues.append($0) }
      }
      cues.removeAll(keepingCapacity: true)
    }
  }

  /// Records `count` events as trace lines into a sink that only counts their bytes.
  static func record(_ count: Int) {
    var recorder = try! TraceRecorder(sink: CountingSink())
    events(count) { _, event in try! recorder.send(event) }
    try! recorder.finish()
  }

  /// The cores this machine has.
  static var processorCount: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }

  /// A sink that keeps nothing but a byte count.
  struct CountingSink: TraceSink {
    var bytes = 0
    mutating func write(_ line: UnsafeRawBufferPointer) { bytes += line.count }
  }

  /// Per-event latency percentiles in ns: p50, p99, p99.9, max.
  static func latencies(events count: Int) -> [Int64] {
    var samples = [Int64](repeating: 0, count: count)
    feed(count) { fed, body in
      let start = Measure.nanoseconds()
      body()
      samples[fed] = Measure.nanoseconds() - start
    }
    samples.sort()
    return [0.5, 0.99, 0.999].map { samples[min(count - 1, Int(Double(count) * $0))] } + [samples[count - 1]]
  }

  /// Heap allocations per event in steady state: `command(count)` run twice under valgrind,
  /// with 20,000 and 60,000 events; the difference divided by the extra events. `nil` without
  /// valgrind.
  static func allocationsPerEvent(_ command: (Int) -> String) throws -> Double? {
    guard Spawn.commandExists("valgrind") else { return nil }
    func allocations(_ count: Int) throws -> Int? {
      let log = "Benchmarks/.data/valgrind-\(count).log"
      try Spawn.run("valgrind --log-file=\(log) \(command(count)) > /dev/null 2>&1")
      // "==123== total heap usage: 1,234 allocs, 1,230 frees, 56,789 bytes allocated"
      return ToolLog.number(after: "usage:", in: log)
    }
    guard let small = try allocations(20_000), let large = try allocations(60_000) else { return nil }
    return Double(large - small) / 40_000
  }
}
