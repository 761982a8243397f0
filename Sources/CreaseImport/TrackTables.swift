import Crease

/// One track's tables while they are read.
struct TrackTables {
  /// The `trak` box, named in errors.
  let box: MovieBox
  var id: UInt32
  var timescale: Int32
  /// Each sample's decode time, then (``track()``) its presentation time: one array, not two,
  /// so ten million samples take 80 MB, not 160.
  var decodeTimes: [Int64] = []
  /// Each sample's composition offset, 32 bits as `ctts` and `trun` store it.
  var offsets: [Int32] = []
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
      // Counted first, so the tables are sized once: grown entry by entry, they were copied
      // again and again, and doubled past what the samples need.
      var counting = stts
      var total = 0
      for _ in 0..<entries {
        total += Int(try counting.uint32())
        try counting.skip(4)
        guard total <= MovieTiming.mostSamples - samplesBefore else {
          throw counting.error("more than \(MovieTiming.mostSamples) samples in the file")
        }
      }
      decodeTimes.reserveCapacity(total)
      offsets.reserveCapacity(total)
      for _ in 0..<entries {
        let count = Int(try stts.uint32())
        let duration = try stts.uint32()
        for _ in 0..<count { try addSample(duration: duration, offset: 0, in: stts) }
      }
    }
    if var ctts = tables.first(where: { $0.type == "ctts" }) {
      _ = try ctts.versionAndFlags()
      var sample = 0
      for _ in 0..<(try ctts.entryCount(entrySize: 8)) {
        let count = Int(try ctts.uint32())
        let offset = try ctts.int32()
        guard count <= offsets.count - sample else {
          throw ctts.error("composition offsets for more samples than stts has (\(offsets.count))")
        }
        for index in sample..<(sample + count) { offsets[index] = offset }
        sample += count
      }
    }
    movieSampleCount = decodeTimes.count
  }

  /// Removes the samples at `indices` (ascending, in decode order).
  /// - Complexity: O(*n*) in the track's samples.
  mutating func remove(samplesAt indices: [Int]) {
    guard !indices.isEmpty else { return }
    var next = 0
    var kept = 0
    for index in decodeTimes.indices {
      if next < indices.count && indices[next] == index {
        next += 1
        continue
      }
      (decodeTimes[kept], offsets[kept]) = (decodeTimes[index], offsets[index])
      kept += 1
    }
    decodeTimes.removeLast(decodeTimes.count - kept)
    offsets.removeLast(offsets.count - kept)
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

  mutating func addSample(duration: UInt32, offset: Int32, in box: MovieBox) throws(MovieFormatError) {
    decodeTimes.append(nextDecodeTime)
    offsets.append(offset)
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
    var times = decodeTimes
    decodeTimes = []
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
    return MovieTiming.Track(id: id, timescale: timescale, presentationTimes: times)
  }
}
