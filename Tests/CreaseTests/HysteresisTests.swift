import CreaseSynth
import Testing

@testable import Crease

extension HysteresisStateMachine {
  /// A sample taken in as the hinge stage takes it: its action, and the side entered when it
  /// reports one.
  mutating func receive(_ angle: Double) -> Action {
    let action = action(for: angle)
    if case .side(let side, _) = action { enter(side) }
    return action
  }
}

/// Marble tests for one boundary at 135/145 degrees: each input digit `d` is a sample of
/// `130 + 2d` degrees (`2` is 134, `5` the midpoint 140, `8` is 146), `-` no sample. Output:
/// `a`/`b` for the initial side above/below, `A`/`B` for a crossing, `-` nothing.
enum HysteresisMarble {
  static func run(_ input: String) -> String {
    var machine = HysteresisStateMachine(boundary: Boundary(name: "flat", below: 135, above: 145))
    var output = ""
    for symbol in input {
      guard let digit = symbol.wholeNumberValue else {
        output += "-"
        continue
      }
      switch machine.receive(130 + 2 * Double(digit)) {
      case .none: output += "-"
      case .side(let side, let initial):
        let letter = side == .above ? "a" : "b"
        output += initial ? letter : letter.uppercased()
      }
    }
    return output
  }
}

@Suite("Hysteresis (SPEC 4.3)")
struct HysteresisTests {
  @Test(
    "a side changes only past the far threshold",
    arguments: [
      ("5", "a"),  // the midpoint itself counts as above
      ("4", "b"),  // between the thresholds: the side of the midpoint
      ("8", "a"),
      ("2", "b"),
      ("57972", "a---B"),  // 144 and 148 change nothing while above; 134 crosses
      ("23478", "b---A"),  // 136, 138 and 144 change nothing while below; 146 crosses
      ("2-8-2-8", "b-A-B-A"),
      ("6565656565", "a---------"),  // resting between the lines never flickers
    ] as [(String, String)])
  func marble(input: String, expected: String) {
    #expect(HysteresisMarble.run(input) == expected)
  }

  @Test("exactly on a threshold counts as reaching it")
  func onThreshold() {
    var machine = HysteresisStateMachine(boundary: Boundary(name: "flat", below: 135, above: 145))
    _ = machine.receive(140)
    #expect(machine.receive(135) == .side(.below, initial: false))
    #expect(machine.receive(145) == .side(.above, initial: false))
  }

  @Test("noise within the band never crosses, whatever the seed", arguments: 0..<10)
  func noise(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var machine = HysteresisStateMachine(boundary: Boundary(name: "flat", below: 135, above: 145))
    _ = machine.receive(140)
    for _ in 0..<1000 {
      let angle = 140 + Double(random.next() % 9_000) / 1000 - 4.5
      #expect(machine.receive(angle) == .none, "seed \(seed), angle \(angle)")
    }
  }
}
