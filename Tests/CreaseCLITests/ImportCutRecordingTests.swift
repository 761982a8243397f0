import Foundation
import Testing

/// `crease import` of a recording cut short, as a phone that crashed while recording leaves
/// it (SPEC 6): every sample whose data lies inside the file, one warning, exit 65 only under
/// `--strict`. The oracle is ffprobe's packet positions in the whole file.
@Suite("crease import: recordings cut short")
struct ImportCutRecordingTests {
  @Test(
    "the samples whose data the file holds, as ffprobe places them, and one warning",
    arguments: [
      // A fragmented movie cut inside a fragment's media data and inside its moof, and a
      // progressive one (moov first) cut inside its mdat.
      (["-movflags", "frag_keyframe+empty_moov"], 0.6, "inside mdat"),
      (["-movflags", "frag_keyframe+empty_moov"], 0.28, "inside moof"),
      (["-movflags", "faststart"], 0.6, "inside mdat"),
    ])
  func cut(arguments: [String], share: Double, place: String) throws {
    let directory = temporaryDirectory()
    let whole = "\(directory)/whole.mp4"
    try ImportTests.ffmpeg(whole, filter: "null", arguments: arguments)
    let bytes = try #require(FileManager.default.contents(atPath: whole))
    let end = Int(Double(bytes.count) * share)
    // A cut in the place the case names: the first byte from `end` on past the header of a
    // box of that type.
    let cutAt = try #require(
      (end..<bytes.count).first { offset in
        Self.box(at: offset, in: Array(bytes)).map { $0.type == place.suffix(4) && offset > $0.start + 16 }
          == true
      })
    let cut = "\(directory)/cut.mp4"
    try bytes.prefix(cutAt).write(to: URL(fileURLWithPath: cut))

    let packets = try ImportTests.packets(whole)
    let held = packets.filter { $0.position + $0.size <= cutAt }.map(\.pts)
    let run = CreaseRun("import", cut)
    #expect(run.status == .success, "\(run.error)")
    #expect(try ImportTests.frames(run.output) == held)
    #expect(held.count < packets.count)
    let warnings = run.error.split(separator: "\n")
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.hasPrefix("\(cut): warning: the file ends at byte \(cutAt), \(place) (at byte ")
        == true,
      "\(run.error)")

    let strict = CreaseRun("import", "--strict", cut)
    #expect(strict.status == .dataError)
    #expect(strict.error.hasPrefix("\(cut): error: the file ends at byte \(cutAt), \(place)"))
    #expect(strict.output.isEmpty)
  }

  @Test("a real phone recording cut inside its media data keeps the frames whose data it holds")
  func realRecordingCut() throws {
    let whole = "\(repositoryRoot)/Traces/real/sample_android_slow_motion.mp4"
    let bytes = try #require(FileManager.default.contents(atPath: whole))
    let cut = "\(temporaryDirectory())/crashed.mp4"
    try bytes.prefix(30_000).write(to: URL(fileURLWithPath: cut))
    let held = try ImportTests.packets(whole).filter { $0.position + $0.size <= 30_000 }.map(\.pts)
    let run = CreaseRun("import", cut)
    #expect(run.status == .success)
    #expect(try ImportTests.frames(run.output) == held)
    let all = try ImportTests.packets(whole).count
    #expect(
      run.error
        == "\(cut): warning: the file ends at byte 30000, inside mdat (at byte 1153, 42328 bytes claimed): \(all - held.count) sample(s) whose data lies past the end left out\n"
    )
  }

  @Test("sample sizes that cannot place the data are refused only when the file is cut and needs them")
  func badSizesRefusedOnlyWhenCut() throws {
    let whole = "\(repositoryRoot)/Traces/real/sample_android_slow_motion.mp4"
    var bytes = try #require(FileManager.default.contents(atPath: whole)).map { $0 }
    // The sample size table claims more entries than it holds.
    let stsz = try #require((0..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual("stsz".utf8) })
    bytes.replaceSubrange(stsz + 12..<stsz + 16, with: [0x7F, 0xFF, 0xFF, 0xFF])
    let directory = temporaryDirectory()
    let damaged = "\(directory)/damaged.mp4"
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    let run = CreaseRun("import", damaged)
    #expect(run.status == .success && run.error.isEmpty, "\(run.error)")
    #expect(try ImportTests.frames(run.output) == ImportTests.packets(whole).map(\.pts))

    let cut = "\(directory)/cut.mp4"
    try Data(bytes.prefix(30_000)).write(to: URL(fileURLWithPath: cut))
    let refused = CreaseRun("import", cut)
    #expect(refused.status == .dataError)
    #expect(
      refused.error
        == "\(cut): error: moov/trak/mdia/minf/stbl/stsz at byte \(stsz + 16): stsz claims 2147483647 entries of 4 bytes, more than its 28 bytes hold\n"
    )
  }

  /// The type and start of the top-level box that holds byte `offset` of `movie`.
  static func box(at offset: Int, in movie: [UInt8]) -> (type: Substring, start: Int)? {
    var start = 0
    while start + 8 <= movie.count {
      let size = movie[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
      guard size >= 8 else { return nil }
      if offset < start + size {
        return (Substring(String(decoding: movie[start + 4..<start + 8], as: UTF8.self)), start)
      }
      start += size
    }
    return nil
  }
}
