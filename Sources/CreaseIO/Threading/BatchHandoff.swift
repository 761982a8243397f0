#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A lock and a condition that one or more ``BatchHandoff``s share, so that a thread serving
/// several of them can wait for whichever needs it first.
final class HandoffSignal: @unchecked Sendable {
  // Safe to share: the mutex and condition live at fixed addresses (allocated here, freed in
  // deinit) as pthread requires, and what they guard is touched only inside `locked`.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    condition.deallocate()
  }

  /// Runs `body` holding the lock.
  func locked<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }

  /// Waits for a broadcast; only inside ``locked(_:)``, whose lock it gives up meanwhile.
  func wait() { pthread_cond_wait(condition, mutex) }

  /// Wakes every waiter; only inside ``locked(_:)``.
  func broadcast() { pthread_cond_broadcast(condition) }
}

/// A fixed ring of batches passed between two threads: a producer fills them in turn and
/// publishes each, a consumer takes them in the same turn and releases each, and either side
/// may cancel. A batch belongs to the producer until it is published, and to the consumer from
/// then until the consumer releases it; the lock around the count makes each hand-over visible
/// to the other thread.
final class BatchHandoff<Batch: AnyObject>: @unchecked Sendable {
  let batches: [Batch]
  let signal: HandoffSignal
  /// Batches published and not yet released.
  private var ready = 0
  private var cancelled = false

  init(batches: [Batch], signal: HandoffSignal = HandoffSignal()) {
    self.batches = batches
    self.signal = signal
  }

  /// The producer: waits for a free batch; `false` once cancelled.
  func waitForFreeBatch() -> Bool {
    signal.locked {
      while !hasFreeBatch && !cancelled { signal.wait() }
      return !cancelled
    }
  }

  /// The producer: hands the batch it filled over.
  func publish() {
    signal.locked {
      ready += 1
      signal.broadcast()
    }
  }

  /// The consumer: waits until a batch is published; `false` when cancelled with none ready.
  func waitForBatch() -> Bool {
    signal.locked {
      while !hasReadyBatch && !cancelled { signal.wait() }
      return hasReadyBatch
    }
  }

  /// The consumer: gives its batch back.
  func release() {
    signal.locked {
      ready -= 1
      signal.broadcast()
    }
  }

  /// One side has gone: the other stops at its next wait.
  func cancel() {
    signal.locked {
      cancelled = true
      signal.broadcast()
    }
  }

  // For a thread that serves several handoffs and waits on their shared signal: read only
  // inside `signal.locked`.

  /// Whether a published batch waits for the consumer.
  var hasReadyBatch: Bool { ready > 0 }
  /// Whether a batch is free for the producer.
  var hasFreeBatch: Bool { ready < batches.count }
  /// Whether either side has cancelled.
  var isCancelled: Bool { cancelled }
}
