/// One hysteresis boundary (SPEC 4.3): two thresholds, so a hinge resting near one line does not
/// flicker between sides.
///
/// The side becomes `below` at or under `below` and `above` at or over `above`; in between
/// nothing changes. The first sample sets the side (between the two, the side of the midpoint,
/// the midpoint itself counting as above).
struct HysteresisStateMachine: Sendable {
  /// What the owner does after a sample.
  enum Action: Equatable, Sendable {
    case none
    /// Report the side; `initial` for the side the first sample set.
    case side(BoundarySide, initial: Bool)
  }

  private enum State: Sendable {
    case awaitingFirstSample
    case on(BoundarySide)
  }

  let boundary: Boundary
  private var state = State.awaitingFirstSample

  init(boundary: Boundary) { self.boundary = boundary }

  /// What a sample at an angle in degrees does, without taking it in: a sample is taken in
  /// only when it reports a side (``enter(_:)``), so an owner that keeps its machines in an
  /// array writes to it only then.
  func action(for angle: Double) -> Action {
    switch state {
    case .awaitingFirstSample:
      let side: BoundarySide
      if angle <= boundary.below {
        side = .below
      } else if angle >= boundary.above {
        side = .above
      } else {
        side = angle >= (boundary.below + boundary.above) / 2 ? .above : .below
      }
      return .side(side, initial: true)
    case .on(.above) where angle <= boundary.below:
      return .side(.below, initial: false)
    case .on(.below) where angle >= boundary.above:
      return .side(.above, initial: false)
    case .on:
      return .none
    }
  }

  /// Takes the side ``action(for:)`` reported.
  mutating func enter(_ side: BoundarySide) { state = .on(side) }

  /// Forgets the side: the next sample sets it again.
  mutating func reset() { state = .awaitingFirstSample }
}
