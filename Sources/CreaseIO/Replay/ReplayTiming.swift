import Crease

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How long a replay took on this machine (`--timing`): wall and CPU time, events a second,
/// and the process's peak memory. The one part of a summary that differs between runs, so it
/// is there only when asked for.
public struct ReplayTiming: Hashable, Sendable {
  /// Wall-clock time from the start of the replay to its end.
  public var wall: Nanoseconds
  /// CPU time of the whole process (every thread) over the same span.
  public var cpu: Nanoseconds
  /// Events processed.
  public var events: Int
  /// The process's peak resident memory, in bytes.
  public var peakMemoryBytes: Int

  /// Events processed per second of wall time (0 when no time passed).
  public var eventsPerSecond: Double {
    wall > .zero ? Double(events) / (Double(wall.rawValue) / 1e9) : 0
  }

  /// A measurement started now.
  public struct Start: Sendable {
    let wall = SystemClock().now()
    let cpu = ReplayTiming.processCPUTime()

    /// Starts measuring.
    public init() {}

    /// The time from the start to now, with `events` processed.
    public func finish(events: Int) -> ReplayTiming {
      ReplayTiming(
        wall: SystemClock().now() - wall, cpu: ReplayTiming.processCPUTime() - cpu, events: events,
        peakMemoryBytes: ReplayTiming.peakMemoryBytes())
    }
  }

  /// The summary's `timing` member.
  var json: JSONDocument {
    .object([
      .init("wallNs", .integer(wall.rawValue)), .init("cpuNs", .integer(cpu.rawValue)),
      .init("events", .count(events)), .init("eventsPerSecond", .decimal(eventsPerSecond)),
      .init("peakMemoryBytes", .count(peakMemoryBytes)),
    ])
  }

  /// The line `--summary` prints.
  var text: String {
    "  timing: \(Self.milliseconds(wall)) ms wall, \(Self.milliseconds(cpu)) ms CPU, "
      + "\(Int(eventsPerSecond.rounded())) events/s, peak memory \(peakMemoryBytes >> 20) MiB\n"
  }

  private static func milliseconds(_ duration: Nanoseconds) -> String {
    String(duration.rawValue / 1_000_000)
  }

  private static func processCPUTime() -> Nanoseconds {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Nanoseconds(Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
  }

  private static func peakMemoryBytes() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
      getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
      return Int(usage.ru_maxrss) * 1024  // kibibytes on Linux
    #else
      getrusage(RUSAGE_SELF, &usage)
      return Int(usage.ru_maxrss)  // bytes on Darwin
    #endif
  }
}
