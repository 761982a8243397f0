import Testing

@testable import Crease

/// Marble tests for progress with an interval of 3 ticks: an input digit `d` is a sample with
/// value `d/10` at that tick; the output shows the digit of each value sent, at the tick it
/// goes out. Input comes before the timer at the same tick.
enum ProgressMarble {
  static func run(_ input: String, settleAt settleTick: Int? = nil) -> String {
    var machine = ProgressStateMachine(interval: 3)
    var deadline: Int64?
    var output: [Character] = []
    var latest = 0.0
    let symbols = Array(input)
    var tick = 0
    while tick < symbols.count || deadline != nil {
      var sent: [Character] = []
      let now = Nanoseconds(Int64(tick))
      if tick < symbols.count, let digit = symbols[tick].wholeNumberValue {
        latest = Double(digit) / 10
        switch machine.receive(latest, at: now) {
        case .none: break
        case .send(let value): sent.append(digitOf(value))
        case .armTimer(let due): deadline = due.rawValue
        }
      }
      if tick == settleTick {
        deadline = nil
        if let value = machine.settle(latest, at: now) { sent.append(digitOf(value)) }
      }
      if deadline == Int64(tick) {
        deadline = nil
        if let (value, _) = machine.fire(at: now) { sent.append(digitOf(value)) }
      }
      output.append(contentsOf: sent.isEmpty ? ["-"] : sent)
      tick += 1
    }
    while output.last == "-" { output.removeLast() }
    return String(output)
  }

  static func digitOf(_ value: Double) -> Character { Character(String(Int((value * 10).rounded()))) }
}

@Suite("Progress (SPEC 4.5)")
struct ProgressTests {
  @Test(
    "at most one value per interval, the latest, no later than one interval after it arrived",
    arguments: [
      ("0123456", "0--3--6"),
      ("01", "0--1"),  // the trailing value goes out without waiting for another sample
      ("000000", "0"),  // unchanged values are not sent again
      ("0-----5", "0-----5"),  // after a quiet interval a new value goes out at once
      ("012--0", "0--2--0"),
      ("010", "0"),  // a pending value equal to the last one sent is dropped
    ] as [(String, String)])
  func marble(input: String, expected: String) {
    #expect(ProgressMarble.run(input) == expected)
  }

  @Test("at settle the final value goes out at once if it changed, and the pending one is dropped")
  func settle() {
    #expect(ProgressMarble.run("012", settleAt: 2) == "0-2")
    #expect(ProgressMarble.run("010", settleAt: 2) == "0")
  }

  @Test("values are compared as written, in thousandths")
  func thousandths() {
    var machine = ProgressStateMachine(interval: 1)
    #expect(machine.receive(0.5, at: 0) == .send(0.5))
    #expect(machine.receive(0.5004, at: 10) == .none)
    #expect(machine.receive(0.501, at: 20) == .send(0.501))
  }
}
