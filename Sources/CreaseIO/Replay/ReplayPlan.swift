/// How a replay lays its work over threads, decided once, before the first read, from what it
/// reads and writes. The output is the same bytes under every plan.
///
/// A helper thread is taken only where it is safe and pays (Docs/Decisions.md, "Worker
/// threads", has the numbers):
/// - Reading ahead (``ReadAheadReader``) needs one source that never waits for a writer and
///   no rejects output: an overlong line is streamed to that output by the reader, as it
///   reads, and would land out of order with the replay's own writes.
/// - Writing cues on a helper (``CueWriter``) needs cues as lines, unpaced, from input that
///   never waits (a live replay flushes as it goes), to a cue output no other output shares.
/// - With both, the reading thread writes the cues too, between batches, for binary input and
///   a single pass: decoding leaves that thread the time, parsing JSON does not, and a third
///   thread on two cores measured slower. Otherwise reading ahead wins and cues stay on the
///   replay's thread.
enum ReplayPlan: Hashable, Sendable {
  /// One thread reads, processes and writes.
  case inline
  /// A helper thread reads and parses ahead; with `writingCues`, it also writes the cues.
  case readAhead(writingCues: Bool)
  /// The replay's thread reads and processes; a helper thread writes the cues.
  case writeBehind

  /// What the plan depends on.
  struct Facts: Hashable, Sendable {
    /// The most threads the replay may use, and whether the system gives one now.
    var maximumThreads: Int
    var threadsAvailable = true
    var sourceCount: Int
    /// Whether any source may make a read wait (a pipe, a terminal, a socket).
    var anySourceLive = false
    /// Whether every source is a binary trace.
    var allBinary = false
    var hasRejectsOutput = false
    var paced = false
    /// Whether cues are lines (not a timeline that needs every event).
    var cuesAreLines = true
    /// Whether the cue output is also the diagnostics, rejects or late output.
    var cueOutputShared = false
    var loops = 1
  }

  /// The plan for a replay with these facts.
  init(_ facts: Facts) {
    guard facts.maximumThreads >= 2 && facts.threadsAvailable else {
      self = .inline
      return
    }
    let readsAhead = facts.sourceCount == 1 && !facts.anySourceLive && !facts.hasRejectsOutput
    let writesBehind = !facts.anySourceLive && !facts.paced && facts.cuesAreLines && !facts.cueOutputShared
    switch (readsAhead, writesBehind) {
    case (true, let writesBehind):
      self = .readAhead(writingCues: writesBehind && facts.allBinary && facts.loops == 1)
    case (false, true): self = .writeBehind
    case (false, false): self = .inline
    }
  }

  /// Whether a helper thread reads the trace.
  var readsAhead: Bool {
    if case .readAhead = self { true } else { false }
  }
}
