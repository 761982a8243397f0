import Crease
import CreaseIO
import CreaseLocking
import CreaseReports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--stats`: every so many seconds of wall time, what a long run has sent, and, when the
/// output has stopped taking bytes (a socket whose reader does not read), for how long.
///
/// The run reports from its own thread as it sends. A run blocked in a write cannot, so a
/// watchdog thread looks at the output every interval and reports a write that has lasted
/// longer than one: the run is stuck on its reader, not dead.
// Safe to share with the watchdog (hence unchecked): the error sink is written only under
// `errors`' lock, the counters are atomics, and everything else is set once in `init`.
final class SynthStats: @unchecked Sendable {
  let interval: Nanoseconds
  /// The output as the run writes to it: each write timed for the watchdog.
  let watchedOutput: ByteSink
  private let errors: Locked<ByteSink>
  private let clock = SystemClock()
  private let start: Nanoseconds
  private var next: Nanoseconds
  private let sent = AtomicCell(0)
  private let writes: WriteTimes
  /// 1 once the run has stopped.
  private let stopped = AtomicCell(0)
  private var watchdog: pthread_t?

  /// Starts the watchdog over `output`; lines go to `errors`.
  /// - Throws: ``IOError`` when no thread can be started for the watchdog.
  init(interval: Nanoseconds, output: ByteSink, to errors: ByteSink) throws {
    self.interval = interval
    self.errors = Locked(errors)
    start = clock.now()
    next = start + interval
    writes = WriteTimes()
    watchedOutput = TimedSink(base: output, writes: writes)
    watchdog = try WorkerThread.start(named: "stats") { [self] in watch() }
  }

  /// Reports when the interval has passed: events sent, their rate, and pacing lateness.
  func sent(_ events: Int, pacer: Pacer?) throws {
    sent.relaxedStore(events)
    // The clock is read every 1,024 events unless paced: an unpaced run sends millions a second.
    guard pacer != nil || events % 1024 == 0 else { return }
    let now = clock.now()
    guard now >= next else { return }
    next = now + interval
    let seconds = Double((now - start).rawValue) / 1e9
    var line =
      "crease synth: \(events) events in \(String(fixed: seconds, decimals: 1)) s, "
      + "\(String(fixed: Double(events) / seconds, decimals: 1))/s"
    if let accuracy = pacer?.accuracy {
      line +=
        ", late p50 \(String(fixed: Double(accuracy.p50.rawValue) / 1e6, decimals: 3)) ms"
        + ", p99 \(String(fixed: Double(accuracy.p99.rawValue) / 1e6, decimals: 3)) ms"
    }
    try errors.withLock { try $0.write(line + "\n") }
  }

  /// Ends the watchdog, once the run has ended.
  func stop() {
    stopped.relaxedStore(1)
    if let watchdog { pthread_join(watchdog, nil) }
    watchdog = nil
  }

  /// The watchdog: every interval, a write in progress for longer than one is reported.
  private func watch() {
    // Woken every 50 ms at most, to stop soon after the run ends.
    let step = min(interval.rawValue, 50_000_000)
    var waited: Int64 = 0
    while stopped.relaxedLoad() == 0 {
      var pause = timespec(tv_sec: Int(step / 1_000_000_000), tv_nsec: Int(step % 1_000_000_000))
      nanosleep(&pause, nil)
      waited += step
      guard waited >= interval.rawValue else { continue }
      waited = 0
      let since = Int64(writes.since.relaxedLoad())
      let now = SystemClock().now().rawValue
      guard since != 0, now - since >= interval.rawValue else { continue }
      let line =
        "crease synth: \(sent.relaxedLoad()) events in "
        + "\(String(fixed: Double(now - start.rawValue) / 1e9, decimals: 1)) s; the output has taken nothing for "
        + "\(String(fixed: Double(now - since) / 1e9, decimals: 1)) s (its reader is not reading)\n"
      try? errors.withLock { try $0.write(line) }
    }
  }
}

/// When the write in progress started, in wall nanoseconds; 0 while none is.
private final class WriteTimes: Sendable {
  let since = AtomicCell(0)
}

/// A sink that notes when each write starts and ends, for ``SynthStats``'s watchdog.
private final class TimedSink: ByteSink {
  let base: ByteSink
  let writes: WriteTimes

  init(base: ByteSink, writes: WriteTimes) {
    self.base = base
    self.writes = writes
  }

  var fileIdentity: FileIdentity? { base.fileIdentity }

  func write(_ bytes: UnsafeRawBufferPointer) throws { try timed { try base.write(bytes) } }

  func flush() throws { try timed { try base.flush() } }

  /// Runs `step` with its start noted for the watchdog.
  private func timed(_ step: () throws -> Void) rethrows {
    writes.since.relaxedStore(Int(SystemClock().now().rawValue))
    defer { writes.since.relaxedStore(0) }
    try step()
  }
}
