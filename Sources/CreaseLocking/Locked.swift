#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl  // static Linux SDK
#elseif canImport(Android)
  import Android
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a lock, for state that several threads touch (a work queue's next index, a
/// test clock's sleepers, the files to remove on a signal).
///
/// What `Synchronization.Mutex` gives, on a pthread mutex: ThreadSanitizer intercepts pthread
/// locks and knows the order they make, where Mutex's futex on Linux is invisible to it, and
/// every access under one was reported as a race (`make test-sanitized`). It also needs no
/// iOS 18.
package final class Locked<Value>: @unchecked Sendable {
  // Safe to share: `value` is read and written only inside `withLock`, under `mutex`, which
  // lives at a fixed address (allocated here, freed in deinit) as pthread requires.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var value: Value

  /// `value`, behind a new lock.
  package init(_ value: Value) {
    self.value = value
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` on the value, holding the lock.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
