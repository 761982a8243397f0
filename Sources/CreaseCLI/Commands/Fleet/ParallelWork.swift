import CreaseIO
import CreaseLocking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `count` independent pieces of work on up to `jobs` threads, this one included, and
/// returns their results in order: `batch`'s traces, `sweep`'s settings. A helper the system
/// cannot start (`RLIMIT_NPROC` reached) is simply not there, and its share goes to the others.
enum ParallelWork {
  /// `body` of each index, started in `order` (the indices in turn when `nil`) as threads come
  /// free; the results in the order of the indices, whatever order they ran in.
  static func map<Result: Sendable>(
    count: Int, jobs: Int, order: [Int]? = nil, _ body: @escaping @Sendable (Int) -> Result,
    done: @escaping @Sendable () -> Void = {}
  ) -> [Result] {
    precondition(order.map { $0.sorted() == Array(0..<count) } ?? true, "an order names each index once")
    let results = Locked([Result?](repeating: nil, count: count))
    let next = Locked(0)
    let work: @Sendable () -> Void = {
      while true {
        let position = next.withLock { value -> Int in
          defer { value += 1 }
          return value
        }
        guard position < count else { return }
        let index = order?[position] ?? position
        let result = body(index)
        results.withLock { $0[index] = result }
        done()
      }
    }
    let helpers = (1..<max(1, min(jobs, count))).compactMap { _ in
      try? WorkerThread.start(named: "worker", work)
    }
    work()
    for helper in helpers { pthread_join(helper, nil) }
    return results.withLock { $0.map { $0! } }
  }
}
