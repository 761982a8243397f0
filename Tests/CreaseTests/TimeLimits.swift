import Testing

extension Trait where Self == TimeLimitTrait {
  /// The limit of a test that suspends (on a test clock, on the cue sequence): it catches a
  /// sequence that never wakes, not a slow one. Every test of the run shares the cooperative
  /// pool, two threads on a 2-core machine, and a synchronous test holds its thread to the end,
  /// so a test that suspends may resume only once the run's synchronous tests are done: seen
  /// after 217 s of a CI run, where a minute's limit failed four such tests.
  static var suspendingTestLimit: Self { .timeLimit(.minutes(10)) }
}
