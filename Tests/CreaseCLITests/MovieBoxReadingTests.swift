import CreaseIO
import CreaseImport
import CreaseSystem
import Testing

// The movie box is read a box at a time, so that an import holds one track's tables, not every
// track's. What it tells of a bad or cut file is what reading the box whole told: the box's own
// layout first, then its header, the fragments' defaults and the tracks, and a cut file as cut.

@Suite("Reading the movie box a box at a time")
struct MovieBoxReadingTests {
  typealias Writer = MovieTimingWriter

  /// A movie of two 30 fps tracks, each shown from 1 s by an empty edit of 600 units of the
  /// movie's timescale, and with fragment defaults (an `mvex` after the tracks).
  static let movie: Writer = {
    let tracks = (1...2).map { id in
      var track = Writer.Track(id: UInt32(id), timescale: 600)
      track.durations = [.init(count: 3, value: 20)]
      track.edits = [.init(duration: 600, mediaTime: -1), .init(duration: 60, mediaTime: 0)]
      track.defaultDuration = 20
      return track
    }
    return Writer(movieTimescale: 600, tracks: tracks)
  }()

  /// Where `bytes`' movie box starts and ends, and where each box inside it starts.
  static func movieBox(in bytes: [UInt8]) -> (start: Int, end: Int, children: [Int]) {
    func size(at offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    var start = 0
    while String(decoding: bytes[start + 4..<start + 8], as: UTF8.self) != "moov" { start += size(at: start) }
    let end = start + size(at: start)
    var children: [Int] = []
    var child = start + 8
    while child + 8 <= end && size(at: child) >= 8 {
      children.append(child)
      child += size(at: child)
    }
    return (start, end, children)
  }

  /// `movie`'s bytes with the boxes inside its `moov` (each whole, header included, in order)
  /// rewritten by `edit`.
  static func rewritingMovieBox(_ edit: (inout [[UInt8]]) -> Void) -> [UInt8] {
    let bytes = movie.bytes()
    let box = movieBox(in: bytes)
    var children = zip(box.children, box.children.dropFirst() + [box.end]).map { Array(bytes[$0..<$1]) }
    edit(&children)
    let content = children.flatMap { $0 }
    return Array(bytes[..<box.start]) + word(8 + content.count) + Array("moov".utf8) + content
      + Array(bytes[box.end...])
  }

  static func word(_ value: Int) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
  }

  /// `box` with its first `type` inside it renamed `renamed`, so that a reader no longer finds it.
  static func renaming(_ type: String, to renamed: String, in box: [UInt8]) -> [UInt8] {
    let code = Array(type.utf8)
    let at = (0...(box.count - 4)).first { Array(box[$0..<$0 + 4]) == code }!
    var box = box
    box.replaceSubrange(at..<at + 4, with: Array(renamed.utf8))
    return box
  }

  static func read(_ bytes: [UInt8]) throws -> MovieTiming {
    try MovieTiming.read(MemorySource(bytes, name: "movie.mp4"))
  }

  /// The error reading `bytes` gives, as `box at byte N: message`.
  static func error(reading bytes: [UInt8]) -> String {
    do {
      _ = try read(bytes)
      return "no error"
    } catch {
      return "\(error)"
    }
  }

  static let times: [[Int64]] = [[600, 620, 640], [600, 620, 640]]

  @Test("a track before the movie header is read with the movie's timescale, as in the usual order")
  func trackBeforeHeader() throws {
    let reordered = Self.rewritingMovieBox { children in children.append(children.removeFirst()) }
    // The empty edit is 1 s only in the movie's timescale: without it, the track is refused.
    #expect(try Self.read(reordered).tracks.map { Array($0.presentationTimes) } == Self.times)
    #expect(try Self.read(Self.movie.bytes()).tracks.map { Array($0.presentationTimes) } == Self.times)
  }

  @Test("a box inside the movie box with a 64-bit size reads as with a 32-bit one")
  func largeSizeChild() throws {
    let widened = Self.rewritingMovieBox { children in
      let header = children[0]
      children[0] =
        Self.word(1) + Array(header[4..<8]) + [0, 0, 0, 0] + Self.word(header.count + 8) + header[8...]
    }
    #expect(try Self.read(widened).tracks.map { Array($0.presentationTimes) } == Self.times)
    let huge = Self.rewritingMovieBox { children in
      children[0] = Self.word(1) + Array("mvhd".utf8) + [0x80, 0, 0, 0, 0, 0, 0, 0] + children[0][8...]
    }
    let mvhd = Self.movieBox(in: huge).start + 8
    #expect(Self.error(reading: huge) == "moov at byte \(mvhd + 16): mvhd has a size past 2⁶³")
  }

  @Test("the movie box's own layout is told before any error in the boxes it holds")
  func layoutBeforeTracks() {
    let stray = Self.rewritingMovieBox { children in
      children[1] = Self.renaming("tkhd", to: "tkhX", in: children[1])
      children.append([0, 0, 0])
    }
    #expect(Self.error(reading: stray) == "moov at byte \(stray.count - 3): 3 stray bytes after the last box")
    let overlong = Self.rewritingMovieBox { children in
      children[1] = Self.renaming("tkhd", to: "tkhX", in: children[1])
      children[2].replaceSubrange(0..<4, with: Self.word(99_999))
    }
    let box = Self.movieBox(in: overlong)
    let second = box.children[2]
    #expect(
      Self.error(reading: overlong)
        == "moov at byte \(second): trak claims 99999 bytes, but \(box.end - second) remain in moov")
  }

  @Test("the movie header's error comes first, then the fragments' defaults', then the first track's")
  func errorsInOrderOfTheBoxesRoles() {
    // Both tracks broken; then the mvex too, last in the file, its trex claiming more than it
    // holds; then the mvhd too, cut short and moved after them all.
    let breakTracks = { (children: inout [[UInt8]]) in
      children[1] = Self.renaming("tkhd", to: "tkhX", in: children[1])
      children[2] = Self.renaming("mdia", to: "mdiX", in: children[2])
    }
    let breakDefaults = { (children: inout [[UInt8]]) in
      children[children.count - 1].replaceSubrange(8..<12, with: Self.word(4_000))
    }
    let breakHeader = { (children: inout [[UInt8]]) in
      children.removeFirst()
      children.append(Self.word(10) + Array("mvhd".utf8) + [0, 0])
    }
    let cases = [
      ([breakTracks], "moov/trak at byte ", ": trak without tkhd"),
      ([breakTracks, breakDefaults], "moov/mvex at byte ", "trex claims 4000 bytes, but 64 remain in mvex"),
      ([breakTracks, breakDefaults, breakHeader], "moov/mvhd at byte ", ": mvhd ends before its fields do"),
    ]
    for (breaks, prefix, suffix) in cases {
      let error = Self.error(reading: Self.rewritingMovieBox { children in breaks.forEach { $0(&children) } })
      #expect(error.hasPrefix(prefix) && error.hasSuffix(suffix), "\(error)")
    }
  }

  @Test("a file cut inside its movie box is told as cut, whatever is wrong before the cut")
  func cutMovieBoxIsCut() {
    let bytes = Self.rewritingMovieBox { children in
      children[1] = Self.renaming("tkhd", to: "tkhX", in: children[1])
      children.insert([0, 0, 0], at: 2)
    }
    let cut = Array(bytes.prefix(bytes.count - 10))
    #expect(
      Self.error(reading: cut)
        == "at byte \(cut.count): the file ends here, inside its moov box (which starts at byte \(Self.movieBox(in: bytes).start)): no sample tables to read"
    )
  }

  @Test("a second movie box is refused when whole, and read past as a cut when the file ends inside it")
  func secondMovieBox() throws {
    let bytes = Self.movie.bytes()
    let second = Array(bytes[Self.movieBox(in: bytes).start...])
    #expect(Self.error(reading: bytes + second) == "moov at byte \(bytes.count + 8): a second moov box")
    let cut = try Self.read(bytes + second.prefix(second.count / 2))
    #expect(cut.truncation?.box == "moov")
    #expect(cut.tracks.map { Array($0.presentationTimes) } == Self.times)
  }
}
