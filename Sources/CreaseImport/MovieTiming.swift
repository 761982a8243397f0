import Crease
import CreaseIO
import CreaseSystem

/// The frame timing of a QuickTime or MP4 movie (ISO BMFF): per video track its timescale and
/// each sample's presentation time, in presentation order after the edit list, as
/// `ffprobe -show_entries packet=pts` gives them.
///
/// Read from the sample tables (`stts` decode durations, `ctts` composition offsets in either
/// version, `elst` edits, 64-bit sizes) and from fragments (`moof/traf`: `tfhd`, `tfdt`, `trun`,
/// with `mvex/trex` defaults). Only the `moov`'s boxes, one at a time, and `moof` boxes are held
/// in memory; media data is read past. A file that cannot be read throws a
/// ``MovieFormatError`` with the box and byte.
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
  /// held only as they are read, the `moov` a box at a time, each track's tables packed as its
  /// `trak` is read and let go, each fragment added to its track as it comes and let go, and
  /// the whole file holds at most ``mostSamples`` samples.
  /// - Complexity: O(*n*) in the file's size and samples, and O(*s* log *s*) to sort each
  ///   track's *s* samples.
  public static func read(_ source: ByteSource, keepingEverySample: Bool = false) throws -> MovieTiming {
    var reader = TopLevelBoxes(source: source)
    var movie: MovieTables?
    while let found = try reader.next(keeping: ["moof"], opening: ["moov"]) {
      movie?.confirmData(before: reader.boxStart)
      switch found {
      case .opened(var box):
        guard movie == nil else {
          // Told only of a whole file: one cut inside it is a cut file.
          try reader.skipRest(of: box)
          if reader.cut == nil { throw box.error("a second moov box") }
          continue
        }
        // A box at a time: a track's tables are packed as they are read and let go.
        var tables = MovieTables()
        while let child = try reader.nextChild(of: &box) { tables.add(movieChild: child) }
        if reader.cut == nil {
          try tables.finishMovieBox()
          movie = tables
        }
      case .whole(let box):
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
