import CreaseSystem

/// Where a track's samples lie in the file, from its sample tables: sizes (`stsz`), chunks
/// (`stsc`) and chunk offsets (`stco` or `co64`). Read as the track's tables are, and kept as
/// packed data ends, for a file cut short, to tell the samples whose data it still holds.
struct ChunkLayout {
  let sizes: MovieBox
  let chunks: MovieBox
  let offsets: MovieBox

  /// The layout in a sample table's boxes, or `nil` when one of the three is missing.
  init?(_ tables: [MovieBox]) {
    guard let sizes = tables.first(where: { $0.type == "stsz" }),
      let chunks = tables.first(where: { $0.type == "stsc" }),
      let offsets = tables.first(where: { $0.type == "stco" || $0.type == "co64" })
    else { return nil }
    (self.sizes, self.chunks, self.offsets) = (sizes, chunks, offsets)
  }

  /// Calls `body` with each of the first `count` samples' index and the offset just past its
  /// data, in decode order; samples the tables do not place (they run out first) are not
  /// passed. Sums saturate: a hostile offset is a sample past any file's end.
  /// - Complexity: O(*n* + *c*) in the samples and the chunks.
  func forEachDataEnd(count: Int, _ body: (_ sample: Int, _ end: Int) -> Void) throws(MovieFormatError) {
    var sizes = sizes
    _ = try sizes.versionAndFlags()
    let uniformSize = Int(try sizes.uint32())
    let sizeCount = uniformSize == 0 ? try sizes.entryCount(entrySize: 4) : Int(try sizes.uint32())
    var chunks = chunks
    _ = try chunks.versionAndFlags()
    var chunkEntries = try chunks.entryCount(entrySize: 12)
    var offsets = offsets
    let wide = offsets.type == "co64"
    _ = try offsets.versionAndFlags()
    let chunkCount = try offsets.entryCount(entrySize: wide ? 8 : 4)

    // The run of chunks now read: its samples per chunk, and the first chunk of the next run.
    var samplesPerChunk = 0
    var nextRunChunk = Int.max
    if chunkEntries > 0 {
      _ = try chunks.uint32()  // the first run starts at chunk 1
      chunkEntries -= 1
      samplesPerChunk = Int(try chunks.uint32())
      try chunks.skip(4)
      if chunkEntries > 0 { nextRunChunk = Int(try chunks.uint32()) }
    }
    var sample = 0
    var chunk = 0
    while chunk < chunkCount && sample < count {
      chunk += 1
      if chunk == nextRunChunk {
        chunkEntries -= 1
        samplesPerChunk = Int(try chunks.uint32())
        try chunks.skip(4)
        nextRunChunk = chunkEntries > 0 ? Int(try chunks.uint32()) : .max
      }
      var end = wide ? Int(clamping: try offsets.uint64()) : Int(try offsets.uint32())
      for _ in 0..<min(samplesPerChunk, count - sample) {
        guard uniformSize != 0 || sample < sizeCount else { return }
        end = end.addingSaturated(uniformSize != 0 ? uniformSize : Int(try sizes.uint32()))
        body(sample, end)
        sample += 1
      }
    }
  }
}
