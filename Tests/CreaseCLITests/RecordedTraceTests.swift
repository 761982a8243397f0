import Crease
import CreaseIO
import CreaseRecording
import CreaseRecordingFile
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

/// The recorder's sink to a file, as an app on iOS records into its container: POSIX calls, no
/// Foundation; a file of the same name is never written over.
@Suite("FileTraceSink: a recording to a file")
struct FileTraceSinkTests {
  @Test("a recorder writes to a new file that crease check takes and RecordedTrace replays")
  func recordToFile() throws {
    let path = "\(temporaryDirectory())/opening.jsonl"
    var recorder = try TraceRecorder(
      sink: try FileTraceSink(creatingFileAt: path), header: TraceHeader(device: "iPhone Fold"))
    try recorder.hinge(.degrees(2), status: .closed, at: .zero)
    try recorder.hinge(.degrees(40), status: .partiallyOpen, at: .milliseconds(100))
    try recorder.finish(at: .milliseconds(600))
    try recorder.sink.close()
    let check = CreaseRun("check", path)
    #expect(check.status == .success, "\(check.error)")
    let cues = try RecordedTrace.cues(of: Array(try #require(contents(of: path)).utf8), name: path)
    #expect(cues.contains { $0.kind == .hingeStatus(from: .closed, to: .partiallyOpen) })
  }

  @Test("a file that is there already is refused, and kept as it was")
  func existingFile() throws {
    let path = "\(temporaryDirectory())/mine.jsonl"
    try write("the user's own\n", to: path)
    #expect {
      try FileTraceSink(creatingFileAt: path)
    } throws: { error in
      (error as? FileTraceSink.Failure).map { $0.operation == "open" && $0.code == EEXIST } ?? false
    }
    #expect(contents(of: path) == "the user's own\n")
  }

  @Test("a write that fails is the recorder's typed failure, with the sink's error in it")
  func failedWrite() throws {
    let sink = FileTraceSink(writingTo: -1)
    #expect {
      _ = try TraceRecorder(sink: sink, header: TraceHeader())
    } throws: { error in
      guard case .sink(let failure)? = error as? TraceRecorder<FileTraceSink>.Failure else { return false }
      return failure.operation == "write" && failure.code == EBADF
        && failure.description.contains("descriptor -1")
    }
  }
}
