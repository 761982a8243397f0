#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Work a ``JobThread`` does one step at a time: reading a trace ahead a batch at a time
/// (``ReadAheadReader``), writing cues a batch at a time (``CueWriter``).
///
/// A job's batches are handed over through ``BatchHandoff``s built on its thread's
/// ``JobThread/signal``, so that the thread, waiting on that one signal, wakes for whichever job
/// needs it.
protocol ThreadJob: AnyObject, Sendable {
  /// Whether a step waits to be taken. Asked only while the thread's signal is locked, and
  /// `false` once the job is done or cancelled.
  var hasWork: Bool { get }
  /// Takes one step, outside the lock.
  func step()
}

/// A thread that takes turns at the jobs added to it: whenever one has work, the first added
/// that has takes a step, and otherwise the thread sleeps on ``signal``.
///
/// One thread serves several jobs when they would otherwise each hold a core for a small part of
/// the time: on two cores, reading a binary trace ahead and writing its cues share one thread and
/// leave the other to the replay (``ReplayPlan``). Jobs added earlier go first, so a job that
/// another thread waits on (the cue writer, while the replay waits to hand over more cues) is
/// added first.
///
/// The thread starts with the first job and runs until the last owner lets go of this object,
/// which waits for the step under way to end.
final class JobThread {
  /// The lock and condition the jobs' handoffs share.
  let signal = HandoffSignal()
  private let role: String
  private let turns: Turns
  private var thread: pthread_t?

  /// A thread named `role` in errors, not started until a job is added.
  init(named role: String) {
    self.role = role
    turns = Turns(signal: signal)
  }

  deinit {
    turns.stop()
    if let thread { pthread_join(thread, nil) }
  }

  /// Adds `job`, after the jobs added before, starting the thread with the first.
  /// - Throws: ``IOError`` when the thread cannot be started.
  func add(_ job: any ThreadJob) throws(IOError) {
    turns.add(job)
    if thread == nil {
      let turns = turns
      thread = try WorkerThread.start(named: role) { turns.run() }
    }
  }
}

/// The jobs and the stop flag a ``JobThread`` shares with its thread, read and changed under the
/// signal's lock.
private final class Turns: @unchecked Sendable {
  private let signal: HandoffSignal
  private var jobs: [any ThreadJob] = []
  private var stopped = false

  init(signal: HandoffSignal) { self.signal = signal }

  func add(_ job: any ThreadJob) {
    signal.locked {
      jobs.append(job)
      signal.broadcast()
    }
  }

  func stop() {
    signal.locked {
      stopped = true
      signal.broadcast()
    }
  }

  /// The thread: takes a step of the first job with work, until stopped.
  func run() {
    while let job = nextJob() { job.step() }
  }

  private func nextJob() -> (any ThreadJob)? {
    signal.locked {
      while !stopped {
        if let job = jobs.first(where: \.hasWork) { return job }
        signal.wait()
      }
      return nil
    }
  }
}
