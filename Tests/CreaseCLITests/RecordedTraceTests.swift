import Crease
import CreaseIO
import CreaseRecording
import CreaseTesting
import Foundation
import Testing

/// An app's test replays a recording with `CreaseTesting` alone (no Foundation, no json-c): the
/// same cues as `crease replay`, and a line Crease does not write refused where it is.
@Suite("RecordedTrace and TraceDecoder: recordings replayed in an app's tests")
struct RecordedTraceTests {
  static let traces = [
    "every-kind", "open-close", "wobble", "fold-while-recording", "flip-around", "dropped-frames",
    "synth-accessory", "synth-day",
  ]

  @Test("a bundled trace, as Crease writes it, replays to crease replay's cues", arguments: traces)
  func sameCues(name: String) throws {
    // `convert` writes each line as TraceEncoder (and so TraceRecorder) does.
    let recording = CreaseRun("convert", tracePath("\(name).jsonl"), "-o", "-", "--to", "jsonl")
    #expect(recording.status == .success, "\(recording.error)")
    let cues = try RecordedTrace.cues(of: Array(recording.output.utf8), name: "\(name).jsonl")
    var lines: [UInt8] = []
    for cue in cues { CueFormat.jsonl.encode(cue, into: &lines) }
    #expect(String(decoding: lines, as: UTF8.self) == contents(of: tracePath("\(name).cues.jsonl")))
  }

  @Test(
    "a line in another spelling is refused at its line and column, for crease check to read",
    arguments: [
      (#"{"t":0, "kind":"mark","label":"a"}"#, 7, "expected"),
      (#"{"t":0,"kind":"mark","label":"a","note":1}"#, 33, "expected }"),
      (#"{"t":0,"kind":"hinge","angle":10,"status":"clsed"}"#, 43, "unknown name 'clsed'"),
      (#"{"t":-5,"kind":"end"}"#, 6, "'t' must not be negative"),
      (#"{"t":0,"kind":"mark","label":"a\u00"}"#, 34, "four hexadecimal digits"),
      (#"{"kind":"header","format":"crease-trace","version":1}"#, 1, "a header is only the first line"),
    ])
  func refused(line: String, column: Int, message: String) {
    let text = #"{"t":0,"kind":"mark","label":"first"}"# + "\n" + line + "\n"
    #expect {
      try TraceDecoder.records(in: Array(text.utf8), name: "rec.jsonl")
    } throws: { error in
      guard let failure = error as? TraceDecoder.Failure else { return false }
      return failure.line == 2 && failure.column == column && failure.message.contains(message)
        && failure.description.hasPrefix("rec.jsonl:2:\(column): error: ")
    }
  }
}
