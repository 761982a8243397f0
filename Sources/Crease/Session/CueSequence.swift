/// The cues of an asynchronous sequence of events, for live use with Swift concurrency.
///
/// Events are processed in order with the configuration's reorder window; a cue is yielded as
/// soon as it is known. An event further behind than the window is not dropped in silence: the
/// iteration throws ``LateEventError``.
///
/// ```swift
/// for try await cue in hingeEvents.cues(configuration: .default) {
///   apply(cue)
/// }
/// ```
public struct CueSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == Event {
  public typealias Element = Cue

  let base: Base
  let configuration: Configuration

  public func makeAsyncIterator() -> Iterator {
    Iterator(
      base: base.makeAsyncIterator(),
      engine: Engine(
        processor: Pipeline(configuration: configuration), sourceCount: 1,
        reorderWindow: configuration.reorderWindow))
  }

  /// Pulls events from the base until a cue is ready.
  public struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    var engine: Engine<Pipeline>
    private var ready: [Cue] = []
    private var nextIndex = 0
    private var baseIsExhausted = false

    init(base: Base.AsyncIterator, engine: Engine<Pipeline>) {
      self.base = base
      self.engine = engine
    }

    public mutating func next() async throws -> Cue? {
      while nextIndex == ready.count {
        guard !baseIsExhausted else { return nil }
        ready.removeAll(keepingCapacity: true)
        nextIndex = 0
        if let event = try await base.next() {
          if case .late(let behind) = engine.push(event, from: 0) {
            throw LateEventError(event: event, behind: behind)
          }
        } else {
          baseIsExhausted = true
          engine.finish(source: 0)
        }
        engine.drainCues(into: &ready)
      }
      defer { nextIndex += 1 }
      return ready[nextIndex]
    }
  }
}

/// An event more than the reorder window behind an earlier one.
public struct LateEventError: Error, Hashable, Sendable {
  public var event: Event
  /// How far behind the latest event it was.
  public var behind: Nanoseconds

  public init(event: Event, behind: Nanoseconds) {
    self.event = event
    self.behind = behind
  }
}

extension AsyncSequence where Element == Event {
  /// The cues Crease emits for these events under `configuration` (validate it first).
  public func cues(configuration: Configuration = .default) -> CueSequence<Self> {
    CueSequence(base: self, configuration: configuration)
  }
}
