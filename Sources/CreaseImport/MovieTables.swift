import CreaseSystem

/// The movie box's tracks while the file is read, with what its fragments need.
struct MovieTables {
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
  /// The movie's timescale (`mvhd`), once its header is read; 0 without one.
  private var movieTimescale: UInt32?
  /// Tracks that came before the movie header, waiting for its timescale.
  private var tracksBeforeHeader: [MovieBox] = []
  /// The movie box's error that comes first, while it is read.
  private var firstError: (rank: ErrorRank, error: MovieFormatError)?

  /// Which of the movie box's errors is told when it has several, first to last.
  private enum ErrorRank: Int, Comparable {
    case movieHeader, fragmentDefaults, track
    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  /// Takes in one box of the movie box, in the file's order. Errors wait for the movie box's
  /// end (``finishMovieBox()``): a file cut inside it is a cut file whatever its boxes hold,
  /// and the movie header comes before the fragments' defaults, which come before the tracks,
  /// whatever their order in the file.
  /// - Complexity: O(*s*) in the box's bytes and samples; a `trak` before the `mvhd` is held
  ///   until it comes, since its edits need the movie's timescale.
  mutating func add(movieChild box: MovieBox) {
    switch box.type {
    case "mvhd" where movieTimescale == nil:
      do throws(MovieFormatError) {
        var header = box
        let version = try header.versionAndFlags().version
        try header.skip(version == 1 ? 16 : 8)
        movieTimescale = try header.uint32()
      } catch {
        refuse(error, rank: .movieHeader)
        movieTimescale = 0
      }
      for trak in tracksBeforeHeader { add(track: trak) }
      tracksBeforeHeader = []
    case "mvex" where firstError.map({ $0.rank > .fragmentDefaults }) ?? true:
      do throws(MovieFormatError) {
        for var trex in try box.children() where trex.type == "trex" {
          _ = try trex.versionAndFlags()
          let track = try trex.uint32()
          try trex.skip(4)
          let duration = try trex.uint32()
          // A trex cut after its duration was read before sizes were: its size is left unknown.
          defaults[track] = (duration, trex.remaining >= 4 ? try trex.uint32() : 0)
        }
      } catch {
        refuse(error, rank: .fragmentDefaults)
      }
    case "trak" where movieTimescale == nil: tracksBeforeHeader.append(box)
    case "trak": add(track: box)
    default: break
    }
  }

  /// The movie box read to its end: refuses it with the error that comes first (the movie
  /// header's, then the fragments' defaults', then the first track's in the file's order).
  mutating func finishMovieBox() throws(MovieFormatError) {
    movieTimescale = movieTimescale ?? 0
    for trak in tracksBeforeHeader { add(track: trak) }
    tracksBeforeHeader = []
    if let firstError { throw firstError.error }
  }

  private mutating func add(track trak: MovieBox) {
    // Only the first track's error is told: later tracks need not be read.
    guard firstError == nil else { return }
    do throws(MovieFormatError) {
      guard let track = try TrackTables(trak, movieTimescale: movieTimescale!, samplesBefore: sampleCount)
      else { return }
      sampleCount += track.sampleCount
      // The first of two tracks with one ID takes its fragments, as a lookup by ID finds it.
      if trackIndex[track.id] == nil { trackIndex[track.id] = tracks.count }
      tracks.append(track)
    } catch {
      refuse(error, rank: .track)
    }
  }

  /// Keeps `error` when it comes before the error kept so far.
  private mutating func refuse(_ error: MovieFormatError, rank: ErrorRank) {
    if firstError.map({ rank < $0.rank }) ?? true { firstError = (rank, error) }
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
      try tracks[index].forEachDataEnd { sample, end in
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
