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
    case .jsonl:
      output.append(writingAtMost: Self.jsonLineCapacity(cue)) { Self.encodeJSONLine(cue, to: &$0) }
    case .text: Self.encodeText(cue, into: &output)
    case .chrome: ChromeTimeline.appendInstant(cue, pid: 1, to: &output)
    }
  }

  /// The most bytes ``encodeJSONLine(_:to:)`` writes for `cue`: its text
  /// (``CueKind/textByteCount``) escaped at its longest, and ``jsonLineCapacityBeyondText``
  /// for the rest.
  /// - Complexity: O(1).
  // A bound, not the line's exact capacity: working that out field by field, as
  // `jsonFieldsCapacity` does, cost about 80 instructions a cue line (callgrind, the bench's
  // day trace), and the writer needs only room enough.
  package static func jsonLineCapacity(_ cue: Cue) -> Int {
    jsonLineCapacityBeyondText + UnsafeByteWriter.jsonStringCapacity(utf8Count: cue.kind.textByteCount)
  }

  /// The most bytes a JSON cue line takes besides its text: `{"t":`, `,"since":`, `,"cue":"`,
  /// the name, `"`, `}\n`, the two times, and every other field. The kind with the most,
  /// `camera.gap` with every number at its longest, takes 215 (`WriteCapacityTests` writes
  /// each kind at its longest against this). Tuning: computed-constant.
  package static var jsonLineCapacityBeyondText: Int { 256 }

  /// The most bytes `kind.writeFields(JSONFields.self, to:)` writes.
  static func jsonFieldsCapacity(_ kind: CueKind) -> Int {
    if case .mark(let label) = kind {
      return UnsafeByteWriter.jsonStringCapacity(utf8Count: label.utf8.count) + #","label":"#.utf8.count
    }
    var capacity = 0
    kind.writeFields(JSONFieldCapacity.self, to: &capacity)
    return capacity
  }

  /// Writes `cue` as one JSON line, at most ``jsonLineCapacity(_:)`` bytes.
  package static func encodeJSONLine(_ cue: Cue, to writer: inout UnsafeByteWriter) {
    writer.write(#"{"t":"#)
    let time = writer.cursor
    writer.writeInteger(cue.t.rawValue)
    // Safe because the digits were just written, and the writer's memory does not move while
    // the line is encoded.
    let timeDigits = UnsafeRawBufferPointer(start: time, count: writer.cursor - time)
    writer.write(#","since":"#)
    // Most cues take effect at the time of the input they reflect: its digits are copied.
    if cue.since == cue.t { writer.write(timeDigits) } else { writer.writeInteger(cue.since.rawValue) }
    writer.write(#","cue":""#)
    // Cue names are plain ASCII: nothing to escape.
    writer.write(cue.kind.tag.nameLiteral)
    writer.write(UInt8(ascii: "\""))
    // The kinds of one field that fill most lines, marks echoed from a trace of marks and a
    // motion's progress (two cues in three of a working day), write it here, without the call
    // into the field writer and its switch over every kind (callgrind: about 40 instructions a
    // mark less; the day trace 3 an event). `CueFormatTests` checks each against the writer.
    switch cue.kind {
    case .mark(let label):
      writer.write(#","label":"#)
      writer.writeJSONString(label)
    case .hingeProgress(let value):
      writer.write(#","value":"#)
      writer.writeDecimal(value)
    default:
      cue.kind.writeFields(JSONFields.self, to: &writer)
    }
    writer.write("}\n")
  }

  /// Fields as JSON object members, each preceded by a comma: `,"key":value`.
  enum JSONFields: CueFieldWriter {
    // Inlined into each field of `CueKind.writeFields`, with `writeJSON`: as calls, a field's
    // value went through them as an enum, copied (callgrind: -2 instructions an event, and
    // -5 more once the fields' `body` is inlined too). Tuning: hot-inline.
    @inline(__always)
    static func write(_ key: StaticString, _ value: CueFieldValue, to writer: inout UnsafeByteWriter) {
      writer.write(UInt8(ascii: ","))
      writer.write(UInt8(ascii: "\""))
      writer.write(key)
      writer.write(UInt8(ascii: "\""))
      writer.write(UInt8(ascii: ":"))
      writeJSON(value, to: &writer)
    }
  }

  /// What ``JSONFields`` writes at most for each field, added up.
  private enum JSONFieldCapacity: CueFieldWriter {
    static func write(_ key: StaticString, _ value: CueFieldValue, to capacity: inout Int) {
      capacity += key.utf8CodeUnitCount + 4
      switch value {
      case .text(let text), .name(let text):
        capacity += UnsafeByteWriter.jsonStringCapacity(utf8Count: text.utf8.count)
      case .integer: capacity += UnsafeByteWriter.integerCapacity
      // Room for the unit a viewer's key adds too (``ChromeTimeline``'s `fromNs`).
      case .nanoseconds: capacity += UnsafeByteWriter.integerCapacity + 2
      case .decimal: capacity += UnsafeByteWriter.decimalCapacity
      case .bool: capacity += 5
      case .names(let names):
        capacity += 2
        for name in names { capacity += UnsafeByteWriter.jsonStringCapacity(utf8Count: name.utf8.count) + 1 }
      }
    }
  }

  @inline(__always)
  static func writeJSON(_ value: CueFieldValue, to writer: inout UnsafeByteWriter) {
    switch value {
    case .text(let text): writer.writeJSONString(text)
    case .name(let name): writer.writeJSONString(name)
    case .integer(let integer), .nanoseconds(let integer): writer.writeInteger(integer)
    case .decimal(let decimal): writer.writeDecimal(decimal)
    case .bool(let bool): writer.write(bool ? "true" : "false")
    case .names(let names):
      writer.write(UInt8(ascii: "["))
      for (index, name) in names.enumerated() {
        if index > 0 { writer.write(UInt8(ascii: ",")) }
        writer.writeJSONString(name)
      }
      writer.write(UInt8(ascii: "]"))
    }
  }

  private static func encodeText(_ cue: Cue, into output: inout [UInt8]) {
    let start = output.count
    NumberFormatting.appendSeconds(cue.t.rawValue, to: &output)
    let used = output.count - start
    if used < 16 { output.insert(contentsOf: repeatElement(UInt8(ascii: " "), count: 16 - used), at: start) }
    output.append("  ")
    let nameStart = output.count
    let name = cue.kind.tag.nameLiteral
    output.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
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
      case .nanoseconds(let nanoseconds):
        // In seconds, as `t` is at the start of the line.
        NumberFormatting.appendSeconds(nanoseconds, to: &output)
      case .integer, .decimal, .bool:
        output.append(writingAtMost: UnsafeByteWriter.decimalCapacity) { CueFormat.writeJSON(value, to: &$0) }
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

extension LineOutput {
  /// Writes `cue` as one line in `format`, a line format (Chrome's events need the timeline's
  /// state).
  mutating func write(_ cue: Cue, in format: CueFormat) throws {
    if format == .jsonl {
      // The common case writes straight into the output buffer.
      try write(cue, at: cue.t, atMost: CueFormat.jsonLineCapacity(cue)) { cue, writer in
        CueFormat.encodeJSONLine(cue, to: &writer)
      }
    } else {
      try write(at: cue.t) { format.encode(cue, into: &$0) }
    }
  }
}
