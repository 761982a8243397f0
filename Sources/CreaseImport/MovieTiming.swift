import Crease
import CreaseIO
import CreaseSystem

/// The frame timing of a QuickTime or MP4 movie (ISO BMFF): per video track its timescale and
/// each sample's presentation time, in presentation order after the edit list, as
/// `ffprobe -show_entries packet=pts` gives them.
///
/// Read from the sample tables (`stts` decode durations, `ctts` composition offsets in either
/// version, `elst` edits, 64-bit sizes) and from fragments (`moof/traf`: `tfhd`, `tfdt`, `trun`,
/// with `mvex/trex` defaults). Only `moov` and `moof` boxes are held in memory; media data is
/// read past. A file that cannot be read throws a ``MovieFormatError`` with the box and byte.
public struct MovieTiming: Sendable {
  /// One video track's timing.
  public struct Track: Hashable, Sendable {
    /// The track's ID (`tkhd`).
    public var id: UInt32
    /// Units of its times per second (`mdhd`).
    public var timescale: Int32
    /// Each sample's presentation time in `timescale` units, ascending.
    public var presentationTimes: PackedTimes
  }

  /// The video tracks, in the order the file lists them.
  public var tracks: [Track]
  /// Where the file ends when it was cut short, and what was left out; `nil` for a whole file.
  public var truncation: Truncation?

  /// A recording cut short, as a phone that crashed while recording leaves it: the samples
  /// whose data lies inside the file are kept, the rest left out.
  public struct Truncation: Hashable, Sendable, CustomStringConvertible {
    /// The file's length in bytes.
    public var fileEnd: Int
    /// The box the file ends inside and where it starts; `nil` when it ends in a box header.
    public var box: String?
    /// The byte where that box starts.
    public var boxStart: Int
    /// The size the box claims, header included.
    public var claimedSize: Int
    /// Video samples left out: their data lies past the end, or their fragment's `moof` is cut.
    public var samplesLeftOut: Int
    /// Whether the file ends inside a fragment's `moof`, whose samples are not counted.
    public var endsInFragmentHeader: Bool { box == "moof" }

    /// One line: where the file ends and what was left out.
    public var description: String {
      let inside =
        box.map { "inside \($0) (at byte \(boxStart), \(claimedSize) bytes claimed)" }
        ?? "inside a box header"
      let leftOut = "\(samplesLeftOut) sample(s) whose data lies past the end left out"
      return "the file ends at byte \(fileEnd), \(inside): "
        + (endsInFragmentHeader ? "the fragment it cuts gives no samples, and \(leftOut)" : leftOut)
    }
  }

  /// The largest `moov` or `moof` read into memory.
  static let largestMetadataBox = 256 << 20
  /// The most samples read from one file: eleven hours at 240 fps.
  static let mostSamples = 10_000_000

  /// The timing of the movie in `source`: the samples its edit lists show, or every sample
  /// when `keepingEverySample`.
  ///
  /// A file that ends inside a box after its `moov` gives the samples whose data it holds,
  /// with ``truncation`` saying what was left out; one that ends before or inside its `moov`
  /// has no timing and throws.
  ///
  /// Memory is bounded by the file's timing, not by what its boxes claim: a box's bytes are
  /// held only as they are read, each fragment is added to its track as it comes and let go,
  /// and the whole file holds at most ``mostSamples`` samples.
  /// - Complexity: O(*n*) in the file's size and samples, and O(*s* log *s*) to sort each
  ///   track's *s* samples.
  public static func read(_ source: ByteSource, keepingEverySample: Bool = false) throws -> MovieTiming {
    var reader = TopLevelBoxes(source: source)
    var movie: MovieTables?
    while let box = try reader.next(keeping: ["moov", "moof"]) {
      movie?.confirmData(before: reader.boxStart)
      if box.type == "moov" {
        guard movie == nil else { throw box.error("a second moov box") }
        movie = try MovieTables(box)
      } else {
        // ISO 14496-12 puts the movie box before any fragment: a fragment's track and defaults
        // are the movie's.
        guard movie != nil else { throw box.error("a moof before the moov box") }
        try movie!.add(fragment: box, startingAt: reader.boxStart)
      }
    }
    guard movie != nil else {
      guard let cut = reader.cut else {
        throw MovieFormatError(box: "", offset: reader.offset, message: "no moov box: not a movie")
      }
      let place =
        if let box = cut.box, box.type == "moov" {
          "inside its moov box (which starts at byte \(box.start))"
        } else {
          "before any moov box"
        }
      throw MovieFormatError(
        box: "", offset: cut.fileEnd, message: "the file ends here, \(place): no sample tables to read")
    }
    var truncation: Truncation?
    if let cut = reader.cut {
      truncation = Truncation(
        fileEnd: cut.fileEnd, box: cut.box?.type, boxStart: cut.box?.start ?? cut.fileEnd,
        claimedSize: cut.box?.size ?? 0, samplesLeftOut: try movie!.leaveOutData(pastEnd: cut.fileEnd))
    }
    // Each track's tables become its timing one at a time, moved out and let go as they do.
    var tables = movie!.tracks
    movie = nil
    tables.reverse()
    var timed: [Track] = []
    while let track = tables.popLast() {
      timed.append(try track.track(keepingEverySample: keepingEverySample))
    }
    return MovieTiming(tracks: timed, truncation: truncation)
  }

  private init(tracks: [Track], truncation: Truncation?) {
    self.tracks = tracks
    self.truncation = truncation
  }
}

/// The movie box's tracks while the file is read, with what its fragments need.
private struct MovieTables {
  var tracks: [TrackTables] = []
  /// Each video track's place in `tracks`, by its ID.
  private var trackIndex: [UInt32: Int] = [:]
  /// Each track's default sample duration and size (`mvex/trex`), by its ID.
  private var defaults: [UInt32: (duration: UInt32, size: UInt32)] = [:]
  /// Fragment samples whose data the file may not hold yet: a track's place, the sample's
  /// place in it, and the offset just past its data. Let go once the file is read past them,
  /// so they are at most a fragment's.
  private var unconfirmed: [(track: Int, sample: Int, end: Int)] = []
  /// The samples read so far, in every track: the file's count is capped, not each track's.
  private var sampleCount = 0

  init(_ movie: MovieBox) throws(MovieFormatError) {
    let boxes = try movie.children()
    var movieTimescale: UInt32 = 0
    if var header = boxes.first(where: { $0.type == "mvhd" }) {
      let version = try header.versionAndFlags().version
      try header.skip(version == 1 ? 16 : 8)
      movieTimescale = try header.uint32()
    }
    for extends in boxes where extends.type == "mvex" {
      for var trex in try extends.children() where trex.type == "trex" {
        _ = try trex.versionAndFlags()
        let track = try trex.uint32()
        try trex.skip(4)
        let duration = try trex.uint32()
        // A trex cut after its duration was read before sizes were: its size is left unknown.
        defaults[track] = (duration, trex.remaining >= 4 ? try trex.uint32() : 0)
      }
    }
    for trak in boxes where trak.type == "trak" {
      guard let track = try TrackTables(trak, movieTimescale: movieTimescale, samplesBefore: sampleCount)
      else { continue }
      sampleCount += track.sampleCount
      // The first of two tracks with one ID takes its fragments, as a lookup by ID finds it.
      if trackIndex[track.id] == nil { trackIndex[track.id] = tracks.count }
      tracks.append(track)
    }
  }

  /// Adds the samples of each track fragment in `fragment`, whose `moof` starts at byte
  /// `start`, to its track.
  mutating func add(fragment: MovieBox, startingAt start: Int) throws(MovieFormatError) {
    for traf in try fragment.children() where traf.type == "traf" { try add(traf, moofStart: start) }
  }

  /// Forgets the fragment samples whose data ends at or before byte `offset`: the file holds it.
  mutating func confirmData(before offset: Int) {
    unconfirmed.removeAll { $0.end <= offset }
  }

  /// Leaves out every sample whose data ends past byte `fileEnd`, and says how many there were.
  mutating func leaveOutData(pastEnd fileEnd: Int) throws(MovieFormatError) -> Int {
    var leftOut = 0
    for index in tracks.indices {
      var indices: [Int] = []
      try tracks[index].layout?.forEachDataEnd(count: tracks[index].movieSampleCount) { sample, end in
        if end > fileEnd { indices.append(sample) }
      }
      indices += unconfirmed.filter { $0.track == index && $0.end > fileEnd }.map(\.sample).sorted()
      tracks[index].leaveOut(samplesAt: indices)
      leftOut += indices.count
    }
    unconfirmed = []
    return leftOut
  }

  private mutating func add(_ traf: MovieBox, moofStart: Int) throws(MovieFormatError) {
    let children = try traf.children()
    guard var header = children.first(where: { $0.type == "tfhd" }) else {
      throw traf.error("traf without tfhd")
    }
    let flags = try header.versionAndFlags().flags
    let id = try header.uint32()
    guard let index = trackIndex[id] else { return }  // not a video track
    // Where the fragment's data starts: given, or the moof's first byte (ISO 14496-12's
    // default-base-is-moof, which every fragmented recording seen uses).
    var dataStart = moofStart
    if flags & 0x1 != 0 { dataStart = Int(clamping: try header.uint64()) }
    if flags & 0x2 != 0 { try header.skip(4) }  // sample description index
    var defaultDuration = defaults[id]?.duration ?? 0
    var defaultSize = defaults[id]?.size ?? 0
    if flags & 0x8 != 0 { defaultDuration = try header.uint32() }
    if flags & 0x10 != 0 { defaultSize = try header.uint32() }
    var dataEnd = dataStart
    if var decodeTime = children.first(where: { $0.type == "tfdt" }) {
      let version = try decodeTime.versionAndFlags().version
      let base = version == 1 ? try decodeTime.uint64() : UInt64(try decodeTime.uint32())
      guard base <= UInt64(Int64.max) else { throw decodeTime.error("tfdt's decode time is past 2⁶³") }
      tracks[index].nextDecodeTime = Int64(base)
    }
    for var run in children where run.type == "trun" {
      let (_, runFlags) = try run.versionAndFlags()
      let fieldSize = [0x100, 0x200, 0x400, 0x800].filter { runFlags & UInt32($0) != 0 }.count * 4
      let count = try run.entryCount(entrySize: max(fieldSize, 1))
      if runFlags & 0x1 != 0 { dataEnd = dataStart.addingSaturated(Int(try run.int32())) }
      if runFlags & 0x4 != 0 { try run.skip(4) }  // first sample flags
      guard count <= MovieTiming.mostSamples - sampleCount else {
        throw run.error("more than \(MovieTiming.mostSamples) samples in the file")
      }
      sampleCount += count
      for _ in 0..<count {
        let duration = runFlags & 0x100 != 0 ? try run.uint32() : defaultDuration
        let size = runFlags & 0x200 != 0 ? try run.uint32() : defaultSize
        dataEnd = dataEnd.addingSaturated(Int(size))
        unconfirmed.append((index, tracks[index].sampleCount, dataEnd))
        if runFlags & 0x400 != 0 { try run.skip(4) }
        // Signed in version 1; version 0 files write signed offsets too, as ffmpeg reads them.
        let offset = runFlags & 0x800 != 0 ? try run.int32() : 0
        try tracks[index].addFragmentSample(duration: duration, offset: offset, in: run)
      }
    }
  }
}
