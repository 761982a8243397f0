import Testing

@testable import CreaseIO

@Suite("the replay's thread layout")
struct ReplayPlanTests {
  /// A quiet JSON Lines file replayed as fast as possible to its own output, on two threads.
  static let quietFile = ReplayPlan.Facts(maximumThreads: 2, sourceCount: 1)

  func plan(_ change: (inout ReplayPlan.Facts) -> Void) -> ReplayPlan {
    var facts = Self.quietFile
    change(&facts)
    return ReplayPlan(facts)
  }

  @Test("one quiet source is read ahead; its cues are written by the reading thread only for binary input")
  func readAhead() {
    #expect(ReplayPlan(Self.quietFile) == .readAhead(writingCues: false))
    #expect(plan { $0.allBinary = true } == .readAhead(writingCues: true))
    // The reading thread ends with each pass of a loop: the cues stay on the replay's thread.
    #expect(
      plan {
        $0.allBinary = true; $0.loops = 3
      } == .readAhead(writingCues: false))
    // A timeline needs every event where the cues are made.
    #expect(
      plan {
        $0.allBinary = true; $0.cuesAreLines = false
      } == .readAhead(writingCues: false))
  }

  @Test("without reading ahead, cues are written behind when that is safe")
  func writeBehind() {
    #expect(plan { $0.sourceCount = 2 } == .writeBehind)
    // A rejects output is written by the reader as it reads: no reading ahead.
    #expect(plan { $0.hasRejectsOutput = true } == .writeBehind)
    #expect(
      plan {
        $0.sourceCount = 2; $0.paced = true
      } == .inline)
    #expect(
      plan {
        $0.sourceCount = 2; $0.cuesAreLines = false
      } == .inline)
    #expect(
      plan {
        $0.sourceCount = 2; $0.cueOutputShared = true
      } == .inline)
  }

  @Test("a live source, one thread, or no thread to be had keeps the replay on one thread")
  func inline() {
    #expect(plan { $0.anySourceLive = true } == .inline)
    #expect(
      plan {
        $0.anySourceLive = true; $0.sourceCount = 2
      } == .inline)
    #expect(plan { $0.maximumThreads = 1 } == .inline)
    #expect(plan { $0.threadsAvailable = false } == .inline)
    #expect(plan { $0.maximumThreads = 8 } == .readAhead(writingCues: false))
  }

  @Test("every combination of facts gives a plan that keeps the rules")
  func everyCombination() {
    for bits in 0..<(1 << 9) {
      let facts = ReplayPlan.Facts(
        maximumThreads: bits & 1 == 0 ? 1 : 2, threadsAvailable: bits & 2 == 0,
        sourceCount: bits & 4 == 0 ? 1 : 3,
        anySourceLive: bits & 8 != 0, allBinary: bits & 16 != 0, hasRejectsOutput: bits & 32 != 0,
        paced: bits & 64 != 0, cuesAreLines: bits & 128 == 0, cueOutputShared: bits & 256 != 0)
      let plan = ReplayPlan(facts)
      let helper = facts.maximumThreads >= 2 && facts.threadsAvailable
      if plan.readsAhead {
        #expect(
          helper && facts.sourceCount == 1 && !facts.anySourceLive && !facts.hasRejectsOutput, "\(facts)")
      }
      if plan == .writeBehind || plan == .readAhead(writingCues: true) {
        #expect(
          helper && !facts.paced && facts.cuesAreLines && !facts.cueOutputShared && !facts.anySourceLive)
      }
      if facts.anySourceLive || !helper { #expect(plan == .inline, "\(facts)") }
    }
  }
}
