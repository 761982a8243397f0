/// Effect progress while the hinge moves (SPEC 4.5): at most one value per interval, the latest
/// one, sent only when it differs from the last value sent, and never held back more than one
/// interval (unlike a throttle that waits for the next input).
///
/// Values are compared as they are written, in thousandths, so "differs by at least 0.001"
/// means the output changes.
struct ProgressStateMachine: Sendable {
  /// What the owner does after a sample.
  enum ReceiveAction: Equatable, Sendable {
    case none
    /// Send this value now.
    case send(Double)
    /// Arm the progress timer: the latest value goes out then.
    case armTimer(at: Nanoseconds)
  }

  private struct Sent: Sendable {
    var thousandths: Int64
    var t: Nanoseconds
  }

  private struct Pending: Sendable {
    var value: Double
    var since: Nanoseconds
  }

  private enum State: Sendable {
    /// No timer armed; the next differing value may go out at once if the interval allows.
    case ready
    /// A timer is armed; samples until it fires only replace the pending value.
    case waiting(Pending)
  }

  let interval: Nanoseconds
  private var lastSent: Sent?
  private var state = State.ready

  /// A throttle of one value per `interval`.
  init(interval: Nanoseconds) { self.interval = interval }

  /// Takes in a progress value at `now`.
  mutating func receive(_ value: Double, at now: Nanoseconds) -> ReceiveAction {
    if case .waiting = state {
      state = .waiting(Pending(value: value, since: now))
      return .none
    }
    guard differsFromLastSent(value) else { return .none }
    guard let lastSent, now - lastSent.t < interval else {
      self.lastSent = Sent(thousandths: Self.thousandths(value), t: now)
      return .send(value)
    }
    state = .waiting(Pending(value: value, since: now))
    return .armTimer(at: lastSent.t + interval)
  }

  /// The timer fired: the pending value, with the time of its sample, if it is worth sending.
  mutating func fire(at now: Nanoseconds) -> (value: Double, since: Nanoseconds)? {
    guard case .waiting(let pending) = state else { return nil }
    state = .ready
    guard differsFromLastSent(pending.value) else { return nil }
    lastSent = Sent(thousandths: Self.thousandths(pending.value), t: now)
    return (pending.value, pending.since)
  }

  /// The hinge settled: drops the pending value (the owner cancels the timer) and returns the
  /// final value if it differs from the last one sent.
  mutating func settle(_ value: Double, at now: Nanoseconds) -> Double? {
    state = .ready
    guard differsFromLastSent(value) else { return nil }
    lastSent = Sent(thousandths: Self.thousandths(value), t: now)
    return value
  }

  /// Forgets everything, as when the hinge goes away.
  mutating func reset() {
    lastSent = nil
    state = .ready
  }

  private func differsFromLastSent(_ value: Double) -> Bool {
    lastSent.map { $0.thousandths != Self.thousandths(value) } ?? true
  }

  private static func thousandths(_ value: Double) -> Int64 {
    Int64((value * 1000).rounded(.toNearestOrAwayFromZero))
  }
}
