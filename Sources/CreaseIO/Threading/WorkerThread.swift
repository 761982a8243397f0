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
    // The context is optional in Glibc's signature and not in Darwin's: passed on as optional,
    // the same closure compiles for both.
    func run(_ context: UnsafeMutableRawPointer?) {
      Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
    }
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let result = pthread_create(
      &thread, nil,
      {
        run($0); return nil
      }, work.toOpaque())
    guard result == 0 else {
      work.release()
      throw IOError(
        kind: .other, path: "crease",
        reason: "could not start the \(role) thread: \(String(cString: strerror(result)))")
    }
    #if canImport(Glibc)
      return thread
    #else
      return thread!
    #endif
  }

  /// Whether a thread can be started now: a replay that may use several asks first, and runs on
  /// its own thread alone when none can.
  package static var canStart: Bool {
    guard let thread = try? start(named: "probe", {}) else { return false }
    pthread_join(thread, nil)
    return true
  }
}
