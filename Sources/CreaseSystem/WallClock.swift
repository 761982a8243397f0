import Crease

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The wall clock that paced output and idle advance follow; tests substitute a manual one.
public protocol WallClock: AnyObject {
  /// The current time on a monotonic clock.
  func now() -> Nanoseconds
  /// Returns at `deadline` or as soon after it as the system allows.
  func sleep(until deadline: Nanoseconds)
}

/// The system's monotonic clock.
public final class SystemClock: WallClock {
  /// The system's monotonic clock.
  public init() {}

  /// `CLOCK_MONOTONIC` in nanoseconds.
  public func now() -> Nanoseconds {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Nanoseconds(Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
  }

  /// Sleeps until `deadline` on the monotonic clock.
  public func sleep(until deadline: Nanoseconds) {
    #if canImport(Glibc)
      var spec = timespec(
        tv_sec: Int(deadline.rawValue / 1_000_000_000), tv_nsec: Int(deadline.rawValue % 1_000_000_000))
      while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {
        // A run that unwinds is stopped at its next stop point, after this early wake.
        if InterruptCleanup.unwindsOnStop && InterruptCleanup.stopRequested { return }
        InterruptCleanup.stopIfRequested()
      }
    #else
      // Darwin has no absolute sleep: sleep for what is left, again after each interruption.
      while case let left = deadline - now(), left > .zero {
        var spec = timespec(
          tv_sec: Int(left.rawValue / 1_000_000_000), tv_nsec: Int(left.rawValue % 1_000_000_000))
        if nanosleep(&spec, nil) == 0 { return }
        if InterruptCleanup.unwindsOnStop && InterruptCleanup.stopRequested { return }
        InterruptCleanup.stopIfRequested()
      }
    #endif
  }
}

/// A clock that moves only when told to, for tests: sleeping jumps to the deadline plus a set
/// delay, so lateness can be checked exactly.
public final class ManualClock: WallClock {
  /// The clock's time.
  public private(set) var current: Nanoseconds
  /// How late each sleep wakes up.
  public var wakeUpDelay: Nanoseconds

  /// A clock at `start` whose sleeps wake `wakeUpDelay` late.
  public init(start: Nanoseconds = .zero, wakeUpDelay: Nanoseconds = .zero) {
    current = start
    self.wakeUpDelay = wakeUpDelay
  }

  /// The clock's time.
  public func now() -> Nanoseconds { current }

  /// Jumps to `deadline` plus the wake-up delay (or stays, when past it).
  public func sleep(until deadline: Nanoseconds) {
    if deadline > current { current = deadline + wakeUpDelay }
  }

  /// Moves the clock forward.
  public func advance(by duration: Nanoseconds) { current = current + duration }
}
