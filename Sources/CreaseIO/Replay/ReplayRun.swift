import Crease
import CreaseRecording

/// One run of a ``TraceReplay``: reads the sources' items in the order the engine asks for
/// them, counts every line once, hands events to the engine and its cues to the sink.
///
/// Plain events of a source with nothing else to do between them go through the fast loop,
/// ``admitEvents(from:)``; everything else (headers, bad, blank and late lines, `end`, the
/// end of a source, several or live sources, `--loop`, progress, unknown keys) through
/// ``handle(_:from:)``. Both admit an event the same way, so the output is the same bytes
/// whichever took it.
struct ReplayRun<Processor: EventProcessor & Sendable, Feed: EventFeed, Sink: CueSink>: ~Copyable {
  let replay: TraceReplay<Processor>
  var engine: Engine<Processor>
  var sources: [ReplaySource<Feed>]
  var sink: Sink
  let outputs: TraceReplay<Processor>.Outputs
  /// Opens source `i` again for its next pass (`--loop`).
  var reopen: ((Int) throws -> Feed)?
  var summary = ReplaySummary(sources: [])
  var diagnostics: Diagnostics
  /// Whether plain events take the fast loop: one source that never waits, each line needing
  /// nothing but counting and admitting.
  let admitsDirectly: Bool
  /// The first `t` read, from which progress counts trace time, and the latest: a paced
  /// replay without an `end` event ends there.
  var firstEvent: Nanoseconds?
  var latestEvent: Nanoseconds?
  /// The latest `t` read from any source, and the wall time it was read at (idle advance).
  var latestRead: (t: Nanoseconds, wall: Nanoseconds)?

  init(
    replay: TraceReplay<Processor>, engine: consuming Engine<Processor>, sources: [ReplaySource<Feed>],
    sink: Sink,
    outputs: TraceReplay<Processor>.Outputs
  ) {
    self.replay = replay
    self.engine = engine
    self.sources = sources
    self.sink = sink
    self.outputs = outputs
    diagnostics = Diagnostics(
      sink: outputs.diagnostics, rejects: outputs.rejects, late: outputs.late, limit: replay.reportLimit)
    diagnostics.style = replay.diagnosticStyle
    admitsDirectly =
      sources.count == 1 && !sources[0].isLive && replay.loops == 1 && replay.progress == nil
      && !replay.warnsAboutUnknownKeys
  }

  /// What the replay does after one item.
  enum Step {
    /// Read on.
    case next
    /// The source has no more items: the engine is told it finished.
    case sourceEnded
    /// The source starts its next pass (`--loop`), with a new ``ReplaySource``.
    case reopened
    /// `--strict` met a bad or late line: stop here.
    case stop
  }

  mutating func readAll() throws {
    try sink.begin()
    do {
      try readUntilDone()
    } catch is InterruptCleanup.StopRequested {
      // A run that reports what it did stops here, with the cues written so far.
      summary.stoppedBySignal = true
    }
    summary.sources = sources.map(\.counts)
    summary.endTime = engine.endOfInput?.endTime
    summary.pendingTimers = engine.endOfInput?.pendingTimers.count ?? 0
    summary.releasedEarly = engine.releasedEarly
    if !summary.stoppedBySignal { try writeCues() }
    // A stopped run ends now: it does not wait, paced, for the end of the trace.
    summary.takeCues(of: try sink.finish(at: summary.stoppedBySignal ? nil : summary.endTime ?? latestEvent))
    try replay.progress?.finish()
    try diagnostics.reportUnshown(summary.total, lateReported: replay.warnsAboutLateLines || replay.strict)
  }

  /// Reads the sources until the engine wants no more, a `--strict` stop, or a stop signal.
  private mutating func readUntilDone() throws {
    var items = 0
    reading: while let index = engine.sourceToRead {
      // Taken once for as long as the engine reads from it: taking it from the array for
      // each line retained and released it, 40 instructions a line.
      let source = sources[index]
      repeat {
        let item = try admitsDirectly ? admitEvents(from: source) : nextItem(of: source)
        items += 1
        // A paced replay reports trace time with every line (the reporter redraws at most
        // four times a second); one as fast as possible checks every 4,096 lines.
        if let progress = replay.progress, replay.pacer != nil || items % 4096 == 0 {
          let traceTime = (latestEvent ?? .zero) - (firstEvent ?? .zero)
          try progress.update(
            done: sources.reduce(0) { $0 + $1.reader.bytesTaken }, traceTime: traceTime,
            pass: source.loop.pass + 1)
        }
        switch try handle(item, from: source) {
        case .next:
          // Asked inline: most lines leave no cue. Tuning: hot-inline.
          if engine.hasCues { try writeCues() }
        case .reopened:
          continue reading
        case .sourceEnded:
          engine.finish(source: index)
          try writeCues()
          continue reading
        case .stop:
          summary.stoppedEarly = true
          engine.stop()
          try writeCues()
          break reading
        }
        // SIGINT or SIGTERM ends a run without end here, with every whole line written.
        if InterruptCleanup.stopRequested {
          try writeCues()
          try sink.flush()
          try InterruptCleanup.checkStop()
        }
      } while engine.sourceToRead == index
    }
  }

  /// Admits the plain events `source` gives for as long as the engine accepts them, and returns
  /// the first other item (a header, a bad or blank line, a late event, `end`, the end).
  /// - Complexity: O(1) per event, no allocation.
  @inline(never)
  mutating func admitEvents(from source: ReplaySource<Feed>) throws -> TraceItem {
    // Counted here and added once: the counts live in a class, written back for each event.
    var taken = 0
    // The latest `t` kept in hand and noted once, at the end: `noteRead(_:)` for each event
    // stored it through the optional at every line (callgrind, the day trace: 3 instructions
    // an event). The first event of the replay, and every event where idle advance notes the
    // wall time it was read at, still go through it.
    var latest = latestEvent ?? .min
    let notesEachRead = replay.idleAdvance != nil
    defer {
      source.count(.processed, lines: taken)
      if let noted = latestEvent, latest > noted { latestEvent = latest }
    }
    let feed = source.feed
    // A sink that draws the inputs is told of an event only once the engine would take it; one
    // refused stays in the feed.
    while let event = try feed.takeEvent(if: { t in
      !Sink.notesEvents || engine.refusal(at: t, isEnd: false, from: source.index) == nil
    }) {
      let t = event.t
      if notesEachRead || latestEvent == nil { noteRead(t) }
      if t > latest { latest = t }
      try sink.note(event, from: source.index)
      do throws(RefusedEvent) { try engine.push(consume event, from: source.index) } catch {
        // Handed back, and handled as any other item: reported from the line just read.
        return .record(.event(error.event))
      }
      taken &+= 1
      if engine.hasCues { try writeCues() }
    }
    return try feed.takeItem()
  }

  /// The next item of `source`; for a live source, flushes and advances idle time first when
  /// the read would wait.
  mutating func nextItem(of source: ReplaySource<Feed>) throws -> TraceItem {
    if source.isLive && !source.reader.hasBufferedItem { try waitForInput(from: source) }
    return try source.feed.takeItem()
  }

  /// Handles `item`, which `source` returned last, and counts its line.
  mutating func handle(_ item: consuming TraceItem, from source: ReplaySource<Feed>) throws -> Step {
    switch consume item {
    case .endOfInput:
      return try endOfSource(source)
    case .blank:
      source.count(.blank)
      return .next
    case .bad(let column, let message):
      return try reject(source, column: column, message)
    case .record(.header(let header)):
      if replay.warnsAboutUnknownKeys { try diagnostics.warnAboutUnknownKeys(source.reader) }
      guard source.loop.records == 0 else {
        return try reject(source, column: 1, "a header must be the first record of a trace")
      }
      if source.loop.pass == 0 { engine.apply(header) }
      source.count(.processed)
      return .next
    case .record(.event(let read)):
      if replay.warnsAboutUnknownKeys { try diagnostics.warnAboutUnknownKeys(source.reader) }
      return try accept(read, from: source)
    }
  }

  /// Takes in an event, the item `source` returned last.
  mutating func accept(_ read: consuming Event, from source: ReplaySource<Feed>) throws -> Step {
    // Only a looping replay measures and shifts trace time.
    let event = replay.loops > 1 ? source.loop.shift(read) : read
    let isEnd: Bool
    if case .end = event.payload { isEnd = true } else { isEnd = false }
    if isEnd && source.loop.pass + 1 < replay.loops {
      source.count(.processed)
      return .next
    }
    noteRead(event.t)
    // The sink notes the events the engine takes, and only those.
    if engine.refusal(at: event.t, isEnd: isEnd, from: source.index) == nil {
      try sink.note(event, from: source.index)
    }
    do throws(RefusedEvent) {
      // A late event is pushed all the same: the engine counts its source as having reached t.
      try engine.push(consume event, from: source.index)
    } catch {
      guard case .late(let behind) = error.reason else {
        return try reject(source, column: 1, "a record after this trace's 'end' event")
      }
      return try handleLate(source, behind: behind, event: error.event)
    }
    source.count(.processed)
    guard isEnd else { return .next }
    // Everything due by `end` is out now, and a live reader sees it at once: the lines after
    // it are read (and reported) as they come, which may be much later (SPEC 4.1).
    try writeCues()
    try sink.flush()
    return try rejectRest(of: source)
  }

  /// The source ran out: it ended, or another loop starts it over.
  mutating func endOfSource(_ source: ReplaySource<Feed>) throws -> Step {
    guard source.loop.pass + 1 < replay.loops, let reopen else { return .sourceEnded }
    // A pass's cues reach a reader as the pass ends, not when a buffer fills: an endless loop
    // of a short trace would otherwise hold its first cues for ever.
    try writeCues()
    try sink.flush()
    var loop = source.loop
    loop.nextPass()
    sources[source.index] = ReplaySource(
      index: source.index, feed: try reopen(source.index), isLive: source.isLive, loop: loop,
      counts: source.counts)
    return .reopened
  }

  /// After a source's `end` event the engine reads no further from it: every line left is
  /// read now and rejected (blank lines stay blank).
  mutating func rejectRest(of source: ReplaySource<Feed>) throws -> Step {
    let endLine = source.reader.position
    while true {
      switch try source.feed.takeItem() {
      case .endOfInput: return .next
      case .blank: source.count(.blank)
      case .bad, .record:
        let message = "a line after this trace's 'end' event (line \(endLine))"
        if try reject(source, column: 1, message) == .stop { return .stop }
      }
    }
  }

  mutating func noteRead(_ t: Nanoseconds) {
    if latestEvent == nil {
      sink.start(at: t)
      firstEvent = t
    }
    latestEvent = max(latestEvent ?? t, t)
    guard replay.idleAdvance != nil, t > (latestRead?.t ?? .min) else { return }
    latestRead = (t, replay.clock.now())
  }

  /// Before a read that may block: flushes the cues so far (a live consumer sees them now)
  /// and, with idle advance, lets trace time follow the wall clock while nothing arrives.
  ///
  /// Idle advance moves the largest `t` read to the `t` last read plus the wall time since
  /// (SPEC 4.1); the engine keeps the watermark a reorder window behind it, so an event that
  /// arrives within the window is in time. The wall time is taken first and the source asked
  /// once more after it: whatever arrived by then is read before trace time moves.
  mutating func waitForInput(from source: ReplaySource<Feed>) throws {
    try sink.flush()
    guard let idle = replay.idleAdvance else { return }
    let input = source.reader.source
    while try !input.waitForInput(timeout: idle, clock: replay.clock) {
      guard let latestRead else { continue }
      let now = replay.clock.now()
      if try input.waitForInput(timeout: .zero, clock: replay.clock) { return }
      engine.advance(to: latestRead.t + (now - latestRead.wall))
      try writeCues()
      try sink.flush()
    }
  }

  /// Counts a late event, keeps it in the late output and reports it as `--strict` or `check`
  /// asks.
  mutating func handleLate(_ source: ReplaySource<Feed>, behind: Nanoseconds, event: Event) throws -> Step {
    source.count(.late)
    try diagnostics.keepLate(event, readBy: source.reader)
    guard replay.strict || replay.warnsAboutLateLines else { return .next }
    try diagnostics.reportLate(
      source.reader, behind: behind, window: replay.reorderWindow,
      severity: replay.strict ? "error" : "warning")
    return replay.strict ? .stop : .next
  }

  mutating func reject(_ source: ReplaySource<Feed>, column: Int, _ message: String) throws -> Step {
    source.count(.rejected)
    try diagnostics.reject(source.reader, column: column, message)
    return replay.strict ? .stop : .next
  }

  /// Writes the cues the engine produced, and resumes the work it deferred at its cue limit,
  /// writing those cues too, until none is left.
  mutating func writeCues() throws {
    while engine.hasCues {
      try sink.write(cuesOf: &engine)
      engine.resume()
    }
  }
}
