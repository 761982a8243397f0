import CreaseImport

/// libFuzzer target: movies whose edit lists, sample tables and fragment runs take their values
/// from the input, whole 32- and 64-bit values included, so every sum, difference and product
/// of box values is reached in a few steps (a byte-level mutation of a movie seldom gets past
/// its box sizes). Each movie is read as `crease import` reads it, under `FuzzChecks.movie`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMovieTables(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var values = FuzzValues(Array(UnsafeBufferPointer(start: data, count: size)))
  var tracks: [MovieTimingWriter.Track] = []
  for id in 1...(1 + values.below(3)) {
    var track = MovieTimingWriter.Track(id: UInt32(id), timescale: values.word())
    track.edits = (0..<values.below(4)).map { _ in
      // An empty edit (-1) half the time: runs of them add up before a media edit.
      .init(
        duration: values.doubleWord(),
        mediaTime: values.below(2) == 0 ? -1 : Int64(bitPattern: values.doubleWord()))
    }
    // Sample counts stay small (a run of 2³² samples only meets the cap, slowly); values do not.
    track.durations = (0..<values.below(4)).map { _ in
      .init(count: UInt32(values.below(64)), value: values.word())
    }
    track.offsets = (0..<values.below(3)).map { _ in
      .init(count: UInt32(values.below(64)), value: Int32(bitPattern: values.word()))
    }
    track.defaultDuration = values.below(2) == 0 ? nil : values.word()
    tracks.append(track)
  }
  let fragments = (0..<values.below(4)).map { _ in
    MovieTimingWriter.Fragment(
      trackID: UInt32(1 + values.below(4)), baseDecodeTime: values.below(2) == 0 ? nil : values.doubleWord(),
      samples: (0..<values.below(16)).map { _ in
        .init(duration: values.word(), offset: Int32(bitPattern: values.word()))
      })
  }
  let movie = MovieTimingWriter(movieTimescale: values.word(), tracks: tracks, fragments: fragments)
  FuzzChecks.movie(movie.bytes())
  return 0
}

/// The fuzzer's bytes read as values, big-endian; zeros once they run out.
struct FuzzValues {
  private let bytes: [UInt8]
  private var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  private mutating func byte() -> UInt64 {
    defer { index += 1 }
    return index < bytes.count ? UInt64(bytes[index]) : 0
  }

  /// A value in `0..<bound` from one byte.
  mutating func below(_ bound: Int) -> Int { Int(byte()) % bound }

  mutating func word() -> UInt32 { UInt32((0..<4).reduce(UInt64(0)) { value, _ in value << 8 | byte() }) }

  mutating func doubleWord() -> UInt64 { (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | byte() } }
}
