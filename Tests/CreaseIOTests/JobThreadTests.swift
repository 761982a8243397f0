import CreaseSystem
import Testing

@testable import CreaseIO

@Suite("one thread taking turns at several jobs")
struct JobThreadTests {
  /// A job of a fixed number of steps, each noted in a log it shares with the other jobs;
  /// its steps are released by the test, so the order they could run in is known.
  final class CountedJob: ThreadJob, @unchecked Sendable {
    let name: String
    let signal: HandoffSignal
    let log: StepLog
    /// Steps released and not yet taken; only under the thread's lock.
    private var released = 0

    init(_ name: String, on thread: JobThread, log: StepLog) {
      self.name = name
      signal = thread.signal
      self.log = log
    }

    var hasWork: Bool { released > 0 }

    func step() {
      signal.locked { released -= 1 }
      log.append(name)
    }

    /// Lets the job take `count` more steps.
    func release(_ count: Int) {
      signal.locked {
        released += count
        signal.broadcast()
      }
    }
  }

  /// The steps taken, in order, and a way to wait for a number of them.
  final class StepLog: @unchecked Sendable {
    private let signal: HandoffSignal
    private var names: [String] = []

    init(signal: HandoffSignal) { self.signal = signal }

    func append(_ name: String) {
      signal.locked {
        names.append(name)
        signal.broadcast()
      }
    }

    /// Waits until `count` steps have been taken, and returns them.
    func waitFor(_ count: Int) -> [String] {
      signal.locked {
        while names.count < count { signal.wait() }
        return names
      }
    }
  }

  @Test("a job added earlier goes first whenever both have work, and each gets all its steps")
  func earlierJobGoesFirst() throws {
    let thread = JobThread(named: "test")
    let log = StepLog(signal: thread.signal)
    let first = CountedJob("writer", on: thread, log: log)
    let second = CountedJob("reader", on: thread, log: log)
    // Both have work before the thread starts: it must take the first job's steps first.
    first.release(2)
    second.release(2)
    try thread.add(first)
    try thread.add(second)
    #expect(log.waitFor(4) == ["writer", "writer", "reader", "reader"])
    second.release(1)
    #expect(log.waitFor(5).last == "reader")
    first.release(1)
    #expect(log.waitFor(6).last == "writer")
  }

  @Test("letting go of the thread while its job is idle ends and joins it")
  func endsWhenReleased() throws {
    var thread: JobThread? = JobThread(named: "test")
    let log = StepLog(signal: thread!.signal)
    let job = CountedJob("idle", on: thread!, log: log)
    try thread!.add(job)
    job.release(1)
    #expect(log.waitFor(1) == ["idle"])
    // The thread sleeps, its job idle; letting go must wake, stop and join it (a hang fails).
    thread = nil
    job.release(1)
    #expect(log.waitFor(1) == ["idle"])
  }
}
