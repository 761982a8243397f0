import Crease
import CreaseRecording

// `LibraryCost session|engine|recorder N`: makes N events, then feeds them through a session or
// an engine of the pipeline, draining cues after each, or a trace recorder; prints a count.
// `LibraryCost make N` only makes them: its cost is taken off the others'.

/// The bench trace's mix: hinge samples at 60 Hz sweeping open and closed, 30 fps frames, a
/// drop in a thousand lines and a mark in four, `t` about 8.8 ms apart.
func makeEvents(_ count: Int) -> [Event] {
  var events: [Event] = []
  events.reserveCapacity(count)
  var t = Nanoseconds.zero
  var pts: Int64 = 0
  for index in 0..<count {
    t = t + Nanoseconds(8_333_333 + Int64(index % 7) * 100_000)
    switch index % 4 {
    case 0, 2:
      // A triangle wave between 30° and 150°, one sweep every 2,400 samples.
      let phase = Double(index % 4800) / 2400
      let angle = 30 + 120 * (phase < 1 ? phase : 2 - phase)
      let status: HingeStatus = angle > 150 ? .fullyOpen : .partiallyOpen
      events.append(Event(t: t, .hinge(HingeDelivery(angle: .degrees(angle), status: status))))
    case 1:
      pts += 33_333_333
      events.append(Event(t: t, .frame(Frame(pts: PresentationTime(nanoseconds: pts), camera: .innerFront))))
    default:
      if index % 1000 == 3 {
        events.append(
          Event(t: t, .drop(Drop(pts: PresentationTime(nanoseconds: pts + 1), reason: .frameWasLate))))
      } else {
        events.append(Event(t: t, .mark(label: "m\(index)")))
      }
    }
  }
  return events
}

let arguments = CommandLine.arguments
let mode = arguments.count == 3 ? arguments[1] : ""
let events = makeEvents(arguments.count == 3 ? Int(arguments[2]) ?? 0 : 0)
var cueCount = 0
switch mode {
case "session":
  var session = try CreaseSession()
  for event in events {
    try session.send(event)
    session.drainCues { _ in cueCount += 1 }
  }
case "engine":
  var engine = Engine(processor: Pipeline(configuration: .default))
  for event in events {
    try engine.push(event, from: 0)
    engine.drainCues { _, _ in cueCount += 1 }
  }
case "recorder":
  var recorder = try TraceRecorder(sink: CountingSink())
  for event in events { try recorder.send(event) }
  try recorder.finish()
  cueCount = recorder.sink.bytes
case "make":
  break
default:
  fatalError("usage: LibraryCost session|engine|recorder|make COUNT")
}
print("\(cueCount) cues")

/// A sink that keeps only a count of the bytes it was given, and cannot fail.
struct CountingSink: TraceSink {
  var bytes = 0
  mutating func write(_ line: UnsafeRawBufferPointer) throws(Never) { bytes += line.count }
}
