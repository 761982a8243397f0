import Crease
import CreaseCLI
import CreaseIO
import CreaseRecording
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Outputs under faults and odd files: every line verbatim, every write error reported, standard streams as files, links and permissions kept, messages well-formed.

@Suite("Faults: every line verbatim, every write error reported")
struct FaultTests {
  @Test("a rejected or late line keeps its CR LF in the rejects and late files")
  func carriageReturnsKept() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let input =
      #"{"t":100000000,"kind":"mark","label":"a"}"# + "\r\n"
      + #"{"t":1,"kind":"hinge","angle":1,"status":"clsed"}"#
      + "\r\n" + #"{"t":2,"kind":"mark","label":"late"}"# + "\r\n"
    let run = CreaseRun(
      ["replay", "--rejects", "\(directory)/r", "--late", "\(directory)/l", "-"], input: Array(input.utf8))
    #expect(run.status == .dataError)
    #expect(contents(of: "\(directory)/r") == #"{"t":1,"kind":"hinge","angle":1,"status":"clsed"}"# + "\r\n")
    #expect(contents(of: "\(directory)/l") == #"{"t":2,"kind":"mark","label":"late"}"# + "\r\n")
  }

  @Test("an angle too large for three decimals prints as the shortest exact number, not a clamped integer")
  func hugeAngle() {
    let run = CreaseRun(
      ["replay", "-"], input: Array((#"{"t":0,"kind":"hinge","angle":1e20,"status":"closed"}"# + "\n").utf8))
    #expect(run.output.contains(#""cue":"hinge.initial","status":"closed","angle":1e+20}"#))
  }

  /// A file even root may not read (a write-only sysctl): permission checks hold for it.
  static let unreadable = "/proc/sys/vm/drop_caches"

  @Test(
    "an input that cannot be read for its permissions is exit 66, like a missing one",
    .enabled(if: open(unreadable, O_RDONLY) == -1 && errno == EACCES))
  func unreadableInput() {
    for command in [["replay", Self.unreadable], ["check", Self.unreadable], ["stats", Self.unreadable]] {
      let run = CreaseRun(command)
      #expect(run.status == .noInput, "\(command)")
      #expect(run.error.contains("Permission denied"))
    }
  }

  @Test(
    "a write error on standard output is exit 74 with a message, on every command",
    arguments: [
      ["stats", tracePath("open-close.jsonl")], ["check", tracePath("open-close.jsonl")], ["scenarios"],
      ["--help"], ["--version"], ["help", "replay"], ["replay", tracePath("open-close.jsonl")],
      ["synth", "wobble"], ["replay", "--help"],
    ])
  func fullDisk(arguments: [String]) throws {
    let full = open("/dev/full", O_WRONLY)
    #expect(full >= 0)
    let error = MemorySink()
    let streams = StandardStreams(
      input: MemorySource([], name: "<stdin>"),
      output: FileSink(descriptor: full, name: "<stdout>", closesDescriptor: true), error: error)
    #expect(CreaseCommand.run(arguments, streams: streams) == .ioError)
    #expect(error.text.contains("No space left on device"))
  }
}

@Suite("Standard input and output are files like any other")
struct StandardStreamFileTests {
  static let cues = tracePath("every-kind.cues.jsonl")

  /// A copy of `every-kind.jsonl` in a fresh folder.
  func copy() throws -> (directory: String, trace: String) {
    let directory = temporaryDirectory()
    try write(contents(of: tracePath("every-kind.jsonl"))!, to: "\(directory)/t.jsonl")
    return (directory, "\(directory)/t.jsonl")
  }

  @Test(
    "an output that is the file standard input comes from is refused, the input untouched",
    arguments: [
      ["replay", "-", "-o", "T"], ["replay", "-", "--rejects", "T"], ["replay", "-", "--late", "T"],
      ["replay", "-", "-o", "/dev/null", "--summary-json", "T"], ["convert", "-", "-o", "T"],
      ["plot", "-", "-o", "T"],
    ])
  func standardInputIsAnInput(arguments: [String]) throws {
    let (_, trace) = try copy()
    let before = contents(of: trace)
    let run = CreaseRun(
      arguments.map { $0 == "T" ? trace : $0 }, input: try FileSource(path: trace), output: MemorySink())
    #expect(run.status == .usage)
    #expect(run.error.contains("is the same file as standard input"), "\(run.error)")
    #expect(contents(of: trace) == before)
  }

  @Test("standard output redirected onto an input is refused before anything is written")
  func standardOutputIsAnOutput() throws {
    let (_, trace) = try copy()
    let before = contents(of: trace)
    let appending = open(trace, O_WRONLY | O_APPEND)
    defer { close(appending) }
    let run = CreaseRun(
      ["replay", trace], input: MemorySource([]), output: FileSink(descriptor: appending, name: "<stdout>"))
    #expect(run.status == .usage)
    #expect(run.error.contains("Standard output is the same file as input"), "\(run.error)")
    #expect(contents(of: trace) == before)
  }

  /// The inode of `path`.
  func inode(_ path: String) -> UInt64 { FileIdentity(path: path)!.inode }

  @Test("a file on standard input is replaced atomically; a pipe's reader gets its output in place")
  func redirectedInputIsNotLive() throws {
    let (directory, trace) = try copy()
    let out = "\(directory)/out.jsonl"
    try write("old\n", to: out)
    let original = inode(out)
    let fromFile = CreaseRun(
      ["replay", "-", "-o", out], input: try FileSource(path: trace), output: MemorySink())
    #expect(fromFile.status == .success)
    #expect(contents(of: out) == contents(of: Self.cues))
    #expect(inode(out) != original, "renamed into place, not rewritten")
    let pipe = try #require(makePipe())
    let traceBytes = try #require(bytes(of: trace))
    #expect(writeDescriptor(pipe.write, traceBytes) == traceBytes.count)
    close(pipe.write)
    let replaced = inode(out)
    let fromPipe = CreaseRun(
      ["replay", "-", "-o", out],
      input: FileSource(descriptor: pipe.read, name: "<stdin>", closesDescriptor: true),
      output: MemorySink())
    #expect(fromPipe.status == .success)
    #expect(inode(out) == replaced, "a live run writes in place")
    #expect(contents(of: out) == contents(of: Self.cues))
  }
}

@Suite("Messages and outputs stay well-formed")
struct WellFormedTests {
  static let hostileStatus = #"{"t":1,"kind":"hinge","angle":1,"status":"clo\nsed\u001b[31m"}"#

  @Test(
    "a problem quoting control characters is one line, the characters escaped",
    arguments: ["replay", "check", "stats"])
  func escapedDiagnostics(command: String) {
    let run = CreaseRun([command, "-"], input: Array((Self.hostileStatus + "\n").utf8))
    let text = command == "check" ? run.output : run.error
    let problem = text.split(separator: "\n").filter { $0.contains("error:") }
    #expect(problem.count == 1, "\(text)")
    #expect(problem.first?.contains(#"'clo\nsed\u001B[31m'"#) == true, "\(text)")
    #expect(!text.utf8.contains(0x1B))
  }

  @Test("a usage error quoting an argument with control characters stays on its line")
  func escapedUsage() {
    let run = CreaseRun("replay", "--format", "te\nxt\u{1b}", tracePath("every-kind.jsonl"))
    #expect(run.status == .usage)
    #expect(run.error.hasPrefix("Error: ") && run.error.split(separator: "\n")[0].contains(#"te\nxt\u001B"#))
  }

  @Test("a label with control characters leaves the plot well-formed XML")
  func plotControlCharacters() throws {
    let directory = temporaryDirectory()
    try write(#"{"t":0,"kind":"mark","label":"a\u0001b\u001f<&>"}"# + "\n", to: "\(directory)/t.jsonl")
    let run = CreaseRun("plot", "\(directory)/t.jsonl", "-o", "\(directory)/t.svg")
    #expect(run.status == .success, "\(run.error)")
    let svg = try #require(bytes(of: "\(directory)/t.svg"))
    #expect(!svg.contains { $0 < 0x20 && $0 != 0x0A }, "no control byte but newlines")
    #expect(String(decoding: svg, as: UTF8.self).contains(#"a\u0001b\u001F&lt;&amp;&gt;"#))
    let parsed = try shell(
      #"python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' t.svg"#, in: directory)
    #expect(parsed.status == 0, "an XML parser reads it: \(parsed.output)")
  }

  @Test(
    "ill-formed UTF-8 that json-c's check lets through is refused at its byte",
    arguments: [[0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]] as [[UInt8]])
  func illFormedUTF8(sequence: [UInt8]) throws {
    let line = Array(#"{"t":0,"kind":"mark","label":"a"#.utf8) + sequence + Array("\"}\n".utf8)
    let run = CreaseRun(["replay", "-"], input: line)
    #expect(run.status == .dataError)
    #expect(run.error.contains("<stdin>:1:32: error: invalid JSON: invalid utf-8 string"), "\(run.error)")
    let directory = temporaryDirectory()
    let configuration =
      Array(#"{"hinge":{"boundaries":[{"name":""#.utf8) + sequence
      + Array(#"","below":1,"above":2}]}}"#.utf8)
    let sink = try FileSink(creatingFileAt: "\(directory)/c.json")
    try sink.write(configuration)
    try sink.flush()
    let refused = CreaseRun("replay", "-c", "\(directory)/c.json", tracePath("every-kind.jsonl"))
    #expect(refused.status == .configuration)
    #expect(refused.error.contains("invalid utf-8"), "\(refused.error)")
  }

  @Test("the line length limit does not count the CR of a CR LF line")
  func carriageReturnNotCounted() throws {
    let reader = LineReader(source: MemorySource("12345678\r\n123456789\r\n12345678\n"), maximumLineLength: 8)
    guard case .unsafeComplete(let first)? = try reader.next() else {
      Issue.record("the first line fits"); return
    }
    #expect(first.count == 8 && reader.endedWithCarriageReturn)
    guard case .overlong(let length)? = try reader.next() else {
      Issue.record("the second is too long"); return
    }
    #expect(length == 10)
    guard case .unsafeComplete(let third)? = try reader.next() else { Issue.record("the third fits"); return }
    #expect(third.count == 8)
  }
}

@Suite("Links, permissions, and large exports")
struct LinkAndModeTests {
  static let cues = contents(of: tracePath("every-kind.cues.jsonl"))

  @Test("-o naming a symbolic link replaces the file it points to and keeps the link")
  func throughLink() throws {
    let directory = temporaryDirectory()
    try write("old\n", to: "\(directory)/target")
    #expect(symlink("target", "\(directory)/link") == 0)
    let run = CreaseRun("replay", tracePath("every-kind.jsonl"), "-o", "\(directory)/link")
    #expect(run.status == .success)
    var status = stat()
    #expect(lstat("\(directory)/link", &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK)
    #expect(contents(of: "\(directory)/target") == Self.cues)
    #expect(try listing(directory) == ["link", "target"])
  }

  @Test(
    "a replaced file keeps its mode; a new one gets the umask's",
    arguments: [0o400, 0o640, 0o755] as [mode_t])
  func modeKept(mode: mode_t) throws {
    let directory = temporaryDirectory()
    try write("old\n", to: "\(directory)/out")
    chmod("\(directory)/out", mode)
    let run = CreaseRun("replay", tracePath("every-kind.jsonl"), "-o", "\(directory)/out")
    #expect(run.status == .success)
    var status = stat()
    #expect(stat("\(directory)/out", &status) == 0)
    #expect(status.st_mode & 0o7777 == mode)
    // Read, not set and restored: tests run in parallel and create files meanwhile.
    let umaskLine = contents(of: "/proc/self/status")?.split(separator: "\n").first { $0.hasPrefix("Umask:") }
    let mask = try #require(
      umaskLine.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) })
    _ = CreaseRun("replay", tracePath("every-kind.jsonl"), "-o", "\(directory)/new")
    #expect(stat("\(directory)/new", &status) == 0)
    #expect(status.st_mode & 0o7777 == 0o666 & ~mask)
  }

  @Test("each preview mask track of a Chrome export is named for its own stream")
  func maskTrackNames() throws {
    let lines = (0..<3).flatMap { index in
      [
        #"{"t":\#(index * 2),"kind":"input","stream":"s\#(index)","camera":"outerFront"}"#,
        #"{"t":\#(index * 2 + 1),"kind":"input","stream":"s\#(index)","camera":"innerFront"}"#,
      ]
    }
    let run = CreaseRun("replay", "-f", "chrome", "-", input: lines.joined(separator: "\n") + "\n")
    #expect(run.status == .success)
    for index in 0..<3 {
      #expect(
        run.output.contains(#""tid":\#(10 + index),"args":{"name":"preview mask s\#(index)"}"#),
        "\(run.output)")
    }
  }
}
