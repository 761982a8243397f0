import CreaseLocking
import CreaseTesting
import Testing

@Suite("The test clock apps get")
struct TestClockTests {
  /// The sleepers in the order they woke.
  final class WakeLog: Sendable {
    private let state = Locked<[Int]>([])
    var order: [Int] { state.withLock { $0 } }
    func add(_ sleeper: Int) { state.withLock { $0.append(sleeper) } }
  }

  @Test("sleepers wake when the test moves the clock to their deadline, in deadline order")
  func wakesInOrder() async throws {
    let clock = CreaseTestClock()
    let woken = WakeLog()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, milliseconds) in [30, 10, 20].enumerated() {
        group.addTask {
          // Deadlines from the start: a sleeper that starts late finds its deadline passed.
          try await clock.sleep(
            until: CreaseTestClock.Instant(offset: .milliseconds(milliseconds)), tolerance: nil)
          woken.add(index)
        }
      }
      // Each step wakes at most one sleeper, so the order is the clock's, not the scheduler's.
      for step in 1...3 {
        clock.advance(by: .milliseconds(10))
        while woken.order.count < step { await Task.yield() }
      }
      try await group.waitForAll()
    }
    #expect(woken.order == [1, 2, 0])
    #expect(clock.now == CreaseTestClock.Instant(offset: .milliseconds(30)))
  }

  @Test("a deadline already passed returns at once; a cancelled sleeper throws")
  func passedAndCancelled() async {
    let clock = CreaseTestClock()
    clock.advance(by: .seconds(1))
    await #expect(throws: Never.self) { try await clock.sleep(until: .init(offset: .zero), tolerance: nil) }
    let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }
}
