extension Nanoseconds {
  /// The same span as a standard library `Duration`, exact (every `Int64` count of
  /// nanoseconds is one).
  public var duration: Duration { .nanoseconds(rawValue) }

  /// The trace time of `instant` on a clock whose trace time 0 is `origin`: how an app stamps
  /// an event with the clock it reads (`ContinuousClock.now`, a test clock's `now`), truncated
  /// to whole nanoseconds and saturating.
  ///
  /// ```swift
  /// let origin = ContinuousClock.now
  /// …
  /// try session.hinge(angle, status: status, at: Nanoseconds(at: .now, since: origin))
  /// ```
  public init<Instant: InstantProtocol>(at instant: Instant, since origin: Instant)
  where Instant.Duration == Duration {
    self.init(origin.duration(to: instant))
  }

  /// The instant on `origin`'s clock at which trace time reaches this value: when to expect a
  /// cue with this `t`, say.
  public func instant<Instant: InstantProtocol>(since origin: Instant) -> Instant
  where Instant.Duration == Duration {
    origin.advanced(by: duration)
  }
}
