/// A session's engine, shared by copies of the session until one of them changes it.
///
/// An engine is not copyable, so that the replay changes one without a copy-on-write check; a
/// session is, as an app's values are (kept in a view's state, captured by a closure). A
/// session keeps its engine here and copies it, on purpose, when a copy changes a shared one.
final class SessionEngine: @unchecked Sendable {
  // Unchecked-sendable and unchecked for exclusive access, safe because a session changes its
  // engine only through `CreaseSession.engine`, which makes this storage its own first: a
  // storage two sessions share is only ever read, and one session value is changed by one
  // owner at a time (Swift's rules for a value type's mutation). Tuning: inout-state.
  @exclusivity(unchecked) var engine: Engine<Pipeline>

  init(_ engine: consuming Engine<Pipeline>) { self.engine = engine }
}
