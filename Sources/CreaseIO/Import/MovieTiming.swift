import Crease

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
    public var presentationTimes: [Int64]
  }

  /// The video tracks, in the order the file lists them.
  public var tracks: [Track]

  /// The largest `moov` or `moof` read into memory.
  static let largestMetadataBox = 256 << 20
  /// The most samples read from one file: eleven hours at 240 fps.
  static let mostSamples = 10_000_000

  /// The timing of the movie in `source`.
  public static func read(_ source: ByteSource) throws -> MovieTiming {
    var reader = TopLevelBoxes(source: source)
    var movie: MovieBox?
    var fragments: [MovieBox] = []
    while let box = try reader.next(keeping: ["moov", "moof"]) {
      if box.type == "moov" {
        guard movie == nil else { throw box.error("a second moov box") }
        movie = box
      } else {
        fragments.append(box)
      }
    }
    guard let movie else {
      throw MovieFormatError(box: "", offset: reader.offset, message: "no moov box: not a movie")
    }
    return try MovieTiming(movie: movie, fragments: fragments)
  }

  private init(movie: MovieBox, fragments: [MovieBox]) throws(MovieFormatError) {
    let boxes = try movie.children()
    var movieTimescale: UInt32 = 0
    if var header = boxes.first(where: { $0.type == "mvhd" }) {
      let version = try header.versionAndFlags().version
      try header.skip(version == 1 ? 16 : 8)
      movieTimescale = try header.uint32()
    }
    var defaults: [UInt32: UInt32] = [:]  // track ID → default sample duration
    for extends in boxes where extends.type == "mvex" {
      for var trex in try extends.children() where trex.type == "trex" {
        _ = try trex.versionAndFlags()
        let track = try trex.uint32()
        try trex.skip(4)
        defaults[track] = try trex.uint32()
      }
    }
    var tracks: [TrackTables] = []
    for trak in boxes where trak.type == "trak" {
      if let track = try TrackTables(trak, movieTimescale: movieTimescale) { tracks.append(track) }
    }
    var sampleCount = tracks.reduce(0) { $0 + $1.decodeTimes.count }
    for fragment in fragments {
      for traf in try fragment.children() where traf.type == "traf" {
        try Self.add(traf, to: &tracks, defaults: defaults, sampleCount: &sampleCount)
      }
    }
    var timed: [Track] = []
    for track in tracks { timed.append(try track.track()) }
    self.tracks = timed
  }

  /// The samples of one track fragment, added to its track.
  private static func add(
    _ traf: MovieBox, to tracks: inout [TrackTables], defaults: [UInt32: UInt32], sampleCount: inout Int
  ) throws(MovieFormatError) {
    let children = try traf.children()
    guard var header = children.first(where: { $0.type == "tfhd" }) else {
      throw traf.error("traf without tfhd")
    }
    let flags = try header.versionAndFlags().flags
    let id = try header.uint32()
    guard let index = tracks.firstIndex(where: { $0.id == id }) else { return }  // not a video track
    if flags & 0x1 != 0 { try header.skip(8) }  // base data offset
    if flags & 0x2 != 0 { try header.skip(4) }  // sample description index
    var defaultDuration = defaults[id] ?? 0
    if flags & 0x8 != 0 { defaultDuration = try header.uint32() }
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
      if runFlags & 0x1 != 0 { try run.skip(4) }  // data offset
      if runFlags & 0x4 != 0 { try run.skip(4) }  // first sample flags
      sampleCount += count
      guard sampleCount <= mostSamples else { throw run.error("more than \(mostSamples) samples") }
      for _ in 0..<count {
        let duration = runFlags & 0x100 != 0 ? try run.uint32() : defaultDuration
        if runFlags & 0x200 != 0 { try run.skip(4) }
        if runFlags & 0x400 != 0 { try run.skip(4) }
        // Signed in version 1; version 0 files write signed offsets too, as ffmpeg reads them.
        let offset = runFlags & 0x800 != 0 ? Int64(try run.int32()) : 0
        try tracks[index].addSample(duration: duration, offset: offset, in: run)
      }
    }
  }
}

/// One track's tables while they are read.
private struct TrackTables {
  /// The `trak` box, named in errors.
  let box: MovieBox
  var id: UInt32
  var timescale: Int32
  var decodeTimes: [Int64] = []
  var offsets: [Int64] = []
  var nextDecodeTime: Int64 = 0
  /// Added to every presentation time: the edit list's empty edits less its first media time.
  var shift: Int64 = 0

  /// The tables of `trak`, or `nil` when it is not a video track.
  init?(_ trak: MovieBox, movieTimescale: UInt32) throws(MovieFormatError) {
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
      shift = try Self.shift(of: edits, mediaTimescale: Int64(scale), movieTimescale: Int64(movieTimescale))
    }
    guard let information = mediaBoxes.first(where: { $0.type == "minf" }),
      let table = try information.children().first(where: { $0.type == "stbl" })
    else { return }
    let tables = try table.children()
    if var stts = tables.first(where: { $0.type == "stts" }) {
      _ = try stts.versionAndFlags()
      for _ in 0..<(try stts.entryCount(entrySize: 8)) {
        let count = Int(try stts.uint32())
        let duration = try stts.uint32()
        guard count <= MovieTiming.mostSamples - decodeTimes.count else {
          throw stts.error("more than \(MovieTiming.mostSamples) samples")
        }
        for _ in 0..<count { try addSample(duration: duration, offset: 0, in: stts) }
      }
    }
    if var ctts = tables.first(where: { $0.type == "ctts" }) {
      _ = try ctts.versionAndFlags()
      var sample = 0
      for _ in 0..<(try ctts.entryCount(entrySize: 8)) {
        let count = Int(try ctts.uint32())
        let offset = Int64(try ctts.int32())
        guard count <= offsets.count - sample else {
          throw ctts.error("composition offsets for more samples than stts has (\(offsets.count))")
        }
        for index in sample..<(sample + count) { offsets[index] = offset }
        sample += count
      }
    }
  }

  /// The shift the edit list gives: empty edits first delay the media (in the movie's
  /// timescale), then the first media edit's start is where presentation begins.
  private static func shift(of edits: MovieBox, mediaTimescale: Int64, movieTimescale: Int64)
    throws(MovieFormatError) -> Int64
  {
    guard var list = try edits.children().first(where: { $0.type == "elst" }) else { return 0 }
    let version = try list.versionAndFlags().version
    var empty: Int64 = 0
    for _ in 0..<(try list.entryCount(entrySize: version == 1 ? 20 : 12)) {
      let duration = version == 1 ? try list.uint64() : UInt64(try list.uint32())
      let start = version == 1 ? try list.int64() : Int64(try list.int32())
      try list.skip(4)  // rate
      guard start == -1 else { return empty - start }
      guard movieTimescale > 0 else { throw list.error("an empty edit in a movie without a timescale") }
      let (scaled, overflow) = Int64(clamping: duration).multipliedReportingOverflow(by: mediaTimescale)
      guard !overflow else { throw list.error("an empty edit of \(duration) is too long") }
      empty += scaled / movieTimescale
    }
    return empty
  }

  mutating func addSample(duration: UInt32, offset: Int64, in box: MovieBox) throws(MovieFormatError) {
    decodeTimes.append(nextDecodeTime)
    offsets.append(offset)
    let (next, overflow) = nextDecodeTime.addingReportingOverflow(Int64(duration))
    guard !overflow else { throw box.error("decode times run past 2⁶³") }
    nextDecodeTime = next
  }

  /// The track: each sample's decode time plus its offset and the edit's shift, in order;
  /// refused when a time, or its nanoseconds, would not fit in 64 bits.
  func track() throws(MovieFormatError) -> MovieTiming.Track {
    var times: [Int64] = []
    times.reserveCapacity(decodeTimes.count)
    for (decode, offset) in zip(decodeTimes, offsets) {
      let (composed, overflow) = decode.addingReportingOverflow(offset)
      let (time, shiftOverflow) = composed.addingReportingOverflow(shift)
      guard !overflow, !shiftOverflow else { throw box.error("a presentation time past 2⁶³") }
      times.append(time)
    }
    times.sort()
    for time in [times.first, times.last].compactMap({ $0 })
    where PresentationTime(value: time, timescale: timescale) == nil {
      throw box.error("presentation time \(time) of timescale \(timescale) is past 2⁶³ nanoseconds")
    }
    return MovieTiming.Track(id: id, timescale: timescale, presentationTimes: times)
  }
}

/// The top-level boxes of a file read front to back: the kept ones with their content, the
/// others (media data, often most of the file) read past.
private struct TopLevelBoxes {
  /// The boxes a QuickTime or MP4 file starts with.
  static let openingBoxes: Set<String> = [
    "ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "styp", "uuid",
  ]

  let source: ByteSource
  private(set) var offset = 0
  private var scratch = [UInt8](repeating: 0, count: 1 << 16)

  init(source: ByteSource) { self.source = source }

  /// The next box whose type is in `keeping`, its content read; `nil` at the end of the file.
  mutating func next(keeping: Set<String>) throws -> MovieBox? {
    while true {
      let start = offset
      guard let header = try read(8, allowingEnd: true) else { return nil }
      var size = Int(header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
      let type = String(decoding: header[4..<8], as: UTF8.self)
      // A movie starts with one of a few boxes: anything else is not a movie at all.
      guard start > 0 || Self.openingBoxes.contains(type) else {
        throw MovieFormatError(
          box: "", offset: start,
          message: "not a QuickTime or MP4 movie: it does not start with a box such as ftyp")
      }
      var headerSize = 8
      if size == 1 {
        let large = try read(8)!.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard large <= UInt64(Int.max) else {
          throw MovieFormatError(box: "", offset: start, message: "\(type) has a size past 2⁶³")
        }
        size = Int(large)
        headerSize = 16
      }
      guard size == 0 || size >= headerSize else {
        throw MovieFormatError(
          box: "", offset: start, message: "\(type) claims \(size) bytes, less than its header")
      }
      guard keeping.contains(type) else {
        if size == 0 { return nil }  // the last box runs to the end of the file
        try discard(size - headerSize, box: type, start: start)
        continue
      }
      guard size != 0, size - headerSize <= MovieTiming.largestMetadataBox else {
        throw MovieFormatError(
          box: type, offset: start,
          message: "\(type) is \(size == 0 ? "unbounded" : "\(size) bytes"), more than Crease reads (256 MiB)"
        )
      }
      let content = try read(size - headerSize)!
      return MovieBox(type: type, path: type, bytes: content[...], fileOffset: start + headerSize)
    }
  }

  /// `count` bytes, or `nil` at a clean end of the file when `allowingEnd`.
  private mutating func read(_ count: Int, allowingEnd: Bool = false) throws -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let read = try bytes.withUnsafeMutableBytes { buffer in
        try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      }
      if read == 0 {
        if filled == 0 && allowingEnd { return nil }
        throw MovieFormatError(box: "", offset: offset + filled, message: "the file ends inside a box")
      }
      filled += read
    }
    offset += count
    return bytes
  }

  private mutating func discard(_ count: Int, box: String, start: Int) throws {
    var left = count
    while left > 0 {
      let read = try scratch.withUnsafeMutableBytes { buffer in
        try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(left, buffer.count)]))
      }
      guard read > 0 else {
        throw MovieFormatError(
          box: "", offset: start, message: "\(box) claims \(count) bytes past the end of the file")
      }
      left -= read
      offset += read
    }
  }
}
