#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The threads a replay or a batch runs besides the caller's: started with a clear error, not a
/// trap, when the system has none to give (`RLIMIT_NPROC` reached, no memory for a stack).
package enum WorkerThread {
  /// Runs `body` on a new thread, to be joined with `pthread_join`.
  /// - Throws: ``IOError`` naming `role` when no thread can be started.
  package static func start(named role: String, _ body: @escaping @Sendable () -> Void) throws(IOError)
    -> pthread_t
  {
    final class Work {
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let work = Unmanaged.passRetained(Work(body))
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
        return nil
      }, work.toOpaque())
    guard result == 0 else {
      work.release()
      throw IOError(
        kind: .other, path: "crease",
        reason: "could not start the \(role) thread: \(String(cString: strerror(result)))")
    }
    return thread
  }

  /// Whether a thread can be started now: a replay that may use several asks first, and runs on
  /// its own thread alone when none can.
  package static var canStart: Bool {
    guard let thread = try? start(named: "probe", {}) else { return false }
    pthread_join(thread, nil)
    return true
  }
}
