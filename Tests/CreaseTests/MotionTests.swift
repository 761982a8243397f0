import Testing

@testable import Crease

/// Motion tables with the default settings (deadband 7.5°, fully-open zone 15°, settle 300 ms,
/// tolerance 1°): angles in, one symbol per sample out: `o` opening, `c` closing, `F` settled
/// fully open, `-` nothing.
enum MotionTable {
  static let settings = MotionStateMachine.Settings(
    deadband: 7.5, fullyOpenZone: 15, settle: .milliseconds(300), settleTolerance: 1)

  static func run(_ angles: [Double]) -> String {
    var machine = MotionStateMachine(settings: settings)
    var output = ""
    for (index, angle) in angles.enumerated() {
      let outcome = machine.receive(angle, at: .milliseconds(Int64(index) * 10))
      switch (outcome.motion, outcome.settled) {
      case (.opening?, _): output += "o"
      case (.closing?, _): output += "c"
      case (nil, .fullyOpen?): output += "F"
      default: output += "-"
      }
    }
    return output
  }
}

@Suite("Motion and settle (SPEC 4.4)")
struct MotionTests {
  @Test(
    "motion starts past the deadband, reverses past it from the extreme, never repeats a phase",
    arguments: [
      ([90, 93, 87, 96, 84], "-----"),  // resting noise under the deadband: nothing
      ([90, 97.5], "--"),  // exactly the deadband is not more than it
      ([90, 97.6], "-o"),  // just over
      ([90, 82.4], "-c"),
      ([90, 91, 89.5, 92, 93.5, 92, 95, 96.5, 98], "--------o"),  // a slow movement with noise
      ([150, 170], "--"),  // at rest, samples in the fully-open zone change nothing
      ([175, 160], "-c"),  // a baseline in the zone, then a sample outside it
      ([90, 100, 120, 170], "-o-F"),  // opening into the zone settles at once
      ([90, 100, 130, 125, 121], "-o--c"),  // 5° back from the extreme is not a reversal, 9° is
      ([90, 100, 130, 121, 110, 119], "-o-c-o"),  // phases alternate
      ([90, 100, 130, 135, 140], "-o---"),  // the same phase is not emitted again
      ([90, 80, 70, 166, 150], "-c--o"),  // closing, a sample in the zone cannot reverse; one outside can
    ] as [([Double], String)])
  func table(angles: [Double], expected: String) {
    #expect(MotionTable.run(angles) == expected)
  }

  @Test("only movement beyond the tolerance re-arms the settle timer; settle reports the latest angle")
  func settleReArming() {
    var machine = MotionStateMachine(settings: MotionTable.settings)
    _ = machine.receive(90, at: 0)
    #expect(machine.receive(100, at: .milliseconds(10)).settleTimer == .milliseconds(310))
    #expect(machine.receive(100.9, at: .milliseconds(20)).settleTimer == nil)
    #expect(machine.receive(101.5, at: .milliseconds(30)).settleTimer == .milliseconds(330))
    #expect(machine.receive(101.2, at: .milliseconds(40)).settleTimer == nil)
    #expect(
      machine.fireSettle()
        == MotionStateMachine.Settle(angle: 101.2, zone: .half, since: .milliseconds(30)))
    #expect(machine.fireSettle() == nil)
  }

  @Test("the zone of a timed settle: fully open in the zone, closed under the deadband, else half")
  func zones() {
    let cases: [([Double], RestZone)] = [
      ([178, 160, 170], .fullyOpen), ([60, 20, 5], .closed), ([90, 60], .half),
    ]
    for (angles, zone) in cases {
      var machine = MotionStateMachine(settings: MotionTable.settings)
      for (index, angle) in angles.enumerated() { _ = machine.receive(angle, at: Nanoseconds(Int64(index))) }
      #expect(machine.fireSettle()?.zone == zone, "angles \(angles)")
    }
  }

  @Test("after a settle the baseline is the settled angle and either phase may follow")
  func afterSettle() {
    var machine = MotionStateMachine(settings: MotionTable.settings)
    _ = machine.receive(90, at: 0)
    _ = machine.receive(100, at: 1)
    _ = machine.fireSettle()
    #expect(machine.receive(106, at: 2).motion == nil)
    #expect(machine.receive(108, at: 3).motion == .opening)
    _ = machine.fireSettle()
    #expect(machine.receive(100, at: 4).motion == .closing)
  }

  @Test("a commit to closed settles a moving hinge at once, with the commit's since")
  func commitClosed() {
    var machine = MotionStateMachine(settings: MotionTable.settings)
    #expect(machine.commitClosed(since: 0) == nil)
    _ = machine.receive(60, at: 0)
    _ = machine.receive(20, at: 1)
    #expect(machine.commitClosed(since: 1) == MotionStateMachine.Settle(angle: 20, zone: .closed, since: 1))
  }
}
