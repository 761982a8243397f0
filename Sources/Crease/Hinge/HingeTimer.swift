/// A timer of the hinge stage, in trace time.
public enum HingeTimer: Hashable, Sendable {
  /// The status window commits (quiet time or maximum wait).
  case statusDebounce
  /// The hinge has been still long enough to count as settled.
  case settle
  /// The latest progress value goes out.
  case progress
}
