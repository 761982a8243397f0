import Glibc

/// A fixed ring of batches passed between two threads: a producer fills them in turn and
/// publishes each, a consumer takes them in the same turn and releases each, and either side
/// may cancel. A batch belongs to the producer until it is published, and to the consumer from
/// then until the consumer releases it; the lock around the count makes each hand-over visible
/// to the other thread.
final class BatchHandoff<Batch: AnyObject>: @unchecked Sendable {
  let batches: [Batch]
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Batches published and not yet released.
  private var ready = 0
  private var cancelled = false

  init(batches: [Batch]) {
    self.batches = batches
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    condition.deallocate()
  }

  private func locked<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }

  /// The producer: waits for a free batch; `false` once cancelled.
  func waitForFreeBatch() -> Bool {
    locked {
      while ready == batches.count && !cancelled { pthread_cond_wait(condition, mutex) }
      return !cancelled
    }
  }

  /// The producer: hands the batch it filled over.
  func publish() {
    locked {
      ready += 1
      pthread_cond_broadcast(condition)
    }
  }

  /// The consumer: waits until a batch is published; `false` when cancelled with none ready.
  func waitForBatch() -> Bool {
    locked {
      while ready == 0 && !cancelled { pthread_cond_wait(condition, mutex) }
      return ready > 0
    }
  }

  /// The consumer: gives its batch back.
  func release() {
    locked {
      ready -= 1
      pthread_cond_broadcast(condition)
    }
  }

  /// One side has gone: the other stops at its next wait.
  func cancel() {
    locked {
      cancelled = true
      pthread_cond_broadcast(condition)
    }
  }
}

/// Runs `body` on a new thread, to be joined with `pthread_join`.
func startThread(named role: String, _ body: @escaping @Sendable () -> Void) -> pthread_t {
  final class Work {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  var thread = pthread_t()
  let result = pthread_create(
    &thread, nil,
    { context in
      Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
      return nil
    }, Unmanaged.passRetained(Work(body)).toOpaque())
  precondition(result == 0, "could not start the \(role) thread (error \(result))")
  return thread
}
