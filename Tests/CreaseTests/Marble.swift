import Crease

/// Marble diagrams for the engine, after swift-async-algorithms' notation, on trace time.
///
/// Each character of a diagram is one tick of trace time (1 ns): `-` nothing, a letter an event
/// (a `mark` with that label), `[ab]` several in one tick, `|` an `end` event. Output diagrams
/// use the same notation for cues; a timer's cue is its letter uppercased.
///
/// Every marble diagram of these tests keeps to this: `-` is a tick (or a frame slot) where
/// nothing comes, and a group in brackets shares one tick, as swift-async-algorithms writes them.
enum Marble {
  /// One event of a diagram, or one pushed by hand in arrival order.
  struct Push {
    var source: Int
    var t: Int64
    var label: Character
  }

  /// The events of `diagram` for `source`, in line order.
  static func events(_ diagram: String, source: Int = 0) -> [Push] {
    var pushes: [Push] = []
    var tick: Int64 = 0
    var inGroup = false
    for symbol in diagram {
      switch symbol {
      case "[": inGroup = true
      case "]": inGroup = false
      case "-": break
      default: pushes.append(Push(source: source, t: tick, label: symbol))
      }
      if !inGroup && symbol != "[" { tick += 1 }
    }
    return pushes
  }

  /// Renders cues (and the end, if any) as a diagram.
  static func diagram(_ cues: [Cue], end: Nanoseconds?) -> String {
    var byTick: [Int64: [Character]] = [:]
    for cue in cues {
      guard case .mark(let label) = cue.kind else { continue }
      byTick[cue.t.rawValue, default: []].append(Character(label))
    }
    if let end { byTick[end.rawValue, default: []].append("|") }
    guard let last = byTick.keys.max() else { return "" }
    var text = ""
    for tick in 0...last {
      let symbols = byTick[tick] ?? []
      switch symbols.count {
      case 0: text += "-"
      case 1: text.append(symbols[0])
      default: text += "[" + String(symbols) + "]"
      }
    }
    return text
  }
}

/// A processor for marble tests: passes marks through and arms a timer for chosen letters.
struct MarbleProcessor: EventProcessor, Sendable {
  typealias TimerTag = Character

  /// Letters that arm a timer, with its delay in ticks and its end-of-stream policy.
  var timers: [Character: (delay: Int64, endOfStream: TimerScheduler<Character>.EndOfStream)] = [:]

  mutating func process(_ event: Event, context: inout ProcessingContext<Character>) {
    guard case .mark(let label) = event.payload, let letter = label.first else { return }
    context.emit(since: event.t, .mark(label: label))
    if let timer = timers[letter] {
      context.timers.schedule(letter, at: event.t + Nanoseconds(timer.delay), endOfStream: timer.endOfStream)
    }
  }

  mutating func fire(_ tag: Character, context: inout ProcessingContext<Character>) {
    context.emit(since: context.now, .mark(label: tag.uppercased()))
  }
}

/// Runs pushes through an engine and renders what came out.
struct MarbleRun {
  var output = ""
  /// The output as it stood after each push: when each cue came out, not only where.
  var arrivals: [String] = []
  var late: [Character] = []
  var pending: [Character] = []

  init(
    _ pushes: [Marble.Push], sources: Int = 1, window: Int64 = 0,
    timers: [Character: Int64] = [:], cancelledAtEndOfStream: Set<Character> = []
  ) {
    var processor = MarbleProcessor()
    for (letter, delay) in timers {
      processor.timers[letter] = (delay, cancelledAtEndOfStream.contains(letter) ? .cancel : .fire)
    }
    var engine = Engine(processor: processor, sourceCount: sources, reorderWindow: Nanoseconds(window))
    var cues: [Cue] = []
    for push in pushes {
      let payload: Event.Payload = push.label == "|" ? .end : .mark(label: String(push.label))
      do { try engine.push(Event(t: Nanoseconds(push.t), payload), from: push.source) } catch {
        if case .late = error.reason { late.append(push.label) }
      }
      engine.drainCues { cue, _ in cues.append(cue) }
      arrivals.append(Marble.diagram(cues, end: nil))
    }
    for source in 0..<sources { engine.finish(source: source) }
    engine.drainCues { cue, _ in cues.append(cue) }
    output = Marble.diagram(cues, end: engine.endOfInput?.endTime)
    pending = engine.endOfInput?.pendingTimers.map { Character($0.tag.uppercased()) } ?? []
  }

  /// Runs one diagram per source, read source by source in diagram order.
  init(
    sources diagrams: [String], window: Int64 = 0, timers: [Character: Int64] = [:],
    cancelledAtEndOfStream: Set<Character> = []
  ) {
    let pushes = diagrams.enumerated().flatMap { Marble.events($1, source: $0) }
    self.init(
      pushes, sources: diagrams.count, window: window, timers: timers,
      cancelledAtEndOfStream: cancelledAtEndOfStream)
  }
}
