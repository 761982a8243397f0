import Crease
import CreaseCLI
import CreaseIO
import CreaseRecording
import Foundation
import Testing

@Suite("crease convert and binary traces")
struct ConvertTests {
  static let traces = [
    "every-kind", "disorder", "open-close", "wobble", "fold-while-recording", "flip-around", "dropped-frames",
    "synth-accessory", "synth-day",
  ]

  @Test(
    "replaying a trace's binary conversion, in either version, gives the same cues, byte for byte",
    arguments: Self.traces, BinaryTraceFormat.readableVersions)
  func sameCues(name: String, version: UInt16) throws {
    let directory = temporaryDirectory()
    let convert = CreaseRun(
      "convert", tracePath("\(name).jsonl"), "-o", "\(directory)/t.crtrace", "--binary-version", "\(version)")
    if version == 1 && name == "every-kind" {
      // Its streamEnd came with version 2: refused where it is, the rest written (it follows a
      // session stop, so the cues are the same without it).
      #expect(convert.status == .dataError)
      #expect(
        convert.error.contains(
          "every-kind.jsonl:21:1: error: cannot be written in binary version 1: a streamEnd event"),
        "\(convert.error)")
    } else {
      #expect(convert.status == .success)
    }
    let binary = CreaseRun("replay", "\(directory)/t.crtrace")
    #expect(binary.status == .success)
    #expect(binary.output == contents(of: tracePath("\(name).cues.jsonl")))
  }

  @Test("binary → JSONL → binary is byte-identical, and so is canonical JSONL → binary → JSONL")
  func roundTrips() throws {
    let directory = temporaryDirectory()
    _ = CreaseRun("convert", tracePath("synth-day.jsonl"), "-o", "\(directory)/a.crtrace")
    _ = CreaseRun("convert", "\(directory)/a.crtrace", "-o", "\(directory)/b.jsonl")
    _ = CreaseRun("convert", "\(directory)/b.jsonl", "-o", "\(directory)/c.crtrace")
    #expect(contents(of: "\(directory)/a.crtrace") == contents(of: "\(directory)/c.crtrace"))
    #expect(contents(of: "\(directory)/b.jsonl") == contents(of: tracePath("synth-day.jsonl")))
  }

  @Test("a header after a record is refused as replay refuses it, not carried into the output")
  func headerAfterRecords() throws {
    let directory = temporaryDirectory()
    let trace = "\(directory)/two.jsonl"
    try write(
      #"{"t":0,"kind":"mark","label":"a"}"# + "\n" + #"{"kind":"header","format":"crease-trace","version":1}"#
        + "\n",
      to: trace)
    for format in ["jsonl", "binary"] {
      let run = CreaseRun("convert", trace, "-o", "-", "--to", format)
      #expect(run.status == .dataError)
      #expect(run.error.contains("two.jsonl:2:1: error: a header must be the first record of a trace"))
      #expect(!run.output.contains("header") || format == "binary")
    }
    #expect(
      CreaseRun("convert", trace, "-o", "-", "--to", "jsonl").output == #"{"t":0,"kind":"mark","label":"a"}"#
        + "\n")
  }

  @Test("bad lines are reported and skipped; the rest converts")
  func badLines() {
    let directory = temporaryDirectory()
    let run = CreaseRun("convert", tracePath("bad-lines.jsonl"), "-o", "\(directory)/t.crtrace")
    #expect(run.status == .dataError)
    #expect(run.error.contains("bad-lines.jsonl:3:46: error: unknown status 'clsed'"))
    #expect(
      CreaseRun("replay", "\(directory)/t.crtrace").output == contents(of: tracePath("bad-lines.cues.jsonl")))
  }

  @Test("--binary-version picks the version written; version 2 is about half the size; others are refused")
  func binaryVersion() {
    let directory = temporaryDirectory()
    var sizes: [UInt16: Int] = [:]
    for version in BinaryTraceFormat.readableVersions {
      let path = "\(directory)/v\(version).crtrace"
      #expect(
        CreaseRun("convert", tracePath("synth-day.jsonl"), "-o", path, "--binary-version", "\(version)")
          .status == .success)
      let written = bytes(of: path) ?? []
      #expect(Array(written.prefix(12)) == BinaryTraceFormat.fileHeader(version: version))
      sizes[version] = written.count
    }
    #expect(sizes[2]! * 10 < sizes[1]! * 6, "\(sizes)")
    let refused = CreaseRun(
      "convert", tracePath("synth-day.jsonl"), "-o", "\(directory)/v3.crtrace", "--binary-version", "3")
    #expect(refused.status == .usage)
    #expect(
      refused.error.hasPrefix("Error: The value '3' is invalid for '--binary-version': expected 1 or 2."))
  }

  @Test(
    "a record the target's reader would refuse is reported and left out; the rest converts",
    arguments: [
      ("jsonl", "cannot be written as JSON Lines: a line of 1048603 bytes; the longest line read is 1048576"),
      (
        "1",
        "cannot be written in binary version 1: a record of 1048584 bytes; the binary format reads at most 1048576"
      ),
    ])
  func unwritable(target: String, message: String) throws {
    // A version 2 mark whose record is as long as the format allows: longer in the other two.
    var encoder = BinaryTraceEncoder()
    var bytes: [UInt8] = []
    let label = String(repeating: "a", count: BinaryTraceFormat.maximumRecordLength - 5)
    for event in [Event(t: 1, .mark(label: label)), Event(t: 2, .mark(label: "after"))] {
      try encoder.encode(.event(event), into: &bytes)
    }
    let path = try binaryTrace(bytes, header: encoder.fileHeader)
    let output = "\(temporaryDirectory())/out" + (target == "jsonl" ? ".jsonl" : ".crtrace")
    let run = CreaseRun("convert", path, "-o", output, "--binary-version", target == "jsonl" ? "2" : target)
    #expect(run.status == .dataError)
    #expect(run.error.contains(":1:1: error: \(message)"), "\(run.error)")
    let replay = CreaseRun("replay", output)
    #expect(replay.status == .success, "\(replay.error)")
    #expect(replay.output == #"{"t":2,"since":2,"cue":"mark","label":"after"}"# + "\n")
  }

  @Test("convert needs -o")
  func missingOutput() {
    let run = CreaseRun("convert", tracePath("every-kind.jsonl"))
    #expect(run.status == .usage)
    #expect(run.error.hasPrefix("Error: Missing expected option '-o <file>'."))
  }

  /// A binary trace of `records` (each already length-prefixed) behind a file header, version 1
  /// unless `header` says otherwise.
  func binaryTrace(_ body: [UInt8], header: [UInt8] = BinaryTraceFormat.fileHeader(version: 1)) throws
    -> String
  {
    let path = "\(temporaryDirectory())/t.crtrace"
    let sink = try FileSink(creatingFileAt: path)
    try sink.write(header + body)
    try sink.flush()
    return path
  }

  func record(_ body: [UInt8]) -> [UInt8] {
    let count = UInt32(body.count)
    return (0..<4).map { UInt8(truncatingIfNeeded: count >> (8 * $0)) } + body
  }

  /// `record` in version 1, which the hand-made damaged records below follow.
  func encoded(_ record: TraceRecord) throws -> [UInt8] {
    var encoder = BinaryTraceEncoder(version: 1)
    var bytes: [UInt8] = []
    try encoder.encode(record, into: &bytes)
    return bytes
  }

  @Test(
    "a damaged binary trace gets a clear error at the record and byte it concerns",
    arguments: [
      ("magic", "<file>:0:1: error: not a crease binary trace"),
      ("version", "<file>:0:1: error: unsupported binary trace version 9; this crease reads versions 1 to 2"),
      ("truncated", ":2:"),
      ("oversized", "exceeds the 1048576-byte limit"),
      ("kind", "unknown record kind 42"),
      ("negative", "'t' must not be negative"),
      ("status", "unknown status 7"),
      ("trailing", "1 unexpected byte(s) at the end of the record"),
      ("utf8", "a string is not valid UTF-8"),
      ("timescale", "has a bad timescale"),
    ])
  func damaged(kind: String, message: String) throws {
    let good = try encoded(.event(Event(t: 1, .mark(label: "ok"))))
    var header = BinaryTraceFormat.fileHeader(version: 1)
    var body: [UInt8]
    switch kind {
    case "magic": header[0] = UInt8(ascii: "X"); body = good
    case "version": header[8] = 9; body = good
    case "truncated": body = good + Array(good.dropLast(3))
    case "oversized": body = [0, 0, 0x20, 0] + [1]
    case "kind": body = record([42])
    case "negative": body = record([10] + [UInt8](repeating: 0xFF, count: 8))
    case "status":
      body = record([1] + [UInt8](repeating: 0, count: 8) + [1] + [UInt8](repeating: 0, count: 8) + [7])
    case "trailing": body = record(Array(good.dropFirst(4)) + [0])
    case "utf8": body = record([9] + [UInt8](repeating: 0, count: 8) + [2, 0, 0, 0, 0xC3, 0x28])
    default:
      body = record(
        [2] + [UInt8](repeating: 0, count: 8) + [5, 0, 0, 0] + Array("video".utf8)
          + [UInt8](repeating: 0, count: 12) + [0])
    }
    let path = try binaryTrace(body, header: header)
    let run = CreaseRun("replay", path)
    #expect(run.status == .dataError)
    #expect(run.error.replacingOccurrences(of: path, with: "<file>").contains(message), "\(run.error)")
  }

  @Test("a NUL in a header stream name is refused in the binary format too, as in JSON Lines")
  func nulStreamName() throws {
    let header = TraceHeader(nominalFrameRates: [StreamName(rawValue: "vi\u{0}deo"): 30])
    let path = try binaryTrace(try encoded(.header(header)) + encoded(.event(Event(t: 1, .mark(label: "a")))))
    let run = CreaseRun("replay", "--summary", path)
    #expect(run.status == .dataError)
    #expect(run.error.contains("a stream name in the header holds a NUL"))
    #expect(run.error.contains("2 read = 1 processed + 1 rejected"))
  }

  @Test("a damaged record is skipped; the records around it still count")
  func skipsOneRecord() throws {
    let path = try binaryTrace(
      try encoded(.event(Event(t: 1, .mark(label: "a")))) + record([42])
        + encoded(.event(Event(t: 2, .mark(label: "b")))))
    let run = CreaseRun("replay", "--summary", path)
    #expect(run.output.split(separator: "\n").count == 2)
    #expect(run.error.contains(":2:"))
    #expect(run.error.contains("3 read = 2 processed + 1 rejected"))
  }
}
