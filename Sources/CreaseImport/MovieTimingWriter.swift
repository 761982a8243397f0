/// Writes a QuickTime/MP4 file that holds only frame timing: a movie header, video tracks with
/// their edit lists and sample tables, and movie fragments, with no media data.
///
/// For tests and fuzzing of ``MovieTiming`` and for tools that need a movie of a given timing:
/// every field is written as given, hostile values included (an edit's media time of
/// `Int64.min`, a sample count of `UInt32.max`), so a reader's checks can be reached directly.
public struct MovieTimingWriter: Sendable {
  /// One edit of a track's edit list (`elst`, version 1).
  public struct Edit: Sendable {
    /// The edit's length in the movie's timescale.
    public var duration: UInt64
    /// Where the edit starts in the media, in the track's timescale; -1 for an empty edit.
    public var mediaTime: Int64

    public init(duration: UInt64, mediaTime: Int64) {
      self.duration = duration
      self.mediaTime = mediaTime
    }
  }

  /// A run of samples of one table entry: `count` samples, each with `value` (a decode
  /// duration in `stts`, a composition offset in `ctts`).
  public struct Run<Value: Sendable>: Sendable {
    public var count: UInt32
    public var value: Value

    public init(count: UInt32, value: Value) {
      self.count = count
      self.value = value
    }
  }

  /// A video track in the movie box.
  public struct Track: Sendable {
    public var id: UInt32
    /// The media header's timescale (`mdhd`).
    public var timescale: UInt32
    /// The edit list; none is written when empty.
    public var edits: [Edit] = []
    /// Decode durations (`stts`).
    public var durations: [Run<UInt32>] = []
    /// Composition offsets (`ctts`, version 1); none is written when empty.
    public var offsets: [Run<Int32>] = []
    /// The default sample duration of its fragments (`mvex/trex`); no `trex` when `nil`.
    public var defaultDuration: UInt32?

    public init(id: UInt32, timescale: UInt32) {
      self.id = id
      self.timescale = timescale
    }
  }

  /// One sample of a fragment's run (`trun` with durations and offsets).
  public struct FragmentSample: Sendable {
    public var duration: UInt32
    public var offset: Int32

    public init(duration: UInt32, offset: Int32) {
      self.duration = duration
      self.offset = offset
    }
  }

  /// A movie fragment (`moof`) holding one track fragment.
  public struct Fragment: Sendable {
    public var trackID: UInt32
    /// The decode time of its first sample (`tfdt`, version 1); none is written when `nil`.
    public var baseDecodeTime: UInt64?
    public var samples: [FragmentSample]

    public init(trackID: UInt32, baseDecodeTime: UInt64?, samples: [FragmentSample]) {
      self.trackID = trackID
      self.baseDecodeTime = baseDecodeTime
      self.samples = samples
    }
  }

  /// The movie header's timescale (`mvhd`), in which edits are measured.
  public var movieTimescale: UInt32
  public var tracks: [Track]
  /// Written after the movie box, in order.
  public var fragments: [Fragment]

  public init(movieTimescale: UInt32, tracks: [Track], fragments: [Fragment] = []) {
    self.movieTimescale = movieTimescale
    self.tracks = tracks
    self.fragments = fragments
  }

  /// The file's bytes.
  /// - Complexity: O(*n*) in the entries written.
  public func bytes() -> [UInt8] {
    var file = Self.box("ftyp", Self.fourCC("isom") + Self.word(0) + Self.fourCC("isom"))
    var movie = Self.fullBox(
      "mvhd", version: 0, Self.word(0) + Self.word(0) + Self.word(movieTimescale) + Self.word(0))
    for track in tracks { movie += trackBox(track) }
    let extensions = tracks.compactMap { track in
      track.defaultDuration.map { duration in
        Self.fullBox(
          "trex", version: 0,
          Self.word(track.id) + Self.word(1) + Self.word(duration) + Self.word(0) + Self.word(0))
      }
    }
    if !extensions.isEmpty { movie += Self.box("mvex", extensions.flatMap { $0 }) }
    file += Self.box("moov", movie)
    for fragment in fragments { file += fragmentBox(fragment) }
    return file
  }

  private func trackBox(_ track: Track) -> [UInt8] {
    var trak = Self.fullBox("tkhd", version: 0, Self.word(0) + Self.word(0) + Self.word(track.id))
    if !track.edits.isEmpty {
      var list = Self.word(UInt32(track.edits.count))
      for edit in track.edits {
        list +=
          Self.doubleWord(edit.duration) + Self.doubleWord(UInt64(bitPattern: edit.mediaTime))
          + Self.word(1 << 16)
      }
      trak += Self.box("edts", Self.fullBox("elst", version: 1, list))
    }
    var stts = Self.word(UInt32(track.durations.count))
    for run in track.durations { stts += Self.word(run.count) + Self.word(run.value) }
    var table = Self.fullBox("stts", version: 0, stts)
    if !track.offsets.isEmpty {
      var ctts = Self.word(UInt32(track.offsets.count))
      for run in track.offsets { ctts += Self.word(run.count) + Self.word(UInt32(bitPattern: run.value)) }
      table += Self.fullBox("ctts", version: 1, ctts)
    }
    let media =
      Self.fullBox(
        "mdhd", version: 0, Self.word(0) + Self.word(0) + Self.word(track.timescale) + Self.word(0))
      + Self.fullBox(
        "hdlr", version: 0, Self.word(0) + Self.fourCC("vide") + [UInt8](repeating: 0, count: 13))
      + Self.box("minf", Self.box("stbl", table))
    trak += Self.box("mdia", media)
    return Self.box("trak", trak)
  }

  private func fragmentBox(_ fragment: Fragment) -> [UInt8] {
    var traf = Self.fullBox("tfhd", version: 0, Self.word(fragment.trackID))
    if let base = fragment.baseDecodeTime { traf += Self.fullBox("tfdt", version: 1, Self.doubleWord(base)) }
    var run = Self.word(UInt32(fragment.samples.count))
    for sample in fragment.samples {
      run += Self.word(sample.duration) + Self.word(UInt32(bitPattern: sample.offset))
    }
    // Flags: each sample's duration (0x100) and composition offset (0x800).
    traf += Self.fullBox("trun", version: 1, flags: 0x900, run)
    return Self.box("moof", Self.box("traf", traf))
  }

  private static func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
    word(UInt32(truncatingIfNeeded: 8 + content.count)) + fourCC(type) + content
  }

  private static func fullBox(_ type: String, version: UInt8, flags: UInt32 = 0, _ content: [UInt8])
    -> [UInt8]
  {
    box(type, word(UInt32(version) << 24 | flags) + content)
  }

  private static func fourCC(_ code: String) -> [UInt8] { Array(code.utf8) }

  private static func word(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
  }

  private static func doubleWord(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
  }
}
