import CreaseCLI
import CreaseIO
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SPEC 7: nothing a user owns is destroyed.
@Suite("Outputs never destroy what a user owns")
struct OutputSafetyTests {
  static let trace = tracePath("every-kind.jsonl")

  /// A scratch folder with a copy of the every-kind trace, removed afterwards.
  func withCopy(_ body: (_ directory: String, _ trace: String) throws -> Void) throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    try write(contents(of: Self.trace)!, to: "\(directory)/t.jsonl")
    try body(directory, "\(directory)/t.jsonl")
  }

  @Test(
    "an output that is the same file as an input is refused before anything is written",
    arguments: [
      ["replay", "T", "-o", "T"], ["convert", "T", "-o", "T"], ["plot", "T", "-o", "T"],
      ["replay", "T", "--rejects", "T"], ["replay", "T", "--late", "./T"],
    ])
  func outputIsInput(arguments: [String]) throws {
    try withCopy { directory, trace in
      let before = contents(of: trace)
      let run = CreaseRun(arguments.map { $0 == "T" ? trace : $0 == "./T" ? "\(directory)/./t.jsonl" : $0 })
      #expect(run.status == .usage)
      #expect(run.error.contains("is the same file as input"))
      #expect(contents(of: trace) == before, "the input is intact")
    }
  }

  @Test("two outputs that are the same file are refused")
  func outputsCollide() throws {
    try withCopy { directory, trace in
      let run = CreaseRun("replay", "--rejects", "\(directory)/x", "--late", "\(directory)/x", trace)
      #expect(run.status == .usage)
      #expect(run.error.contains("'--late \(directory)/x' is the same file as '--rejects \(directory)/x'"))
      #expect(contents(of: "\(directory)/x") == nil, "nothing was created")
    }
  }

  @Test("a usage error is reported before any output is opened")
  func validateBeforeOpening() throws {
    try withCopy { directory, trace in
      try write("precious\n", to: "\(directory)/out")
      let run = CreaseRun("replay", trace, "-o", "\(directory)/out", "--speed", "abc")
      #expect(run.status == .usage)
      #expect(contents(of: "\(directory)/out") == "precious\n")
    }
  }

  @Test("-o replaces a file whole: the old one stays until the new one is complete, with no leftovers")
  func replacedWhole() throws {
    try withCopy { directory, trace in
      try write("old\n", to: "\(directory)/out")
      do {
        let file = try ReplacedFile(path: "\(directory)/out")
        try file.sink.write("partial")
        try file.sink.flush()
        #expect(contents(of: "\(directory)/out") == "old\n", "not replaced before commit")
      }
      #expect(contents(of: "\(directory)/out") == "old\n", "an uncommitted file is dropped")
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["out", "t.jsonl"])
      let run = CreaseRun("replay", trace, "-o", "\(directory)/out")
      #expect(run.status == .success)
      #expect(contents(of: "\(directory)/out") == contents(of: tracePath("every-kind.cues.jsonl")))
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["out", "t.jsonl"])
    }
  }

  @Test("a replaced file's other names keep its old bytes, and its mode passes to the new one")
  func replacedFileLinks() throws {
    try withCopy { directory, _ in
      try write("old\n", to: "\(directory)/out")
      #expect(chmod("\(directory)/out", 0o640) == 0)
      #expect(link("\(directory)/out", "\(directory)/kept") == 0)
      let file = try ReplacedFile(path: "\(directory)/out")
      try file.sink.write("new\n")
      try file.commit()
      #expect(contents(of: "\(directory)/out") == "new\n")
      #expect(contents(of: "\(directory)/kept") == "old\n", "the old file lives on under its other name")
      var status = stat()
      #expect(stat("\(directory)/out", &status) == 0 && status.st_mode & 0o777 == 0o640)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["kept", "out", "t.jsonl"])
    }
  }

  @Test("a directory put where the replaced file was fails the commit and stays where it is")
  func replacedFileBecameDirectory() throws {
    try withCopy { directory, _ in
      try write("old\n", to: "\(directory)/out")
      let file = try ReplacedFile(path: "\(directory)/out")
      try file.sink.write("new\n")
      #expect(unlink("\(directory)/out") == 0 && mkdir("\(directory)/out", 0o755) == 0)
      try write("theirs\n", to: "\(directory)/out/inside")
      #expect(throws: IOError.self) { try file.commit() }
      #expect(contents(of: "\(directory)/out/inside") == "theirs\n", "the directory was not moved")
    }
    // Dropped after the failed commit, the temporary file is removed too.
    try withCopy { directory, _ in
      try write("old\n", to: "\(directory)/out")
      do {
        let file = try ReplacedFile(path: "\(directory)/out")
        #expect(unlink("\(directory)/out") == 0 && mkdir("\(directory)/out", 0o755) == 0)
        #expect(throws: IOError.self) { try file.commit() }
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["out", "t.jsonl"])
      #expect(try FileManager.default.contentsOfDirectory(atPath: "\(directory)/out") == [])
    }
  }

  @Test("SIGINT during a replay leaves the old output, and no temporary file")
  func interrupted() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    try write("old\n", to: "\(directory)/out")
    #expect(mkfifo("\(directory)/in", 0o600) == 0)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: creaseExecutable)
    process.arguments = ["replay", "\(directory)/in", "-o", "\(directory)/out"]
    try process.run()
    // The replay blocks reading the FIFO; once a writer sent a line, it has opened its output.
    let writer = open("\(directory)/in", O_WRONLY)
    #expect(writer >= 0)
    let line = Array((#"{"t":0,"kind":"mark","label":"a"}"# + "\n").utf8)
    #expect(writeDescriptor(writer, line) == line.count)
    for _ in 0..<200 where try FileManager.default.contentsOfDirectory(atPath: directory).count < 3 {
      usleep(10_000)
    }
    process.interrupt()
    process.waitUntilExit()
    close(writer)
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(contents(of: "\(directory)/out") == "old\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["in", "out"])
  }
}
