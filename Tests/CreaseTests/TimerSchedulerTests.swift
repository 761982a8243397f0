import CreaseSynth
import Testing

@testable import Crease

@Suite("Timer scheduler")
struct TimerSchedulerTests {
  /// The reference: an unsorted list searched in full, as the scheduler was before its heap.
  struct NaiveTimers {
    var timers: [(tag: Int, due: Int64, sequence: Int)] = []
    var sequence = 0

    mutating func schedule(_ tag: Int, _ due: Int64) {
      cancel(tag)
      timers.append((tag, due, sequence))
      sequence += 1
    }

    mutating func cancel(_ tag: Int) { timers.removeAll { $0.tag == tag } }

    mutating func popFirst(dueAtOrBefore limit: Int64) -> (tag: Int, due: Int64)? {
      guard let first = timers.min(by: { ($0.due, $0.sequence) < ($1.due, $1.sequence) }), first.due <= limit
      else { return nil }
      cancel(first.tag)
      return (first.tag, first.due)
    }
  }

  /// A tag that numbers itself, as the pipeline's timers do.
  struct NumberedTag: DenselyNumberedTimerTag {
    var denseNumber: Int
  }

  @Test(
    "schedules, re-arms, cancels and fires like a plain list: by due time, then setting order",
    arguments: 0..<30)
  func matchesReference(seed: UInt64) {
    exercise(seed: seed, tagSpace: [4, 64, 200][Int(seed % 3)], tag: { $0 }, value: { $0 })
  }

  @Test(
    "tags that number themselves: the same order, found by their number and never hashed",
    arguments: 0..<30)
  func numberedTagsMatchReference(seed: UInt64) {
    exercise(
      seed: seed, tagSpace: [4, 64, 200][Int(seed % 3)], tag: { NumberedTag(denseNumber: $0) },
      value: \.denseNumber)
  }

  @Test(
    "timers re-armed in turn, as streams deliver, fire like a plain list through the lane",
    arguments: 0..<6)
  func inTurnMatchesReference(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var scheduler = TimerScheduler<NumberedTag>()
    var naive = NaiveTimers()
    let streams = [70, 300, 1000][Int(seed % 3)]
    var now: Int64 = 0
    for step in 0..<5_000 {
      // Streams deliver in turn; now and then one skips its turn (its timer fires), is
      // cancelled, or is set due earlier than the rest (it goes to the heap).
      let number = step % streams
      now += Int64(random.next() % 3)
      switch random.next() % 50 {
      case 0:
        scheduler.cancel(NumberedTag(denseNumber: number))
        naive.cancel(number)
      case 1:
        break
      case 2:
        scheduler.schedule(NumberedTag(denseNumber: number), at: Nanoseconds(now + 5))
        naive.schedule(number, now + 5)
      default:
        let due = now + Int64(streams) + Int64(random.next() % 4)
        scheduler.schedule(NumberedTag(denseNumber: number), at: Nanoseconds(due))
        naive.schedule(number, due)
      }
      while true {
        let fired = scheduler.popFirst(dueAtOrBefore: Nanoseconds(now))
        let expected = naive.popFirst(dueAtOrBefore: now)
        #expect(
          fired.map { [$0.tag.denseNumber, Int($0.due.rawValue)] } == expected.map { [$0.tag, Int($0.due)] },
          "seed \(seed), step \(step)")
        if fired == nil || expected == nil { break }
      }
      #expect(scheduler.nextDue?.rawValue == naive.timers.map(\.due).min(), "seed \(seed), step \(step)")
    }
    #expect(
      scheduler.pending.map(\.tag.denseNumber)
        == naive.timers.sorted { ($0.due, $0.sequence) < ($1.due, $1.sequence) }.map(\.tag),
      "seed \(seed)")
    scheduler.cancelAtEndOfStream()
    #expect(scheduler.nextDue?.rawValue == naive.timers.map(\.due).min(), "policy .fire: all stay")
  }

  @Test("a re-arm that changes a timer's end-of-stream policy keeps the new one, in the heap and in the lane")
  func reArmKeepsNewPolicy() {
    // A few timers, all in the heap: each re-armed once, two of them with the other policy.
    var few = TimerScheduler<NumberedTag>()
    for number in 0..<4 {
      few.schedule(NumberedTag(denseNumber: number), at: Nanoseconds(Int64(10 + number)))
    }
    few.schedule(NumberedTag(denseNumber: 0), at: Nanoseconds(20), endOfStream: .cancel)
    few.schedule(NumberedTag(denseNumber: 1), at: Nanoseconds(21))
    few.schedule(NumberedTag(denseNumber: 2), at: Nanoseconds(22), endOfStream: .cancel)
    few.schedule(NumberedTag(denseNumber: 2), at: Nanoseconds(23), endOfStream: .fire)
    #expect(
      few.pending.map { [$0.tag.denseNumber, $0.endOfStream == .cancel ? 1 : 0] }
        == [[3, 0], [0, 1], [1, 0], [2, 0]])
    few.cancelAtEndOfStream()
    #expect(few.pending.map(\.tag.denseNumber) == [3, 1, 2])

    // Stall timers of 100 streams delivering in turn: past 64 they wait in the lane. The first
    // in the lane re-armed with the other policy, the next with its own.
    var many = TimerScheduler<NumberedTag>()
    for number in 0..<100 {
      many.schedule(NumberedTag(denseNumber: number), at: Nanoseconds(Int64(number)), endOfStream: .cancel)
    }
    many.schedule(NumberedTag(denseNumber: 65), at: Nanoseconds(200), endOfStream: .fire)
    many.schedule(NumberedTag(denseNumber: 66), at: Nanoseconds(201), endOfStream: .cancel)
    #expect(
      many.pending.suffix(2).map { [$0.tag.denseNumber, Int($0.due.rawValue)] } == [[65, 200], [66, 201]])
    many.cancelAtEndOfStream()
    #expect(many.pending.map { [$0.tag.denseNumber, Int($0.due.rawValue)] } == [[65, 200]])
    #expect(many.nextDue == Nanoseconds(200))
  }

  @Test(
    "a copy keeps its timers while the original re-arms, cancels and fires them, then goes on alone",
    arguments: 0..<6)
  func copiesAreIndependent(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var scheduler = TimerScheduler<NumberedTag>()
    var naive = NaiveTimers()
    var now: Int64 = 0
    /// One random schedule, cancel or firing on `scheduler`, checked against `naive`.
    func step(_ scheduler: inout TimerScheduler<NumberedTag>, _ naive: inout NaiveTimers, _ label: String) {
      let number = Int(random.next() % 40)
      switch random.next() % 4 {
      case 0, 1:
        let due = now + Int64(random.next() % 100)
        scheduler.schedule(NumberedTag(denseNumber: number), at: Nanoseconds(due))
        naive.schedule(number, due)
      case 2:
        scheduler.cancel(NumberedTag(denseNumber: number))
        naive.cancel(number)
      default:
        now += Int64(random.next() % 8)
        while let expected = naive.popFirst(dueAtOrBefore: now) {
          let fired = scheduler.popFirst(dueAtOrBefore: Nanoseconds(now))
          #expect(
            fired.map { [$0.tag.denseNumber, Int($0.due.rawValue)] } == [expected.tag, Int(expected.due)],
            "seed \(seed), \(label)")
        }
        #expect(scheduler.popFirst(dueAtOrBefore: Nanoseconds(now)) == nil, "seed \(seed), \(label)")
      }
      #expect(scheduler.nextDue?.rawValue == naive.timers.map(\.due).min(), "seed \(seed), \(label)")
    }
    for _ in 0..<300 { step(&scheduler, &naive, "before the copy") }
    var (copy, copyNaive) = (scheduler, naive)
    let nowAtCopy = now
    let pendingAtCopy = copy.pending.map(\.tag.denseNumber)
    for _ in 0..<300 { step(&scheduler, &naive, "the original after the copy") }
    #expect(copy.pending.map(\.tag.denseNumber) == pendingAtCopy, "seed \(seed)")
    now = nowAtCopy
    for _ in 0..<300 { step(&copy, &copyNaive, "the copy") }
    #expect(
      copy.pending.map(\.tag.denseNumber)
        == copyNaive.timers.sorted { ($0.due, $0.sequence) < ($1.due, $1.sequence) }.map(\.tag),
      "seed \(seed)")
  }

  @Test("a copy keeps the timers of its lane while the original re-arms them in turn")
  func copiesKeepTheirLane() {
    // 100 streams' stall timers: past 64, they wait in the lane.
    var scheduler = TimerScheduler<NumberedTag>()
    for number in 0..<100 {
      scheduler.schedule(NumberedTag(denseNumber: number), at: Nanoseconds(Int64(number)))
    }
    let copy = scheduler
    let atCopy = copy.pending.map { [$0.tag.denseNumber, Int($0.due.rawValue)] }
    #expect(atCopy == (0..<100).map { [$0, $0] })
    // The lane's streams re-armed in turn, each due after every other: from its front to its back.
    for number in 65..<100 {
      scheduler.schedule(NumberedTag(denseNumber: number), at: Nanoseconds(Int64(100 + number)))
    }
    #expect(copy.pending.map { [$0.tag.denseNumber, Int($0.due.rawValue)] } == atCopy)
    #expect(
      scheduler.pending.map { [$0.tag.denseNumber, Int($0.due.rawValue)] }
        == (0..<65).map { [$0, $0] } + (65..<100).map { [$0, 100 + $0] })
  }

  /// Runs phases of mostly scheduling and mostly firing against the reference, checking every
  /// timer fired, the next due time after every step and the pending ones at the end.
  func exercise<Tag: Hashable & Sendable>(seed: UInt64, tagSpace: Int, tag: (Int) -> Tag, value: (Tag) -> Int)
  {
    var random = SplitMix64(seed: seed)
    var scheduler = TimerScheduler<Tag>()
    var naive = NaiveTimers()
    var now: Int64 = 0
    // The phases fill the heap and empty it again, so slots of tags that do not number
    // themselves are given up and given again.
    for step in 0..<2000 {
      let number = Int(random.next() % UInt64(tagSpace))
      let filling = step / 250 % 2 == 0
      switch random.next() % 5 {
      case 0, 1,
        2 where filling:
        let due = now + Int64(random.next() % (filling ? 3000 : 30))
        scheduler.schedule(tag(number), at: Nanoseconds(due))
        naive.schedule(number, due)
      case 2:
        scheduler.cancel(tag(number))
        naive.cancel(number)
      default:
        now += Int64(random.next() % 8)
        while true {
          let fired = scheduler.popFirst(dueAtOrBefore: Nanoseconds(now))
          let expected = naive.popFirst(dueAtOrBefore: now)
          #expect(
            fired.map { [value($0.tag), Int($0.due.rawValue)] } == expected.map { [$0.tag, Int($0.due)] },
            "seed \(seed), step \(step)")
          if fired == nil || expected == nil { break }
        }
      }
      #expect(scheduler.nextDue?.rawValue == naive.timers.map(\.due).min(), "seed \(seed), step \(step)")
    }
    #expect(
      scheduler.pending.map { value($0.tag) }
        == naive.timers.sorted { ($0.due, $0.sequence) < ($1.due, $1.sequence) }.map(\.tag),
      "seed \(seed)")
  }
}

@Suite("Event-time engine: the reorder buffer's limit")
struct ReorderBufferLimitTests {
  @Test("past its limit the buffer releases its earliest event, counts it, and keeps the order")
  func releasesEarliest() throws {
    let pushes = (0..<6).map { Marble.Push(source: 0, t: 2, label: Character(UnicodeScalar(97 + $0)!)) }
    var engine = Engine(processor: MarbleProcessor(), reorderWindow: 5, bufferLimit: 3)
    var released: [String] = []
    for push in pushes {
      try engine.push(Event(t: Nanoseconds(push.t), .mark(label: String(push.label))), from: 0)
      engine.drainCues { cue, _ in released.append(cue.kind.tag == .mark ? "\(cue.t.rawValue)" : "") }
    }
    #expect(engine.releasedEarly == 3, "a, b and c went early, so at most 3 are held")
    #expect(released.count == 3)
    // An event in its window but before what was already processed is late, not out of order.
    #expect(throws: RefusedEvent(event: Event(t: 1, .mark(label: "z")), reason: .late(behind: 1))) {
      try engine.push(Event(t: 1, .mark(label: "z")), from: 0)
    }
    engine.finish(source: 0)
    var all: [Character] = []
    engine.drainCues { cue, _ in if case .mark(let label) = cue.kind { all.append(Character(label)) } }
    #expect(all == ["d", "e", "f"])
  }
}
