import CreaseLocking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Removes the temporary files of uncommitted outputs when a signal ends the process, and lets
/// a live, looping or paced run finish its last lines first.
///
/// Every signal whose default action ends the process and that a run may meet (SIGINT, SIGTERM,
/// SIGHUP, SIGQUIT, SIGPIPE when a reader goes away, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU,
/// SIGXFSZ, SIGVTALRM, SIGPROF) gets a handler that unlinks them, then dies of the signal as it
/// would have. A signal the parent set to be ignored stays ignored: with SIGPIPE ignored, a
/// reader that goes away is a write error (exit 74), and the outputs' deinitializers clean up.
///
/// Why the handler is safe: it may only make async-signal-safe calls, so it never locks,
/// allocates or frees. It reads ``published``, a NULL-terminated C array of C strings, with one
/// atomic load. Threads change the set of paths under a mutex by publishing a new array, and
/// free the old array (and a removed path) only once no handler is reading (``readers`` is 0,
/// read after the new array was published, so a handler that starts later cannot reach the
/// old one). Any number of files may be registered.
///
/// A run without end (live input, `--loop 0`, a paced or endless stream) is ended by SIGINT,
/// SIGTERM or SIGHUP. After ``finishLinesOnStop()`` the first of those only records itself (an
/// atomic store, safe in a handler) and returns: the run sees ``stopRequested`` between lines,
/// writes out the lines it has whole, and calls ``stopIfRequested()``, which dies of the signal
/// as the handler would have. A blocking read, poll, write or sleep that the signal interrupts
/// (no `SA_RESTART`: it returns `EINTR`) stops there, since a live run flushes before it waits.
/// A second signal ends the process at once.
///
/// A run that reports what it did (`replay --summary-json`) calls ``unwindOnStop()``: its stop
/// points then throw ``StopRequested`` instead of ending the process, the run returns what it
/// read, the command writes its summary (marked as stopped by a signal) and commits its outputs,
/// and only then ends of the signal (``stopIfRequested()``).
package enum InterruptCleanup {
  /// Thrown at a stop point of a run that unwinds on a stop signal (``unwindOnStop()``).
  package struct StopRequested: Error {}

  /// The paths registered, as C strings owned by this type; changed under the mutex.
  private static let registered = Locked<[UnsafeMutablePointer<CChar>]>([])
  /// What the handler walks: the address of the registered paths as a NULL-terminated array,
  /// 0 for none. Shared across threads by its atomic operations only (the type comment has the
  /// proof).
  private static let published = AtomicCell(0)
  /// Handlers running now.
  private static let readers = AtomicCell(0)
  /// Whether the handlers are installed.
  private static let installed = Locked(false)
  /// Whether a stop signal waits for the run (``finishLinesOnStop()``): 1 when it does.
  private static let finishesLines = AtomicCell(0)
  /// The stop signal received and not yet acted on; 0 for none.
  private static let stopSignal = AtomicCell(0)
  /// Whether stop points throw rather than end the process (``unwindOnStop()``): 1 when they do.
  private static let unwinds = AtomicCell(0)

  /// From now on, a stop signal makes the stop points throw ``StopRequested``, for a run that
  /// writes what it did before it ends; implies ``finishLinesOnStop()``.
  package static func unwindOnStop() {
    unwinds.store(1)
    finishLinesOnStop()
  }

  /// Whether the stop points throw rather than end the process.
  package static var unwindsOnStop: Bool { unwinds.relaxedLoad() != 0 }

  /// A stop point: when a stop signal came, throws ``StopRequested`` if the run unwinds
  /// (``unwindOnStop()``) and ends the process of the signal otherwise; nothing when none came.
  package static func checkStop() throws(StopRequested) {
    let signal = stopSignal.load()
    guard signal != 0 else { return }
    if unwindsOnStop { throw StopRequested() }
    cleanUp(after: Int32(truncatingIfNeeded: signal))
  }

  /// From now on, SIGINT, SIGTERM and SIGHUP wait for the run to see ``stopRequested`` (or for
  /// an interrupted system call) before ending the process: for a run that checks between
  /// lines.
  package static func finishLinesOnStop() {
    installHandlers()
    finishesLines.store(1)
  }

  /// Whether a stop signal came that the run has not yet acted on.
  package static var stopRequested: Bool { stopSignal.relaxedLoad() != 0 }

  /// Ends the process of the stop signal received, if one was: the caller has written out what
  /// it had whole.
  package static func stopIfRequested() {
    let signal = stopSignal.load()
    if signal != 0 { cleanUp(after: Int32(truncatingIfNeeded: signal)) }
  }

  /// Whether the handler only records `signal` for the run: the first stop signal, when lines
  /// are finished on stop. Async-signal-safe: atomics only.
  fileprivate static func deferStop(_ signal: Int32) -> Bool {
    guard finishesLines.load() != 0, signal == SIGINT || signal == SIGTERM || signal == SIGHUP
    else { return false }
    return stopSignal.compareExchange(expected: 0, desired: Int(signal))
  }

  /// The signals whose default action ends the process, and which a run may meet.
  static let signals: [Int32] = [
    SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM,
    SIGPROF,
  ]

  /// Unblocks ``signals``, which a process inherits blocked from a parent that blocks them (a
  /// test runner's threads, some supervisors): a run without end must still stop at SIGTERM or
  /// SIGINT. What the parent set to be ignored stays ignored; only the mask changes.
  package static func unblockSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    sigprocmask(SIG_UNBLOCK, &set, nil)
  }

  /// Removes `path` if the process is ended by a signal before ``unregister(_:)``.
  static func register(_ path: String) {
    installHandlers()
    registered.withLock { paths in
      paths.append(strdup(path))
      publish(paths)
    }
  }

  /// Stops removing `path` on a signal.
  static func unregister(_ path: String) {
    registered.withLock { paths in
      guard let index = paths.firstIndex(where: { strcmp($0, path) == 0 }) else { return }
      let removed = paths.remove(at: index)
      publish(paths)
      free(removed)
    }
  }

  /// Makes `paths` what the handler sees, and frees the array it saw before once no handler can
  /// be reading it (or a path removed from it). Called under the mutex.
  private static func publish(_ paths: [UnsafeMutablePointer<CChar>]) {
    // Safe because the table is written whole before it is published, never changed after, and
    // freed only once no handler can hold it (below).
    let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: paths.count + 1)
    for (index, path) in paths.enumerated() { table[index] = path }
    table[paths.count] = nil
    let old = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>(
      bitPattern: published.exchange(Int(bitPattern: table)))
    // A handler running now may still be walking `old`; one that starts from here on loads
    // `table`. A handler that ends the process never returns, so this waits only for one that
    // is about to raise its signal.
    while readers.load() != 0 { sched_yield() }
    old?.deallocate()
  }

  private static func installHandlers() {
    installed.withLock { installed in
      guard !installed else { return }
      installed = true
      // Statics are initialized on first use, behind a lock: never first in the handler.
      _ = published.load()
      _ = readers.load()
      _ = finishesLines.load()
      _ = stopSignal.load()
      var blocked = sigset_t()
      sigemptyset(&blocked)
      for signal in signals {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0, !current.isIgnoring else { continue }
        var action = sigaction()
        action.setHandler(handleSignal)
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
        sigaddset(&blocked, signal)
      }
      // A parent may have spawned the process with the signals blocked; they must arrive.
      pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
    }
  }

  /// Unlinks every published path, then dies of the signal as it would have.
  fileprivate static func cleanUp(after signal: Int32) {
    readers.add(1)
    if var entry = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>(bitPattern: published.load()) {
      while let path = entry.pointee {
        unlink(path)
        entry += 1
      }
    }
    readers.add(-1)
    var action = sigaction()
    action.setHandler(nil)
    sigaction(signal, &action, nil)
    raise(signal)
  }
}

/// The C handler: a plain function, since a closure that captures cannot be one.
private func handleSignal(_ signal: Int32) {
  if !InterruptCleanup.deferStop(signal) { InterruptCleanup.cleanUp(after: signal) }
}

extension sigaction {
  /// Whether the action ignores its signal.
  fileprivate var isIgnoring: Bool {
    // Function pointers are not Equatable: compared as the addresses they are.
    #if canImport(Glibc)
      unsafeBitCast(__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    #else
      unsafeBitCast(__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    #endif
  }

  /// Calls `handler` for the signal, or takes the default action when `nil`.
  fileprivate mutating func setHandler(_ handler: (@convention(c) (Int32) -> Void)?) {
    #if canImport(Glibc)
      __sigaction_handler.sa_handler = handler ?? SIG_DFL
    #else
      __sigaction_u.__sa_handler = handler ?? SIG_DFL
    #endif
  }
}
