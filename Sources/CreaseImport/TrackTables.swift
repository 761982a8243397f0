import Crease

/// One track's samples while the file is read: its tables checked and packed as its `trak` is
/// read, then its fragments' samples as they come.
struct TrackTables {
  /// A sample table's entries in the file's bytes: the box, read up to its first entry, and
  /// how many entries it holds (each a count of samples and a value).
  private struct SampleEntries {
    var entries: MovieBox
    var count: Int

    /// Calls `body` with each entry's sample count and value, read as 32-bit fields, and the
    /// box just past the entry, where an error in it is placed.
    func forEach(_ body: (Int, UInt32, MovieBox) throws(MovieFormatError) -> Void) throws(MovieFormatError) {
      var entries = entries
      for _ in 0..<count {
        let (samples, value) = (Int(try entries.uint32()), try entries.uint32())
        try body(samples, value, entries)
      }
    }
  }

  /// Where the `trak` box starts, named in errors found after its bytes are let go.
  let place: MovieBox.Place
  var id: UInt32
  var timescale: Int32
  /// Each sample's decode time and composition offset (32 bits, as `ctts` and `trun` store
  /// them), the movie box's then the fragments', packed: the track's tables are let go as soon
  /// as they are read, so a movie of several tracks holds a byte or two a sample of each, and
  /// one track's tables while they are read, not every track's.
  private var decodeTimes = PackedTimes()
  private var compositionOffsets = PackedTimes()
  /// Where each of the movie box's samples' data ends in the file, in decode order, packed, as
  /// far as its tables place them; kept for a file cut short, to tell the samples whose data it
  /// still holds.
  private var dataEnds = PackedTimes()
  /// What stopped the tables from placing the samples, refused only when a cut file needs them.
  private var dataEndsError: MovieFormatError?
  /// The samples a cut file leaves out, by their place, ascending.
  private var leftOut: [Int] = []
  var nextDecodeTime: Int64 = 0
  /// How media time becomes presentation time, and which samples the movie shows.
  var editList = EditList()

  /// The tables of `trak`, or `nil` when it is not a video track; `samplesBefore` samples of
  /// the file's other tracks count against the file's cap.
  init?(_ trak: MovieBox, movieTimescale: UInt32, samplesBefore: Int) throws(MovieFormatError) {
    place = trak.place
    let children = try trak.children()
    guard var header = children.first(where: { $0.type == "tkhd" }) else {
      throw trak.error("trak without tkhd")
    }
    let version = try header.versionAndFlags().version
    try header.skip(version == 1 ? 16 : 8)
    id = try header.uint32()
    guard let media = children.first(where: { $0.type == "mdia" }) else {
      throw trak.error("trak without mdia")
    }
    let mediaBoxes = try media.children()
    guard var handler = mediaBoxes.first(where: { $0.type == "hdlr" }) else {
      throw media.error("mdia without hdlr")
    }
    _ = try handler.versionAndFlags()
    try handler.skip(4)
    guard try handler.fourCC() == "vide" else { return nil }
    guard var mediaHeader = mediaBoxes.first(where: { $0.type == "mdhd" }) else {
      throw media.error("mdia without mdhd")
    }
    let mediaVersion = try mediaHeader.versionAndFlags().version
    try mediaHeader.skip(mediaVersion == 1 ? 16 : 8)
    let scale = try mediaHeader.uint32()
    guard scale > 0, let timescale = Int32(exactly: scale) else {
      throw mediaHeader.error("timescale \(scale) is not a CMTime timescale (1 to 2³¹ − 1)")
    }
    self.timescale = timescale
    if let edits = children.first(where: { $0.type == "edts" }) {
      editList = try EditList(edits, mediaTimescale: Int64(scale), movieTimescale: Int64(movieTimescale))
    }
    guard let information = mediaBoxes.first(where: { $0.type == "minf" }),
      let table = try information.children().first(where: { $0.type == "stbl" })
    else { return }
    let tables = try table.children()
    var movieSampleCount = 0
    var durations: SampleEntries?
    if var stts = tables.first(where: { $0.type == "stts" }) {
      _ = try stts.versionAndFlags()
      let entries = try stts.entryCount(entrySize: 8)
      var counting = stts
      var total = 0
      for _ in 0..<entries {
        total += Int(try counting.uint32())
        try counting.skip(4)
        guard total <= MovieTiming.mostSamples - samplesBefore else {
          throw counting.error("more than \(MovieTiming.mostSamples) samples in the file")
        }
      }
      durations = SampleEntries(entries: stts, count: entries)
      // Where the fragments' samples start, and a check that no decode time runs past 2⁶³.
      try durations!.forEach { (count, duration, entry) throws(MovieFormatError) in
        let (span, spanOverflow) = Int64(count).multipliedReportingOverflow(by: Int64(duration))
        let (next, overflow) = nextDecodeTime.addingReportingOverflow(span)
        guard !spanOverflow, !overflow else { throw entry.error("decode times run past 2⁶³") }
        nextDecodeTime = next
      }
      movieSampleCount = total
    }
    var offsets: SampleEntries?
    if var ctts = tables.first(where: { $0.type == "ctts" }) {
      _ = try ctts.versionAndFlags()
      let count = try ctts.entryCount(entrySize: 8)
      let entries = SampleEntries(entries: ctts, count: count)
      var sample = 0
      try entries.forEach { (count, _, entry) throws(MovieFormatError) in
        guard count <= movieSampleCount - sample else {
          throw entry.error("composition offsets for more samples than stts has (\(movieSampleCount))")
        }
        sample += count
      }
      offsets = entries
    }
    // The tables checked, their samples are packed, and the trak's bytes can go.
    var (times, composition, ends) = (PackedTimes(), PackedTimes(), PackedTimes())
    var decodeTime: Int64 = 0
    try durations?.forEach { count, duration, _ in
      for _ in 0..<count {
        times.append(decodeTime)
        decodeTime += Int64(duration)
      }
    }
    try offsets?.forEach { count, offset, _ in
      for _ in 0..<count { composition.append(Int64(Int32(bitPattern: offset))) }
    }
    while composition.count < movieSampleCount { composition.append(0) }
    // Where the data lies matters only for a file cut short, so tables that cannot place it
    // are refused only then. The samples come in order, from the first.
    do throws(MovieFormatError) {
      try ChunkLayout(tables)?.forEachDataEnd(count: movieSampleCount) { _, end in ends.append(Int64(end)) }
    } catch {
      dataEndsError = error
    }
    (decodeTimes, compositionOffsets, dataEnds) = (times, composition, ends)
  }

  /// The samples the track holds: the movie box's, then its fragments'.
  var sampleCount: Int { decodeTimes.count }

  /// Leaves out the samples at `indices` (ascending, in decode order) when the track becomes
  /// its timing.
  mutating func leaveOut(samplesAt indices: [Int]) {
    precondition(leftOut.isEmpty, "a track's samples are left out once, when the file's end is known")
    leftOut = indices
  }

  /// Calls `body` with each movie box sample the tables place and the offset just past its
  /// data, in decode order; then refuses tables that could not place every sample.
  func forEachDataEnd(_ body: (_ sample: Int, _ end: Int) -> Void) throws(MovieFormatError) {
    for (sample, end) in dataEnds.enumerated() { body(sample, Int(end)) }
    if let dataEndsError { throw dataEndsError }
  }

  /// Adds a sample of a fragment's run, refused in `box` when its presentation time, or its
  /// nanoseconds, would not fit in 64 bits.
  mutating func addFragmentSample(duration: UInt32, offset: Int32, in box: MovieBox) throws(MovieFormatError)
  {
    let (composed, overflow) = nextDecodeTime.addingReportingOverflow(Int64(offset))
    let (time, shiftOverflow) = composed.addingReportingOverflow(editList.shift)
    guard !overflow, !shiftOverflow, PresentationTime(value: time, timescale: timescale) != nil else {
      throw box.error("a presentation time past 2⁶³ nanoseconds")
    }
    try addSample(duration: duration, offset: offset, in: box)
  }

  private mutating func addSample(duration: UInt32, offset: Int32, in box: MovieBox) throws(MovieFormatError)
  {
    decodeTimes.append(nextDecodeTime)
    compositionOffsets.append(Int64(offset))
    let (next, overflow) = nextDecodeTime.addingReportingOverflow(Int64(duration))
    guard !overflow else { throw box.error("decode times run past 2⁶³") }
    nextDecodeTime = next
  }

  /// The track: each sample's decode time plus its offset and the edit's shift, in order, the
  /// samples the edit list never shows left out unless `keepingEverySample`; refused, naming
  /// the `trak` whose sample tables hold it, when a time, or its nanoseconds, would not fit in
  /// 64 bits (a fragment's samples were checked as they came).
  /// - Complexity: O(*n* log *n*) in the track's *n* samples, of which it holds the times
  ///   while they are sorted.
  consuming func track(keepingEverySample: Bool) throws(MovieFormatError) -> MovieTiming.Track {
    var times: [Int64] = []
    times.reserveCapacity(sampleCount - leftOut.count)
    var lastDecodeTime: Int64?
    var nextLeftOut = 0
    for (sample, (decodeTime, offset)) in zip(decodeTimes, compositionOffsets).enumerated() {
      if nextLeftOut < leftOut.count && leftOut[nextLeftOut] == sample {
        nextLeftOut += 1
        continue
      }
      lastDecodeTime = decodeTime
      let (composed, overflow) = decodeTime.addingReportingOverflow(offset)
      let (time, shiftOverflow) = composed.addingReportingOverflow(editList.shift)
      guard !overflow, !shiftOverflow else { throw place.error("a presentation time past 2⁶³") }
      times.append(time)
    }
    times.sort()
    if !keepingEverySample {
      // How long the last sample is on screen: its decode duration.
      let lastDuration =
        lastDecodeTime.map { nextDecodeTime.subtractingReportingOverflow($0).partialValue } ?? 0
      editList.keepShown(&times, lastDuration: lastDuration)
    }
    for time in [times.first, times.last].compactMap({ $0 })
    where PresentationTime(value: time, timescale: timescale) == nil {
      throw place.error("presentation time \(time) of timescale \(timescale) is past 2⁶³ nanoseconds")
    }
    return MovieTiming.Track(id: id, timescale: timescale, presentationTimes: PackedTimes(times))
  }
}
