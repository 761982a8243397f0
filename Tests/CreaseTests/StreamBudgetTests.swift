import Crease
import Testing

@Suite("Stream budget: state for at most so many streams and bytes of names")
struct StreamBudgetTests {
  @Test("streams are admitted while both their number and their names' bytes fit")
  func admits() {
    var budget = StreamBudget()
    let long = StreamName(rawValue: String(repeating: "n", count: StreamBudget.maximumNameBytes - 3))
    let admitted = [budget.admit(long), budget.admit("four"), budget.admit("abc")]
    #expect(admitted == [true, false, true], "the second past the bytes, the third exactly what is left")
    #expect(budget.streams == 2 && budget.nameBytes == StreamBudget.maximumNameBytes)
    var many = StreamBudget()
    for index in 0..<StreamBudget.maximumStreams { _ = many.admit(StreamName(rawValue: "\(index)")) }
    let oneMore = many.admit("one more")
    #expect(!oneMore, "past the number")
  }

  @Test("the camera stage counts the frames of streams past the budget instead of tracking them")
  func pipelineCountsUntracked() throws {
    var engine = Engine(processor: Pipeline(configuration: .default))
    let extra = 3
    for index in 0..<(StreamBudget.maximumStreams + extra) {
      let frame = Frame(stream: StreamName(rawValue: "s\(index)"), pts: PresentationTime(nanoseconds: 0))
      try engine.push(Event(t: .zero, .frame(frame)), from: 0)
    }
    engine.finish(source: 0)
    #expect(engine.processor.untrackedStreamEvents == extra)
  }
}
