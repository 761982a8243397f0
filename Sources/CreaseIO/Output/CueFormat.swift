import Crease
import CreaseRecording

/// An output format for cues: JSON Lines, readable text, or a trace viewer's format.
public enum CueFormat: String, CaseIterable, Sendable {
  /// One JSON object per line, keys `t`, `since`, `cue`, then the fields (SPEC 3).
  case jsonl
  /// Aligned columns for people: time in seconds, cue, fields, latency.
  case text
  /// Chrome Trace Event JSON for Perfetto or chrome://tracing, a process per trace
  /// (``ChromeTimeline``).
  case chrome

  /// Appends one cue, with its line terminator, to `output`.
  ///
  /// A chrome cue is an instant here: its slices, counters, processes and the document around
  /// it need the state of a whole replay, which ``ChromeTimeline`` keeps.
  /// - Complexity: O(*f*) in the size of the cue's fields; no allocation once `output` has
  ///   grown to its working size (labels excepted).
  public func encode(_ cue: Cue, into output: inout [UInt8]) {
    switch self {
    case .jsonl: Self.encodeJSONLine(cue, into: &output)
    case .text: Self.encodeText(cue, into: &output)
    case .chrome: ChromeTimeline.appendInstant(cue, pid: 1, to: &output)
    }
  }

  private static func encodeJSONLine(_ cue: Cue, into output: inout [UInt8]) {
    output.append(#"{"t":"#)
    NumberFormatting.appendInteger(cue.t.rawValue, to: &output)
    output.append(#","since":"#)
    NumberFormatting.appendInteger(cue.since.rawValue, to: &output)
    output.append(#","cue":""#)
    // Cue names are plain ASCII: nothing to escape.
    var name = cue.kind.name
    name.withUTF8 { output.append(contentsOf: $0) }
    output.append(UInt8(ascii: "\""))
    cue.kind.writeFields(JSONFields.self, to: &output)
    output.append("}\n")
  }

  /// Fields as JSON object members, each preceded by a comma: `,"key":value`.
  enum JSONFields: CueFieldWriter {
    static func write(_ key: StaticString, _ value: CueFieldValue, to output: inout [UInt8]) {
      output.append(UInt8(ascii: ","))
      output.append(UInt8(ascii: "\""))
      output.append(key.utf8Start, count: key.utf8CodeUnitCount)
      output.append(UInt8(ascii: "\""))
      output.append(UInt8(ascii: ":"))
      appendJSON(value, to: &output)
    }
  }

  static func appendJSON(_ value: CueFieldValue, to output: inout [UInt8]) {
    switch value {
    case .text(let text): JSONString.append(text, to: &output)
    case .name(let name): JSONString.append(name, to: &output)
    case .integer(let integer): NumberFormatting.appendInteger(integer, to: &output)
    case .decimal(let decimal): NumberFormatting.appendDecimal(decimal, to: &output)
    case .bool(let bool): output.append(bool ? "true" : "false")
    case .names(let names):
      output.append(UInt8(ascii: "["))
      for (index, name) in names.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        JSONString.append(name, to: &output)
      }
      output.append(UInt8(ascii: "]"))
    }
  }

  private static func encodeText(_ cue: Cue, into output: inout [UInt8]) {
    let start = output.count
    NumberFormatting.appendSeconds(cue.t.rawValue, to: &output)
    let used = output.count - start
    if used < 16 { output.insert(contentsOf: repeatElement(UInt8(ascii: " "), count: 16 - used), at: start) }
    output.append("  ")
    let nameStart = output.count
    output.append(contentsOf: cue.kind.name.utf8)
    pad(&output, from: nameStart, to: 22)
    cue.kind.writeFields(TextFields.self, to: &output)
    if cue.latency > .zero {
      output.append("  (+")
      NumberFormatting.appendMilliseconds(cue.latency.rawValue, to: &output)
      output.append(" ms)")
    }
    while output.last == UInt8(ascii: " ") { output.removeLast() }
    output.append(UInt8(ascii: "\n"))
  }

  /// Fields as ` key=value`, the logfmt way: every string, free text or name alike, bare when
  /// it is a plain word and JSON-quoted otherwise (empty, spaces, quotes, `=`, control bytes);
  /// lists in brackets, `[]` when empty.
  private enum TextFields: CueFieldWriter {
    static func write(_ key: StaticString, _ value: CueFieldValue, to output: inout [UInt8]) {
      output.append(UInt8(ascii: " "))
      output.append(key.utf8Start, count: key.utf8CodeUnitCount)
      output.append(UInt8(ascii: "="))
      switch value {
      case .text(let text), .name(let text): appendWord(text, to: &output)
      case .names(let names):
        output.append(UInt8(ascii: "["))
        for (index, name) in names.enumerated() {
          if index > 0 { output.append(UInt8(ascii: ",")) }
          appendWord(name, to: &output)
        }
        output.append(UInt8(ascii: "]"))
      case .integer, .decimal, .bool: appendJSON(value, to: &output)
      }
    }

    private static func appendWord(_ text: String, to output: inout [UInt8]) {
      let plain =
        !text.isEmpty
        && text.utf8.allSatisfy { byte in
          switch byte {
          case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
            UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "+"):
            true
          default: false
          }
        }
      if plain { output.append(contentsOf: text.utf8) } else { JSONString.append(text, to: &output) }
    }
  }

  private static func pad(_ output: inout [UInt8], from start: Int, to width: Int) {
    let used = output.count - start
    if used < width { output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: width - used)) }
  }
}
