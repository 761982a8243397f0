import CreaseIO
import CreaseImport
import CreaseSynth
import Foundation
import Testing

// `crease import` of recordings made to hurt it: every value of a box is checked arithmetic,
// memory follows what the file holds (not what it claims), and each error names the box.

@Suite("Importing hostile recordings")
struct HostileRecordingTests {
  typealias Writer = MovieTimingWriter

  /// A 30 fps track of `frames` frames at timescale 600, with `edits`.
  static func track(id: UInt32 = 1, frames: UInt32 = 3, edits: [Writer.Edit] = []) -> Writer.Track {
    var track = Writer.Track(id: id, timescale: 600)
    track.durations = [.init(count: frames, value: 20)]
    track.edits = edits
    return track
  }

  /// Imports `movie`, written to a file, and returns the run.
  static func importing(_ movie: Writer, _ options: [String] = []) throws -> CreaseRun {
    let directory = temporaryDirectory()
    let sink = try FileSink(creatingFileAt: "\(directory)/hostile.mp4")
    try sink.write(movie.bytes())
    try sink.flush()
    return CreaseRun(["import", "\(directory)/hostile.mp4"] + options)
  }

  @Test(
    "edit-list values whose sum or difference passes 2⁶³ are refused with exit 65 naming the elst",
    arguments: [
      [Writer.Edit(duration: 10, mediaTime: .min)],
      [Writer.Edit(duration: .max, mediaTime: -1), Writer.Edit(duration: .max, mediaTime: -1)],
      [Writer.Edit(duration: .max, mediaTime: -1), Writer.Edit(duration: 10, mediaTime: .min + 1)],
    ])
  func editListArithmetic(edits: [Writer.Edit]) throws {
    let run = try Self.importing(Writer(movieTimescale: 1, tracks: [Self.track(edits: edits)]))
    #expect(run.status == .dataError, "\(run.error)")
    #expect(run.error.contains("moov/trak/edts/elst"), "\(run.error)")
    #expect(run.output.isEmpty)
  }

  @Test(
    "an edit list that stays in range shifts the frames; the frame before it is pre-roll, kept on request")
  func editListInRange() throws {
    let movie = Writer(movieTimescale: 600, tracks: [Self.track(edits: [.init(duration: 60, mediaTime: 20)])])
    for (options, expected) in [([String](), [0, 20]), (["--all-samples"], [-20, 0, 20])] {
      let run = try Self.importing(movie, options)
      #expect(run.status == .success, "\(run.error)")
      let ptsValues = run.output.split(separator: "\n").compactMap { line in
        line.split(separator: ",").first { $0.contains("\"pts\"") }.map(String.init)
      }
      #expect(ptsValues == expected.map { #""pts":{"value":\#($0)"# }, "\(run.output)")
    }
  }

  @Test("a fragment's presentation time past 2⁶³ ns is refused naming the moof's trun, not the trak")
  func fragmentOverflowNamesTheFragment() throws {
    var track = Self.track(frames: 1)
    track.defaultDuration = 20
    let movie = Writer(
      movieTimescale: 600, tracks: [track],
      fragments: [
        .init(trackID: 1, baseDecodeTime: UInt64(Int64.max - 5), samples: [.init(duration: 20, offset: 0)])
      ])
    let run = try Self.importing(movie)
    #expect(run.status == .dataError)
    #expect(run.error.contains("moof/traf/trun"), "\(run.error)")
  }

  @Test(
    "the sample cap counts every track and fragment of a file together",
    .enabled(if: !ByteBoundTests.sanitized), .timeLimit(.minutes(2)))
  func sampleCapPerFile() throws {
    let directory = temporaryDirectory()
    // Two tracks of six million samples each: 568 bytes that once imported 2 GB.
    let movie = Writer(
      movieTimescale: 600,
      tracks: [Self.track(id: 1, frames: 6_000_000), Self.track(id: 2, frames: 6_000_000)])
    try Data(movie.bytes()).write(to: URL(fileURLWithPath: "\(directory)/tracks.mp4"))
    let run = CreaseRun(["import", "\(directory)/tracks.mp4"])
    #expect(run.status == .dataError)
    #expect(run.error.contains("moov/trak[2]/mdia/minf/stbl/stts"), "\(run.error)")
    #expect(run.error.contains("more than 10000000 samples in the file"), "\(run.error)")
    let peak = try peakOfCrease(["import", "tracks.mp4"], in: directory)
    #expect(peak.status == 65)
    #expect(peak.peakKB < 256 * 1024, "peak RSS \(peak.peakKB) KB")
  }

  @Test(
    "frames are written as they are merged: two million samples take their timing's memory, not their events'",
    .enabled(if: !ByteBoundTests.sanitized), .timeLimit(.minutes(3)))
  func framesStreamed() throws {
    let directory = temporaryDirectory()
    let movie = Writer(movieTimescale: 600, tracks: [Self.track(id: 1, frames: 2_000_000)])
    try Data(movie.bytes()).write(to: URL(fileURLWithPath: "\(directory)/long.mp4"))
    let peak = try peakOfCrease(["import", "long.mp4", "-o", "/dev/null"], in: directory)
    #expect(peak.status == 0)
    // Every event held before writing took about 190 bytes a frame (380 MB here).
    #expect(peak.peakKB < 160 * 1024, "peak RSS \(peak.peakKB) KB")
  }

  @Test("a box claiming 256 MiB that the file does not hold costs what the file holds, not the claim")
  func claimedSizeNotAllocated() throws {
    let directory = temporaryDirectory()
    // ftyp (20 bytes), then a moov header claiming 256 MiB, and 14 bytes of it.
    var bytes = Writer(movieTimescale: 600, tracks: []).bytes().prefix(20)
    bytes += [0x10, 0x00, 0x00, 0x00] + Array("moov".utf8) + [UInt8](repeating: 0, count: 14)
    try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/claim.mp4"))
    let run = CreaseRun(["import", "\(directory)/claim.mp4"])
    #expect(run.status == .dataError)
    #expect(
      run.error.hasSuffix(
        "claim.mp4: error: at byte 42: the file ends here, inside its moov box (which starts at byte 20): no sample tables to read\n"
      ),
      "\(run.error)")
    if !ByteBoundTests.sanitized {
      let peak = try peakOfCrease(["import", "claim.mp4"], in: directory)
      #expect(peak.peakKB < 64 * 1024, "peak RSS \(peak.peakKB) KB for a 42-byte file")
    }
  }

  @Test(
    "fragments are added as they come and let go: two million empty ones cost what one does",
    .enabled(if: !ByteBoundTests.sanitized), .timeLimit(.minutes(2)))
  func fragmentsNotKept() throws {
    let directory = temporaryDirectory()
    let sink = try FileSink(creatingFileAt: "\(directory)/fragments.mp4")
    try sink.write(Writer(movieTimescale: 600, tracks: [Self.track()]).bytes())
    let emptyFragment: [UInt8] = [0, 0, 0, 8] + Array("moof".utf8)
    let block = Array([[UInt8]](repeating: emptyFragment, count: 100_000).joined())
    for _ in 0..<20 { try sink.write(block) }
    try sink.flush()
    let peak = try peakOfCrease(["import", "fragments.mp4"], in: directory)
    #expect(peak.status == 0)
    // The file is 16 MB; keeping its fragments took 11 times that.
    #expect(peak.peakKB < 64 * 1024, "peak RSS \(peak.peakKB) KB")
  }

  @Test("a fragment before the movie box is refused, naming it")
  func fragmentBeforeMovie() throws {
    let directory = temporaryDirectory()
    let movie = Writer(movieTimescale: 600, tracks: [Self.track()]).bytes()
    let ftyp = Array(movie.prefix(20))
    let bytes = ftyp + [0, 0, 0, 8] + Array("moof".utf8) + movie.dropFirst(20)
    try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/early.mp4"))
    let run = CreaseRun(["import", "\(directory)/early.mp4"])
    #expect(run.status == .dataError)
    #expect(run.error.contains("a moof before the moov box"), "\(run.error)")
  }

  @Test("a movie written by MovieTimingWriter reads back with the timing it was given")
  func writerRoundTrip() throws {
    var first = Self.track(id: 1, frames: 4)
    first.offsets = [.init(count: 4, value: 40)]
    first.defaultDuration = 20
    let movie = Writer(
      movieTimescale: 600, tracks: [first, Self.track(id: 7, frames: 2)],
      fragments: [.init(trackID: 1, baseDecodeTime: 1000, samples: [.init(duration: 20, offset: -20)])])
    let timing = try MovieTiming.read(MemorySource(movie.bytes(), name: "round-trip.mp4"))
    #expect(timing.tracks.map(\.id) == [1, 7])
    #expect(Array(timing.tracks[0].presentationTimes) == [40, 60, 80, 100, 980])
    #expect(Array(timing.tracks[1].presentationTimes) == [0, 20])
  }
}

@Suite("Work that grows with its input, not faster")
struct LinearWorkTests {
  @Test(
    "a summary of 100,000 sources is reported in one pass (their digests were joined by copying: quadratic)",
    .enabled(if: !ByteBoundTests.sanitized), .timeLimit(.minutes(1)))
  func manySources() throws {
    let directory = temporaryDirectory()
    let plain = "\(directory)/plain.summary.json"
    #expect(
      CreaseRun("replay", tracePath("open-close.jsonl"), "-o", "/dev/null", "--summary-json", plain).status
        == .success)
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes(of: plain)!)) as? [String: Any])
    let source = try #require((object["sources"] as? [[String: Any]])?.first)
    object["sources"] = (0..<100_000).map { index in
      source.merging(["name": "t\(index).jsonl", "digest": "xxh64:" + String(index, radix: 16)]) { $1 }
    }
    let path = "\(directory)/many.summary.json"
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    let run = CreaseRun("report", path, "-f", "json")
    #expect(run.status == .success, "\(run.error)")
    #expect(run.output.contains("t99999.jsonl"))
  }

  @Test(
    "fragments find their track by its ID: 5,000 tracks and 5,000 fragments import in one pass",
    .timeLimit(.minutes(1)))
  func manyTracksAndFragments() throws {
    var tracks = (1...5_000).map { id in
      var track = MovieTimingWriter.Track(id: UInt32(id), timescale: 600)
      track.durations = [.init(count: 1, value: 20)]
      return track
    }
    tracks[4_999].defaultDuration = 20
    let fragments = (0..<5_000).map { index in
      MovieTimingWriter.Fragment(
        trackID: 5_000, baseDecodeTime: UInt64(20 * (index + 1)), samples: [.init(duration: 20, offset: 0)])
    }
    let timing = try MovieTiming.read(
      MemorySource(
        MovieTimingWriter(movieTimescale: 600, tracks: tracks, fragments: fragments).bytes(), name: "m.mp4"))
    #expect(timing.tracks.count == 5_000)
    #expect(timing.tracks[4_999].presentationTimes.count == 5_001)
  }
}

@Suite("Import memory: one track's times at a time")
struct ImportMemoryTests {
  @Test("packed times give back every Int64 in its order, whatever the steps", arguments: 1...20)
  func packedTimesRoundTrip(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    // Frame steps, steps back (B-frames, a list's disorder) and the extremes, in turn.
    let times: [Int64] = (0..<500).map { index in
      switch index % 5 {
      case 0: Int64.min + Int64(random.next() % 3)
      case 1: Int64.max - Int64(random.next() % 3)
      case 2: Int64(bitPattern: random.next())
      default: Int64(index) * 20 - Int64(random.next() % 40)
      }
    }
    let packed = PackedTimes(times)
    #expect(Array(packed) == times, "seed \(seed)")
    #expect(packed.count == times.count && packed.first == times.first)
    #expect(PackedTimes([Int64]()).isEmpty && PackedTimes([Int64]()).first == nil)
  }

  /// A movie of `tracks` video tracks, each of `samples` frames with a B-frame's offsets (an
  /// offset a sample, as a phone writes them: the file's tables are eight bytes a sample).
  static func movie(tracks: Int, samples: Int, in directory: String) throws -> String {
    let path = "\(directory)/tracks-\(tracks).mp4"
    let written = (1...tracks).map { id in
      var track = MovieTimingWriter.Track(id: UInt32(id), timescale: 600)
      track.durations = [.init(count: UInt32(samples), value: 20)]
      track.offsets = (0..<samples).map { .init(count: 1, value: $0 % 2 == 0 ? 40 : 0) }
      return track
    }
    let sink = try FileSink(creatingFileAt: path)
    try sink.write(MovieTimingWriter(movieTimescale: 600, tracks: written).bytes())
    try sink.flush()
    return path
  }

  @Test(
    "eight tracks cost a few packed bytes a sample more than one: a track's tables are let go as its trak is read",
    .enabled(if: !ByteBoundTests.sanitized), .timeLimit(.minutes(2)))
  func oneTrackAtATime() throws {
    let directory = temporaryDirectory()
    defer { removeDirectory(directory) }
    let samples = 150_000
    let peaks = try [1, 8].map { tracks in
      let movie = try Self.movie(tracks: tracks, samples: samples, in: directory)
      let peak = try peakOfCrease(["import", movie, "-o", "/dev/null", "--to", "binary"], in: directory)
      #expect(peak.status == 0)
      return peak.peakKB
    }
    // Each track more holds its samples packed (a decode time and an offset, a byte each here)
    // and its packed presentation times: 3.4 bytes a sample measured. Its tables (8 bytes a
    // sample) are held only while its trak is read. Holding the whole moov, each took 9.7;
    // decoded all at once and kept unpacked, with the box copied as it grew, 19.5.
    let limit = 7 * samples * 9 / 2 / 1024
    #expect(peaks[1] - peaks[0] < limit, "1 track \(peaks[0]) KB, 8 tracks \(peaks[1]) KB")
  }
}
