import Foundation
import Testing

/// `crease import` and edit lists (SPEC 6): a sample the edit list never shows is not a frame,
/// checked against ffprobe's packets without its discard flag on ffmpeg-made movies (a 30 fps
/// test pattern, 90 frames of 512 in a 15,360 timescale, its one edit starting at media time
/// 1,024 in a movie timescale of 1,000).
@Suite("crease import: the frames an edit list shows")
struct ImportEditListTests {
  /// The test pattern as ffmpeg writes it, and its path.
  static func pattern(in directory: String) throws -> String {
    let path = "\(directory)/pattern.mp4"
    try ImportTests.ffmpeg(path, filter: "null")
    return path
  }

  /// `movie` with its first edit's duration (movie timescale) or media time replaced.
  static func editing(_ movie: String, to path: String, duration: UInt32? = nil, mediaTime: Int32? = nil)
    throws
  {
    var bytes = try #require(FileManager.default.contents(atPath: movie).map(Array.init))
    let elst = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("elst".utf8) })
    #expect(bytes[elst + 4] == 0, "ffmpeg writes version 0 edit lists")
    func put(_ value: UInt32, at offset: Int) {
      for index in 0..<4 {
        bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index)))
      }
    }
    // After the type: version and flags, the entry count, then the first entry's duration and
    // media time.
    if let duration { put(duration, at: elst + 12) }
    if let mediaTime { put(UInt32(bitPattern: mediaTime), at: elst + 16) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  static func imported(_ path: String, _ options: String...) throws -> [Int64] {
    let run = CreaseRun(["import", path] + options)
    #expect(run.status == .success, "\(run.error)")
    return try ImportTests.frames(run.output)
  }

  @Test("pre-roll before the edit is left out; --all-samples keeps it")
  func preRoll() throws {
    let directory = temporaryDirectory()
    let trimmed = "\(directory)/trimmed.mp4"
    // Copied from the keyframe before 0.6 s, with an edit that starts at 0.6 s.
    let run = try runProcess(
      "/usr/bin/ffmpeg",
      ["-v", "error", "-y", "-ss", "0.6", "-i", try Self.pattern(in: directory), "-c", "copy", trimmed])
    #expect(run.status == 0, "\(run.output)")
    let packets = try ImportTests.packets(trimmed)
    #expect(packets.filter(\.discarded).count == 3)
    #expect(try Self.imported(trimmed) == ImportTests.ffprobe(trimmed))
    #expect(try Self.imported(trimmed).first == 0)
    #expect(try Self.imported(trimmed, "--all-samples") == packets.map(\.pts))
  }

  @Test(
    "an edit that ends on a sample's start leaves it out; one that ends inside it shows it",
    arguments: [(1000 as UInt32, 30), (1010, 31)])
  func editEnd(milliseconds: UInt32, frames: Int) throws {
    let directory = temporaryDirectory()
    let edited = "\(directory)/edited.mp4"
    try Self.editing(try Self.pattern(in: directory), to: edited, duration: milliseconds)
    let shown = try Self.imported(edited)
    #expect(try shown == ImportTests.ffprobe(edited))
    #expect(shown.count == frames)
    #expect(try Self.imported(edited, "--all-samples").count == 90)
  }

  @Test("an empty edit first delays every frame")
  func emptyEdit() throws {
    let directory = temporaryDirectory()
    let delayed = "\(directory)/delayed.mp4"
    let run = try runProcess(
      "/usr/bin/ffmpeg",
      [
        "-v", "error", "-y", "-itsoffset", "0.5", "-i", try Self.pattern(in: directory), "-c", "copy",
        delayed,
      ])
    #expect(run.status == 0, "\(run.output)")
    let shown = try Self.imported(delayed)
    #expect(try shown == ImportTests.ffprobe(delayed))
    #expect(shown.first == 7_680)  // 0.5 s
    #expect(shown.count == 90)
  }

  @Test("an edit that starts inside a frame shows that frame; ffprobe drops it and moves the rest")
  func editStartsInsideAFrame() throws {
    let directory = temporaryDirectory()
    let edited = "\(directory)/inside.mp4"
    // Half a frame (256) into the first frame, at media time 1,024.
    try Self.editing(try Self.pattern(in: directory), to: edited, mediaTime: 1_280)
    let shown = try Self.imported(edited)
    // The difference the README states: ffprobe discards the frame the edit starts inside and
    // starts its times at the next one; Crease keeps it (on screen from -256) and keeps the
    // times the edit list gives, 256 later than ffprobe's.
    #expect(shown == [-256] + (try ImportTests.ffprobe(edited)).map { $0 + 256 })
  }

  @Test("a real movie whose edit starts inside its first frame: the same difference, and the same cues")
  func realEditInsideAFrame() throws {
    let movie = "\(repositoryRoot)/Traces/real/iibbibb_editlist_videoonly.mp4"
    let run = CreaseRun("import", movie)
    #expect(run.status == .success, "\(run.error)")
    // The edit starts half a frame (8,192 of 16,384) into the first frame.
    #expect(
      try ImportTests.frames(run.output) == [-8_192] + (try ImportTests.ffprobe(movie)).map { $0 + 8_192 })
    let expected = contents(of: "\(repositoryRoot)/Traces/real/iibbibb_editlist_videoonly.cues.jsonl")
    #expect(CreaseRun(["replay"], input: Array(run.output.utf8)).output == expected)
  }
}
