import Crease

/// One track's tables while they are read.
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

  /// The `trak` box, named in errors.
  let box: MovieBox
  var id: UInt32
  var timescale: Int32
  /// The movie box's `stts` and `ctts` entries, checked and left in the file's bytes: a
  /// sample's times are made only when its track becomes its timing, one track at a time, so
  /// a movie of several tracks holds one track's times while it is read, not all of them.
  private var durations: SampleEntries?
  private var compositionOffsets: SampleEntries?
  /// Each fragment sample's decode time: fragments are let go as they are read.
  private var fragmentDecodeTimes: [Int64] = []
  /// Each fragment sample's composition offset, 32 bits as `trun` stores it.
  private var fragmentOffsets: [Int32] = []
  /// The samples a cut file leaves out, by their place, ascending.
  private var leftOut: [Int] = []
  var nextDecodeTime: Int64 = 0
  /// How media time becomes presentation time, and which samples the movie shows.
  var editList = EditList()
  /// Where the movie box's samples lie in the file (the first ``movieSampleCount``).
  private(set) var layout: ChunkLayout?
  /// How many samples the movie box's tables hold; fragments' samples follow them.
  private(set) var movieSampleCount = 0

  /// The tables of `trak`, or `nil` when it is not a video track; `samplesBefore` samples of
  /// the file's other tracks count against the file's cap.
  init?(_ trak: MovieBox, movieTimescale: UInt32, samplesBefore: Int) throws(MovieFormatError) {
    box = trak
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
    layout = ChunkLayout(tables)
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
      compositionOffsets = entries
    }
  }

  /// The samples the track holds: the movie box's, then its fragments'.
  var sampleCount: Int { movieSampleCount + fragmentDecodeTimes.count }

  /// Leaves out the samples at `indices` (ascending, in decode order) when the track becomes
  /// its timing.
  mutating func leaveOut(samplesAt indices: [Int]) {
    precondition(leftOut.isEmpty, "a track's samples are left out once, when the file's end is known")
    leftOut = indices
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
    fragmentDecodeTimes.append(nextDecodeTime)
    fragmentOffsets.append(offset)
    let (next, overflow) = nextDecodeTime.addingReportingOverflow(Int64(duration))
    guard !overflow else { throw box.error("decode times run past 2⁶³") }
    nextDecodeTime = next
  }

  /// The track: each sample's decode time plus its offset and the edit's shift, in order, the
  /// samples the edit list never shows left out unless `keepingEverySample`; refused, naming
  /// the `trak` whose sample tables hold it, when a time, or its nanoseconds, would not fit in
  /// 64 bits (a fragment's samples were checked as they came). The decode times become the
  /// presentation times in place.
  consuming func track(keepingEverySample: Bool) throws(MovieFormatError) -> MovieTiming.Track {
    var (times, offsets) = try decodeTimesAndOffsets()
    // How long the last sample is on screen: its decode duration.
    let lastDuration = times.last.map { nextDecodeTime.subtractingReportingOverflow($0).partialValue } ?? 0
    for index in times.indices {
      let (composed, overflow) = times[index].addingReportingOverflow(Int64(offsets[index]))
      let (time, shiftOverflow) = composed.addingReportingOverflow(editList.shift)
      guard !overflow, !shiftOverflow else { throw box.error("a presentation time past 2⁶³") }
      times[index] = time
    }
    times.sort()
    if !keepingEverySample { editList.keepShown(&times, lastDuration: lastDuration) }
    for time in [times.first, times.last].compactMap({ $0 })
    where PresentationTime(value: time, timescale: timescale) == nil {
      throw box.error("presentation time \(time) of timescale \(timescale) is past 2⁶³ nanoseconds")
    }
    return MovieTiming.Track(id: id, timescale: timescale, presentationTimes: PackedTimes(times))
  }

  /// Every sample's decode time and composition offset, the movie box's made from its tables
  /// and the fragments' moved after them, without the samples left out.
  /// - Complexity: O(*n*) in the track's samples.
  private mutating func decodeTimesAndOffsets() throws(MovieFormatError) -> ([Int64], [Int32]) {
    var times: [Int64] = []
    var offsets: [Int32] = []
    if movieSampleCount == 0 {
      swap(&times, &fragmentDecodeTimes)
      swap(&offsets, &fragmentOffsets)
    } else {
      times.reserveCapacity(sampleCount)
      offsets.reserveCapacity(sampleCount)
      // Checked as the movie box was read: the samples fit in the file's count, and their
      // decode times in 64 bits.
      var decodeTime: Int64 = 0
      try durations?.forEach { count, duration, _ in
        for _ in 0..<count {
          times.append(decodeTime)
          decodeTime += Int64(duration)
        }
      }
      offsets.append(contentsOf: repeatElement(0, count: movieSampleCount))
      var sample = 0
      try compositionOffsets?.forEach { count, offset, _ in
        for index in sample..<(sample + count) { offsets[index] = Int32(bitPattern: offset) }
        sample += count
      }
      times += fragmentDecodeTimes
      offsets += fragmentOffsets
      (fragmentDecodeTimes, fragmentOffsets) = ([], [])
    }
    guard !leftOut.isEmpty else { return (times, offsets) }
    var next = 0
    var kept = 0
    for index in times.indices {
      if next < leftOut.count && leftOut[next] == index {
        next += 1
        continue
      }
      (times[kept], offsets[kept]) = (times[index], offsets[index])
      kept += 1
    }
    times.removeLast(times.count - kept)
    offsets.removeLast(offsets.count - kept)
    return (times, offsets)
  }
}
