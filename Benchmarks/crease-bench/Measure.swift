#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Timing for the benchmark, on the wall clock and in processor time (never used by tests).
enum Measure {
  /// The monotonic clock in whole nanoseconds.
  static func nanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
  }

  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  /// The processor time this process and its waited-for children have used, in seconds: user
  /// and system time of every thread, so a replay reading ahead on a second thread counts both.
  static func processorSeconds() -> Double {
    func seconds(_ who: Int32) -> Double {
      var usage = rusage()
      getrusage(who, &usage)
      return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    return seconds(RUSAGE_SELF.rawValue) + seconds(RUSAGE_CHILDREN.rawValue)
  }

  /// A run's times: on the wall clock, and in processor time (SPEC 9 compares the orjson loop
  /// in processor time, which a second thread does not lower).
  struct Times {
    var wall: Double
    var processor: Double
  }

  /// Each of `bodies`' times in each of `count` rounds: each round runs every body in order,
  /// once untimed and then timed. Interleaved, a stretch of load from another process spoils a
  /// round of every row rather than every run of one row (a best of five in a row was seen at
  /// half its usual speed); the untimed run first lets the row find the machine as a run in a
  /// row would (timed straight after another program, the two-thread replays measured about
  /// 10% slower).
  static func rounds(of count: Int, _ bodies: [() throws -> Void]) throws -> Rounds {
    var times = [[Times]](repeating: [], count: bodies.count)
    for _ in 0..<count {
      for (index, body) in bodies.enumerated() {
        try body()
        let (start, startProcessor) = (now(), processorSeconds())
        try body()
        times[index].append(Times(wall: now() - start, processor: processorSeconds() - startProcessor))
      }
    }
    return Rounds(times: times)
  }

  /// The times of bodies run in rounds, by body and then by round.
  struct Rounds {
    var times: [[Times]]

    /// Each body's fastest run, the wall and processor minimums taken apart.
    var best: [Times] {
      times.map { runs in Times(wall: runs.map(\.wall).min()!, processor: runs.map(\.processor).min()!) }
    }

    /// How many times faster `body` ran than `reference` in each round, sorted.
    ///
    /// A ratio of two bests sets a lucky moment of one against a lucky moment of the other, and
    /// on a shared machine luck is uneven: the same one-job `batch` took 0.31 to 0.54 s of user
    /// time from run to run, and the orjson loop 0.70 to 1.33 s while a crease replay stayed
    /// within 0.25 to 0.30. The best of a run that needs two cores, or of a steady one, then
    /// meets the other's rare fast run (`batch -j 2` 1.23× `-j 1` best against best, where the
    /// rounds' median was 1.94×). A round's runs meet nearly the same machine.
    func speeds(of body: Int, against reference: Int, _ time: KeyPath<Times, Double>) -> [Double] {
      zip(times[body], times[reference]).map { $1[keyPath: time] / $0[keyPath: time] }.sorted()
    }

    /// The median of ``speeds(of:against:_:)``.
    func medianSpeed(of body: Int, against reference: Int, _ time: KeyPath<Times, Double>) -> Double {
      Self.median(speeds(of: body, against: reference, time))
    }

    /// The middle of `sorted`, which is not empty.
    static func median(_ sorted: [Double]) -> Double { sorted[sorted.count / 2] }
  }
}

/// Child processes for the peers and for memory measurements.
enum Spawn {
  struct Failure: Error { var command: String; var status: Int32 }

  /// Runs `command` with `/bin/sh -c` and returns its resource usage.
  @discardableResult
  static func run(_ command: String) throws -> rusage {
    var pid: pid_t = 0
    let words: [String] = ["/bin/sh", "-c", command]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else {
      throw Failure(command: command, status: -1)
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    guard status == 0 else { throw Failure(command: command, status: status) }
    return usage
  }

  static func commandExists(_ name: String) -> Bool {
    (try? run("command -v \(name) > /dev/null")) != nil
  }

  /// Peak resident memory of `command`'s largest process, in KiB.
  ///
  /// A process starts with the peak of the one it was spawned from (`exec` folds the old
  /// address space's peak into the new program's), so a command spawned from the benchmark,
  /// grown by then, reported the benchmark's own peak: every row of a whole run read 16 to
  /// 25 MiB. The command is spawned from a fresh `crease-bench --peak-of`, whose own peak is
  /// a small program's.
  static func peakResidentKilobytes(_ command: String) throws -> Int {
    let output = "/tmp/crease-bench-peak-\(getpid())"
    defer { unlink(output) }
    try run("\(shellQuoted(CommandLine.arguments[0])) --peak-of \(shellQuoted(command)) > \(output)")
    guard let kilobytes = ToolLog.number(after: "peak", in: output) else {
      throw Failure(command: command, status: -1)
    }
    return kilobytes
  }

  /// `text` as one word of a `/bin/sh` command line.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
  }
}

/// One line of the results table.
struct BenchRow {
  var name: String
  var times: Measure.Times
  var lines: Int
  var bytes: Int

  /// Throughput on the wall clock, and speed against `baseline` on the wall clock and in
  /// processor time.
  static func printTable(_ rows: [BenchRow], baseline: BenchRow) {
    let width = rows.map(\.name.count).max() ?? 0
    print(pad("tool", width) + "   lines/s        MB/s   speed ÷ \(baseline.name): wall   processor")
    for row in rows {
      let seconds = row.times.wall
      print(
        pad(row.name, width) + "  " + pad(format(Double(row.lines) / seconds, 0), 9, left: true) + "  "
          + pad(format(Double(row.bytes) / seconds / 1e6, 1), 9, left: true) + "   "
          + pad(row.speed(against: baseline, \.wall), 8, left: true) + "   "
          + pad(row.speed(against: baseline, \.processor), 9, left: true))
    }
  }

  /// How many times faster than `other` this row ran, by one of its times.
  func speed(against other: BenchRow, _ time: KeyPath<Measure.Times, Double>) -> String {
    Self.format(other.times[keyPath: time] / times[keyPath: time], 2) + "×"
  }

  static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
  }

  static func format(_ value: Double, _ places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = Int64((value * scale).rounded())
    guard places > 0 else { return "\(scaled)" }
    let fraction = String(scaled % Int64(scale))
    return "\(scaled / Int64(scale))." + String(repeating: "0", count: places - fraction.count) + fraction
  }
}

/// Instruction counts from valgrind's callgrind, which do not depend on the machine's load.
enum Callgrind {
  /// A run's instructions: in all, and by part on its main thread (the replay's) and on the
  /// others (reading ahead, and writing cues for binary input).
  struct Run {
    var all: Int
    var mainThread: InstructionProfile
    var otherThreads: InstructionProfile
  }

  /// The instructions `command` executes, or `nil` when callgrind did not report them; the
  /// lines of a C source with `sections` count toward their sections' parts.
  static func run(_ command: String, sections: SourceSections? = nil) throws -> Run? {
    let log = "Benchmarks/.data/callgrind.log"
    let profile = "Benchmarks/.data/callgrind.out"
    try Spawn.run(
      "rm -f \(profile)-*; valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file=\(profile)"
        + " --log-file=\(log) \(command)")
    // "==123== Collected : 1234567"; each thread's profile is `callgrind.out-01`, `-02`, ….
    guard let all = ToolLog.number(after: "Collected", skipping: 1, in: log),
      let mainThread = InstructionProfile(contentsOf: "\(profile)-01", sections: sections)
    else { return nil }
    var otherThreads = InstructionProfile()
    for thread in 2..<100 {
      let number = thread < 10 ? "0\(thread)" : "\(thread)"
      guard let profile = InstructionProfile(contentsOf: "\(profile)-\(number)") else { break }
      otherThreads = otherThreads + profile
    }
    return Run(all: all, mainThread: mainThread, otherThreads: otherThreads)
  }
}

/// Reading numbers out of what a tool wrote: a valgrind log, `crease-bench --peak-of`'s line.
enum ToolLog {
  /// The number `skipping` words after the first `word` in the log at `path` (digits only, so
  /// `1,234` reads as 1234), or `nil`.
  static func number(after word: Substring, skipping: Int = 0, in path: String) -> Int? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0 {
      let words = String(cString: line!).split(separator: " ")
      guard let index = words.firstIndex(of: word), index + 1 + skipping < words.count else { continue }
      return Int(words[index + 1 + skipping].filter(\.isNumber))
    }
    return nil
  }
}
