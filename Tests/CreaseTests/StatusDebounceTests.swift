import Testing

@testable import Crease

/// Marble tests for the status debounce on a manual clock: one character per tick (1 ns).
/// Input: `c` closed, `p` partiallyOpen, `f` fullyOpen, `u` unknown, `-` nothing. Output: the
/// launch commit as its letter, each later commit as its uppercased letter at the tick it takes
/// effect, `-` elsewhere.
struct DebounceMarble {
  static func run(_ input: String, debounce: Int64 = 3, maximumWait: Int64 = 0) -> String {
    var machine = StatusDebounceStateMachine(
      debounce: Nanoseconds(debounce), maximumWait: Nanoseconds(maximumWait))
    var deadline: Nanoseconds?
    var output: [Character] = []
    let symbols = Array(input)
    var tick: Int64 = 0
    while tick < Int64(symbols.count) || deadline != nil {
      var emitted: [Character] = []
      if tick < Int64(symbols.count), let status = status(symbols[Int(tick)]) {
        switch machine.receive(status, at: Nanoseconds(tick)) {
        case .none: break
        case .commitInitial(let status): emitted.append(letter(status))
        case .armTimer(let at): deadline = at
        }
      }
      // Input before timers at the same tick.
      if let due = deadline, due == Nanoseconds(tick) {
        deadline = nil
        if case .commit(_, let to, _) = machine.fire() { emitted.append(Character(letter(to).uppercased())) }
      }
      output.append(contentsOf: emitted.isEmpty ? ["-"] : emitted)
      tick += 1
    }
    while output.last == "-" { output.removeLast() }
    return String(output)
  }

  static func status(_ symbol: Character) -> HingeStatus? {
    ["c": .closed, "p": .partiallyOpen, "f": .fullyOpen, "u": .unknown][symbol]
  }

  static func letter(_ status: HingeStatus) -> Character {
    [.closed: "c", .partiallyOpen: "p", .fullyOpen: "f", .unknown: "u"][status]!
  }
}

@Suite("Status debounce (SPEC 4.2)")
struct StatusDebounceTests {
  @Test(
    "trailing debounce without a maximum wait",
    arguments: [
      ("c", "c"),  // the launch delivery commits directly
      ("c-p", "c----P"),  // quiet for 3 ticks after the change
      ("c-p-f", "c------F"),  // each change restarts the quiet time; the latest value commits
      ("c-pp-p", "c----P"),  // a repeated status is not a change
      ("c-p-c", "c"),  // back to the committed status: the window closes silently
      ("c-pupu", "c----P"),  // unknown neither commits nor disturbs the window
      ("c-p--f", "c-------F"),  // a value exactly on the deadline supersedes it (input before timers)
      ("u-p", "u----P"),  // an unknown launch commits nothing; the first real status debounces from unknown
      ("c-p-f-p-f-p-f-p", "c----------------P"),  // no maximum: nothing commits until the flapping stops
    ] as [(String, String)])
  func trailing(input: String, expected: String) {
    #expect(DebounceMarble.run(input) == expected)
  }

  @Test(
    "the maximum wait bounds a window that never goes quiet",
    arguments: [
      ("c-p-f-p-f-p-f-p", "c-------F-------P"),  // opened at 2, maximum 6: the latest commits at 8
      ("c-p-f-p-f-p-c-p", "c-------F-------P"),  // a new window opens after each commit
      ("c-p", "c----P"),  // quiet first
    ] as [(String, String)])
  func maximumWait(input: String, expected: String) {
    #expect(DebounceMarble.run(input, maximumWait: 6) == expected)
  }
}
