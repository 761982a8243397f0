/// The hinge status debounce of SPEC 4.2: a trailing debounce of the raw status with a maximum
/// wait, as a state machine whose event methods return what to do.
///
/// The launch delivery commits directly. After that, a *window* opens at the first raw status
/// that differs from the committed one; it commits the latest raw value once the raw status has
/// been quiet for the debounce time, or when the maximum wait since the window opened runs out,
/// whichever comes first. `unknown` never commits and does not disturb a window; a repeated
/// delivery of the same status is not a change.
struct StatusDebounceStateMachine: Sendable {
  /// What the owner does after a raw status.
  enum ReceiveAction: Equatable, Sendable {
    case none
    /// The launch delivery: report it (it commits without debouncing).
    case commitInitial(HingeStatus)
    /// Arm (or re-arm) the window's timer for this time.
    case armTimer(at: Nanoseconds)
  }

  /// What the owner does when the window's timer fires.
  enum FireAction: Equatable, Sendable {
    case none
    /// The committed status changed; `since` is the window's first sample.
    case commit(from: HingeStatus, to: HingeStatus, since: Nanoseconds)
  }

  private enum State: Sendable {
    case awaitingLaunch
    case committed(HingeStatus)
    case window(Window)
  }

  private struct Window: Sendable {
    var committed: HingeStatus
    var latest: HingeStatus
    var since: Nanoseconds
    /// Fixed when the window opens; `nil` when there is no maximum wait.
    var maximumDeadline: Nanoseconds?
  }

  private var state = State.awaitingLaunch
  private let debounce: Nanoseconds
  private let maximumWait: Nanoseconds?

  /// A debounce of `debounce` quiet time, bounded by `maximumWait` (`.zero`: no maximum).
  init(debounce: Nanoseconds, maximumWait: Nanoseconds) {
    self.debounce = debounce
    self.maximumWait = maximumWait == .zero ? nil : maximumWait
  }

  /// Takes in a raw status delivered at `now`.
  @inline(__always)  // into the hinge stage's handling of a sample: see HingeStage.receive
  mutating func receive(_ status: HingeStatus, at now: Nanoseconds) -> ReceiveAction {
    switch state {
    case .awaitingLaunch:
      state = .committed(status)
      return .commitInitial(status)
    case .committed(let committed):
      guard status != .unknown, status != committed else { return .none }
      let window = Window(
        committed: committed, latest: status, since: now, maximumDeadline: maximumWait.map { now + $0 })
      state = .window(window)
      return .armTimer(at: deadline(of: window, changedAt: now))
    case .window(var window):
      guard status != .unknown, status != window.latest else { return .none }
      window.latest = status
      state = .window(window)
      return .armTimer(at: deadline(of: window, changedAt: now))
    }
  }

  /// The window's timer fired: commit its latest value and close it.
  mutating func fire() -> FireAction {
    guard case .window(let window) = state else { return .none }
    state = .committed(window.latest)
    guard window.latest != window.committed else { return .none }
    return .commit(from: window.committed, to: window.latest, since: window.since)
  }

  /// Forgets everything, as when the hinge goes away: the next delivery is a launch delivery.
  mutating func reset() { state = .awaitingLaunch }

  private func deadline(of window: Window, changedAt now: Nanoseconds) -> Nanoseconds {
    let quiet = now + debounce
    guard let maximumDeadline = window.maximumDeadline else { return quiet }
    return Swift.min(quiet, maximumDeadline)
  }
}
