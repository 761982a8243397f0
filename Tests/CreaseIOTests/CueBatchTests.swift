import Crease
import Testing

@testable import CreaseIO

@Suite("Cue batches")
struct CueBatchTests {
  /// An engine holding `count` mark cues, with labels too long to be stored inline, so that a
  /// copy or a destroy too many or too few would show (under the address sanitizer).
  static func engine(holdingMarks count: Int, from first: Int = 0) throws -> Engine<Pipeline> {
    var engine = Engine(processor: Pipeline(configuration: .default), reorderWindow: .zero)
    for index in first..<(first + count) {
      try engine.push(Event(t: Nanoseconds(Int64(index)), .mark(label: Self.label(index))), from: 0)
    }
    engine.finish(source: 0)
    return engine
  }

  static func label(_ index: Int) -> String { "mark \(index), a label too long to be inline" }

  @Test("cues come out in the order the engine made them, with their bounds, across growth")
  func takenInOrder() throws {
    let batch = CueBatch(capacity: 2)
    var engine = try Self.engine(holdingMarks: 3)
    let bound = Pipeline(configuration: .default).latencyBound(
      for: Cue(t: .zero, since: .zero, .mark(label: "")))
    batch.append(cuesOf: &engine, askingBounds: true)
    let drained = !engine.hasCues
    #expect(drained)
    var later = try Self.engine(holdingMarks: 4, from: 3)
    batch.append(cuesOf: &later, askingBounds: true)
    #expect(batch.capacity >= 7)
    var taken: [String] = []
    while let (cue, cueBound) = batch.takeFirst() {
      if case .mark(let label) = cue.kind { taken.append(label) }
      #expect(cueBound == bound)
    }
    #expect(taken == (0..<7).map(Self.label))
    batch.removeAll()
    #expect(batch.count == 0)
  }

  @Test("cues left when taking stops are destroyed, and the batch is used again")
  func partlyTaken() throws {
    let batch = CueBatch(capacity: 4)
    var engine = try Self.engine(holdingMarks: 4)
    batch.append(cuesOf: &engine, askingBounds: true)
    _ = batch.takeFirst()
    batch.removeAll()
    var again = try Self.engine(holdingMarks: 2, from: 10)
    batch.append(cuesOf: &again, askingBounds: true)
    #expect(batch.takeFirst()?.cue.kind == .mark(label: Self.label(10)))
    #expect(batch.takeFirst()?.cue.kind == .mark(label: Self.label(11)))
    #expect(batch.takeFirst() == nil)
  }
}
