import Foundation
import Testing

/// Movies known by their content (SPEC 6): `import` reads a movie whatever its name, and the
/// trace commands given one say so in one line that names `crease import`.
@Suite("crease import: movies known by their first box")
struct ImportContentTests {
  @Test("a movie named .3gp, .qt or nothing, or on standard input, is imported as a movie")
  func anyName() throws {
    let directory = temporaryDirectory()
    let movie = "\(directory)/clip.mp4"
    try ImportTests.ffmpeg(movie, filter: "null", arguments: ["-movflags", "frag_keyframe+empty_moov"])
    let expected = try ImportTests.ffprobe(movie)
    let bytes = try #require(FileManager.default.contents(atPath: movie))
    for name in ["clip.3gp", "clip.3g2", "clip.qt", "clip.m4s", "clip"] {
      try bytes.write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
      let run = CreaseRun("import", "\(directory)/\(name)")
      #expect(run.status == .success, "\(name): \(run.error)")
      #expect(try ImportTests.frames(run.output) == expected, "\(name)")
    }
    let piped = CreaseRun(["import", "-"], input: Array(bytes))
    #expect(piped.status == .success, "\(piped.error)")
    #expect(try ImportTests.frames(piped.output) == expected)
  }

  @Test("text named .mp4 is a timestamp list, and a binary trace is refused as no recording")
  func notMovies() throws {
    let directory = temporaryDirectory()
    try "0\n0.033333333\n".write(toFile: "\(directory)/times.mp4", atomically: true, encoding: .utf8)
    let list = CreaseRun("import", "\(directory)/times.mp4")
    #expect(list.status == .success, "\(list.error)")
    #expect(try ImportTests.frames(list.output) == [0, 33_333_333])
    let converted = CreaseRun("convert", tracePath("open-close.jsonl"), "-o", "\(directory)/trace.crtrace")
    #expect(converted.status == .success, "\(converted.error)")
    let binary = CreaseRun("import", "\(directory)/trace.crtrace")
    #expect(binary.status == .dataError)
    #expect(binary.error.contains("a Crease binary trace, not a recording"))
  }

  @Test(
    "replay, check, stats, plot and convert given a movie say so in one line (exit 65)",
    arguments: ["replay", "check", "stats", "plot", "convert"])
  func traceCommandsRefuseMovies(command: String) throws {
    let movie = "\(repositoryRoot)/Traces/real/dolbyVision-hdr.MOV"
    let output =
      ["convert": ["-o", "-"], "plot": ["-o", temporaryDirectory() + "/plot.svg"]][command] ?? []
    let run = CreaseRun([command, movie] + output)
    #expect(run.status == .dataError)
    #expect(
      run.error
        == "\(movie): error: a QuickTime or MP4 movie, not a trace: 'crease import \(movie)' makes it one\n")
    #expect(run.output.isEmpty)
    let piped = CreaseRun(
      [command, "-"] + output, input: Array(try #require(FileManager.default.contents(atPath: movie))))
    #expect(piped.status == .dataError)
    #expect(
      piped.error.contains("a QuickTime or MP4 movie, not a trace: 'crease import -' makes it one"),
      "\(piped.error)")
  }
}
