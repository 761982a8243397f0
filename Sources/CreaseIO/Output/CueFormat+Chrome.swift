import Crease

/// The Chrome Trace Event format (JSON object form), written as a stream: every event ends
/// with a comma and the metadata events close the array, so the file is valid JSON however many
/// cues there are. Times are microseconds with nanosecond decimals.
extension CueFormat {
  /// Thread ids of the tracks.
  private enum Track: Int64 {
    case cues = 1
    case masks = 2
    case gaps = 3
  }

  static let chromePrologue = #"{"displayTimeUnit":"ms","traceEvents":["# + "\n"

  static let chromeEpilogue =
    #"{"name":"process_name","ph":"M","pid":1,"args":{"name":"crease"}},"# + "\n"
    + #"{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"cues"}},"# + "\n"
    + #"{"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"preview masks"}},"# + "\n"
    + #"{"name":"thread_name","ph":"M","pid":1,"tid":3,"args":{"name":"frame gaps"}}"# + "\n"
    + "]}\n"

  /// A cue: masks as begin/end slices, gaps as complete slices from when the first missing frame
  /// was due, everything else as an instant with the cue's fields as arguments.
  static func encodeChromeEvent(_ cue: Cue, into output: inout [UInt8]) {
    switch cue.kind {
    case .cameraMask(let stream, let on, _):
      chromeEvent(
        name: "mask \(stream.rawValue)", phase: on ? "B" : "E", t: cue.t, track: .masks, into: &output)
      appendArguments(cue, into: &output)
    case .cameraGap(let stream, _, _, _, _, _):
      chromeEvent(name: "gap \(stream.rawValue)", phase: "X", t: cue.since, track: .gaps, into: &output)
      output.append(#","dur":"#)
      appendMicroseconds(cue.latency, to: &output)
      appendArguments(cue, into: &output)
    default:
      chromeEvent(name: cue.kind.name, phase: "i", t: cue.t, track: .cues, into: &output)
      output.append(#","s":"t""#)
      appendArguments(cue, into: &output)
    }
    output.append("},\n")
  }

  /// A hinge delivery as a sample of the "hinge angle" counter.
  static func encodeChromeSample(_ event: Event, into output: inout [UInt8]) {
    guard case .hinge(let delivery?) = event.payload else { return }
    output.append(#"{"name":"hinge angle","ph":"C","pid":1,"ts":"#)
    appendMicroseconds(event.t, to: &output)
    output.append(#","args":{"degrees":"#)
    NumberFormatting.appendDecimal(delivery.angle.degrees, to: &output)
    output.append("}},\n")
  }

  private static func chromeEvent(
    name: String, phase: String, t: Nanoseconds, track: Track, into output: inout [UInt8]
  ) {
    output.append(#"{"name":"#)
    JSONString.append(name, to: &output)
    output.append(#","ph":""#)
    output.append(contentsOf: phase.utf8)
    output.append(#"","pid":1,"tid":"#)
    NumberFormatting.appendInteger(track.rawValue, to: &output)
    output.append(#","ts":"#)
    appendMicroseconds(t, to: &output)
  }

  /// `"args":{...}` with `since` and the cue's fields.
  private static func appendArguments(_ cue: Cue, into output: inout [UInt8]) {
    output.append(#","args":{"since":"#)
    NumberFormatting.appendInteger(cue.since.rawValue, to: &output)
    cue.kind.writeFields(JSONFields.self, to: &output)
    output.append(UInt8(ascii: "}"))
  }

  /// Nanoseconds as microseconds with three decimals, exactly.
  private static func appendMicroseconds(_ nanoseconds: Nanoseconds, to output: inout [UInt8]) {
    let value = nanoseconds.rawValue
    if value < 0 { output.append(UInt8(ascii: "-")) }
    NumberFormatting.appendInteger(Int64(value.magnitude / 1000), to: &output)
    output.append(UInt8(ascii: "."))
    let fraction = value.magnitude % 1000
    if fraction < 100 { output.append(UInt8(ascii: "0")) }
    if fraction < 10 { output.append(UInt8(ascii: "0")) }
    NumberFormatting.appendInteger(Int64(fraction), to: &output)
  }
}
