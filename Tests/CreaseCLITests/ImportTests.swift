import Foundation
import Testing

/// `crease import`: real recordings and ffmpeg-made movies, each frame's pts checked against
/// ffprobe (Debian `ffmpeg`, which `make test` installs), and what the replay makes of them.
@Suite("crease import: movies and timestamp lists as traces")
struct ImportTests {
  static let realRecordings = [
    "sample_android_slow_motion.mp4", "sample_sef_slow_motion.mp4", "sample_sef_super_slow_motion.mp4",
    "dolbyVision-hdr.MOV", "bbb_176x144_128kbps_15fps_h263.3gp",
    "sample_edit_list_only_preroll_sync_sample.mp4",
  ]

  /// Each `frame` line's pts value (in its timescale) and stream, in trace order.
  static func frames(_ trace: String, stream: String = "video") throws -> [Int64] {
    try trace.split(separator: "\n").compactMap { line in
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      guard object["kind"] as? String == "frame", object["stream"] as? String == stream else { return nil }
      if let pts = object["pts"] as? [String: Any] { return (pts["value"] as? NSNumber)?.int64Value }
      return (object["pts"] as? NSNumber)?.int64Value
    }
  }

  /// A packet as ffprobe reads it: its pts, where its data lies, and whether the edit list
  /// discards it (ffprobe's `D` flag: never shown).
  struct Packet {
    var pts: Int64
    var position: Int
    var size: Int
    var discarded: Bool
  }

  /// A video stream's packets (the first unless told) as ffprobe reads them, in presentation
  /// order.
  static func packets(_ path: String, videoStream: Int = 0) throws -> [Packet] {
    let run = try runProcess(
      "/usr/bin/ffprobe",
      [
        "-v", "error", "-select_streams", "v:\(videoStream)", "-show_entries", "packet=pts,pos,size,flags",
        "-of",
        "csv=p=0",
        path,
      ])
    #expect(run.status == 0, "\(run.output)")
    return run.output.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields.count == 4, let pts = Int64(fields[0]), let position = Int(fields[1]),
        let size = Int(fields[2])
      else { return nil }
      return Packet(pts: pts, position: position, size: size, discarded: fields[3].contains("D"))
    }.sorted { $0.pts < $1.pts }
  }

  /// The pts of the packets ffprobe shows (not discarded), in presentation order.
  static func ffprobe(_ path: String, videoStream: Int = 0) throws -> [Int64] {
    try packets(path, videoStream: videoStream).filter { !$0.discarded }.map(\.pts)
  }

  /// Makes a movie with ffmpeg from a 30 fps test pattern; `filter` picks the frames kept.
  static func ffmpeg(_ path: String, filter: String, arguments: [String] = []) throws {
    let run = try runProcess(
      "/usr/bin/ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=rate=30:duration=3:size=64x64", "-vf", filter,
        "-fps_mode", "passthrough", "-c:v", "libx264", "-bf", "2", "-g", "15",
      ] + arguments + [path])
    #expect(run.status == 0, "\(run.output)")
  }

  /// The gaps' `missing` counts in the replay of `trace`.
  static func gaps(_ trace: String) throws -> [Int] {
    let cues = CreaseRun(["replay"], input: Array(trace.utf8)).output
    return try cues.split(separator: "\n").compactMap { line in
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return object["cue"] as? String == "camera.gap" ? object["missing"] as? Int : nil
    }
  }

  @Test(
    "each real recording: every frame's pts is ffprobe's, and its replay gives the committed cues",
    arguments: realRecordings)
  func realRecording(name: String) throws {
    let path = "\(repositoryRoot)/Traces/real/\(name)"
    let run = CreaseRun("import", path)
    #expect(run.status == .success, "\(run.error)")
    #expect(try Self.frames(run.output) == Self.ffprobe(path))
    let expected = "\(repositoryRoot)/Traces/real/\(name.split(separator: ".")[0]).cues.jsonl"
    #expect(CreaseRun(["replay"], input: Array(run.output.utf8)).output == contents(of: expected))
  }

  @Test(
    "a movie's shorter track ends with a streamEnd, not a stall, in JSON Lines and binary alike; version 1 cannot hold it"
  )
  func shorterTrack() throws {
    let directory = temporaryDirectory()
    let path = "\(directory)/two-tracks.mp4"
    let run = try runProcess(
      "/usr/bin/ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=rate=30:duration=3:size=64x64", "-f", "lavfi",
        "-i",
        "testsrc=rate=30:duration=1:size=64x64", "-map", "0:v", "-map", "1:v", "-c:v", "libx264", path,
      ])
    #expect(run.status == 0, "\(run.output)")
    let trace = CreaseRun("import", path, "-o", "\(directory)/two.jsonl")
    #expect(trace.status == .success, "\(trace.error)")
    let lines = try #require(contents(of: "\(directory)/two.jsonl")).split(separator: "\n")
    #expect(try Self.frames(lines.joined(separator: "\n")) == Self.ffprobe(path))
    #expect(
      try Self.frames(lines.joined(separator: "\n"), stream: "video2") == Self.ffprobe(path, videoStream: 1))
    // The shorter track's end comes right after its last frame; the longer one's is the trace's.
    let ends = lines.indices.filter { lines[$0].contains(#""kind":"streamEnd""#) }
    #expect(ends.count == 1)
    let end = try #require(ends.first)
    #expect(lines[end].hasSuffix(#""stream":"video2"}"#))
    #expect(lines[end - 1].contains(#""stream":"video2""#) && lines[end - 1].contains(#""kind":"frame""#))
    let time = { (line: Substring) in line.split(separator: ",")[0].dropFirst(5) }
    #expect(time(lines[end]) == time(lines[end - 1]))
    let cues = CreaseRun("replay", "\(directory)/two.jsonl", "-f", "text")
    #expect(cues.status == .success, "\(cues.error)")
    #expect(!cues.output.contains("camera.stall"), "\(cues.output)")
    #expect(CreaseRun("import", path, "-o", "\(directory)/two.crtrace").status == .success)
    #expect(CreaseRun("replay", "\(directory)/two.crtrace", "-f", "text").output == cues.output)
    let version1 = CreaseRun(
      "convert", "\(directory)/two.jsonl", "-o", "\(directory)/v1.crtrace", "--binary-version", "1")
    #expect(version1.status == .dataError)
    #expect(
      version1.error.contains(
        "two.jsonl:\(end + 1):1: error: cannot be written in binary version 1: a streamEnd"))
  }

  @Test(
    "ffmpeg-made movies: holes reported with their missing frames, B-frames in presentation order",
    arguments: [("mp4", [String]()), ("mov", []), ("mp4", ["-movflags", "frag_keyframe+empty_moov"])])
  func holes(container: String, arguments: [String]) throws {
    let path = temporaryDirectory() + "/holes.\(container)"
    // Frames 10 to 12 and 40 are not there; the others keep their timestamps.
    try Self.ffmpeg(path, filter: "select='not(between(n\\,10\\,12))*not(eq(n\\,40))'", arguments: arguments)
    let trace = CreaseRun("import", path).output
    #expect(try Self.frames(trace) == Self.ffprobe(path))
    #expect(try Self.frames(trace).count == 86)
    #expect(try Self.gaps(trace) == [3, 1])
  }

  @Test("a rate change (30 to 15 fps) is no gap")
  func rateChange() throws {
    let path = temporaryDirectory() + "/rate.mov"
    try Self.ffmpeg(path, filter: "select='lt(n\\,30)+gte(n\\,30)*not(mod(n\\,2))'")
    let trace = CreaseRun("import", path, "--camera", "backWide", "--stream", "main").output
    #expect(try Self.frames(trace, stream: "main") == Self.ffprobe(path))
    #expect(trace.contains(#""camera":"backWide""#))
    #expect(try Self.gaps(trace) == [])
  }

  @Test("a real 20 Hz camera log: its 10 Hz run is a rate change, the hole soon after 20 Hz returns a gap")
  func realTwentyHertzLog() throws {
    let run = CreaseRun("import", "\(repositoryRoot)/Traces/real/euroc-v2-03-cam0-slice.txt")
    #expect(run.status == .success, "\(run.error)")
    #expect(try Self.frames(run.output).count == 96)
    let cues = CreaseRun(["replay"], input: Array(run.output.utf8)).output
    #expect(cues == contents(of: "\(repositoryRoot)/Traces/real/euroc-v2-03-cam0-slice.cues.jsonl"))
    // Three frames after the camera is back at 20 Hz, one frame is missing: the 100 ms delta is
    // a gap at the new rate, not the old 10 Hz one.
    #expect(try Self.gaps(run.output) == [1])
    #expect(cues.contains(#""from":1413394990255760384,"to":1413394990355760384,"missing":1"#))
  }

  @Test("a timestamp list: nanoseconds, seconds read exactly, comments; a bad line named with its place")
  func timestampList() throws {
    let directory = temporaryDirectory()
    try write(
      "# frame times\n0\n0.033333333\n66666667  # ns\n\n0.2\n0.233333333\n0.266666666\n",
      to: "\(directory)/times.txt")
    let run = CreaseRun("import", "\(directory)/times.txt")
    #expect(run.status == .success, "\(run.error)")
    #expect(
      try Self.frames(run.output) == [0, 33_333_333, 66_666_667, 200_000_000, 233_333_333, 266_666_666])
    #expect(try Self.gaps(run.output) == [3])
    try write("0\n0.0333333333\n", to: "\(directory)/bad.txt")
    let bad = CreaseRun("import", "\(directory)/bad.txt")
    #expect(bad.status == .dataError)
    #expect(bad.error.contains("\(directory)/bad.txt:2:1: error: '0.0333333333' is not a timestamp"))
  }

  @Test(
    "a damaged movie gets an error with the box and the byte, never a trap",
    arguments: [
      ("cut inside moov", "at byte 800: the file ends here, inside its moov box (which starts at byte 32)"),
      ("count", "claims 4294967295 entries"),
      ("size", "claims 4096 bytes"),
      ("ftyp", "no moov box: not a movie"),
    ])
  func damaged(kind: String, message: String) throws {
    let path = temporaryDirectory() + "/damaged.mp4"
    var movie = try #require(bytes(of: "\(repositoryRoot)/Fuzz/Corpus/Movie/bframes.mp4"))
    func find(_ type: String) -> Int {
      (0..<movie.count - 4).first { Array(movie[$0..<$0 + 4]) == Array(type.utf8) }!
    }
    switch kind {
    case "cut inside moov": movie.removeLast(movie.count - 800)
    case "count":
      // stts's entry count, after its type, version and flags.
      let stts = find("stts")
      movie.replaceSubrange((stts + 8)..<(stts + 12), with: [0xFF, 0xFF, 0xFF, 0xFF])
    case "size":
      // stbl's size, the four bytes before its type, made larger than minf holds.
      let stbl = find("stbl") - 4
      movie.replaceSubrange(stbl..<(stbl + 4), with: [0, 0, 0x10, 0])
    default: movie = Array(movie[..<Int(movie[3])])  // the first box alone
    }
    try Data(movie).write(to: URL(fileURLWithPath: path))
    let run = CreaseRun("import", path)
    #expect(run.status == .dataError)
    #expect(run.error.contains("\(path): error: ") && run.error.contains(message), "\(run.error)")
    #expect(run.output.isEmpty)
  }
}
