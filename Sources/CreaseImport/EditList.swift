import CreaseSystem

/// A track's edit list (`elst`) as presentation needs it: how media time becomes presentation
/// time, and which media the movie shows.
///
/// Presentation time is a sample's composition time plus ``shift``: the empty edits before the
/// first media edit, less that edit's media start (ISO 14496-12, 8.6.6). A sample is shown when
/// the span it is on screen (from its presentation time to the next sample's, or its own
/// duration for the last) overlaps a media edit's span; a pre-roll sample that ends where the
/// edit starts, and a sample that starts where it ends, are not. Later media edits are placed
/// by the first one's shift, as the times have always been: a movie that shows media twice or
/// out of order is not a camera's recording.
struct EditList: Sendable {
  /// A half-open span of presentation time, in the track's timescale.
  struct Span: Sendable, Equatable {
    var start: Int64
    var end: Int64
  }

  /// Added to a composition time to give the presentation time.
  private(set) var shift: Int64 = 0
  /// The media edits' spans in presentation time, sorted and merged; `nil` when every sample
  /// is shown (no edit list, or one without a media edit).
  private(set) var shown: [Span]?

  /// No edit list: every sample shown, unmoved.
  init() {}

  /// The edit list in `edits` (an `edts` box), for a track of `mediaTimescale` in a movie of
  /// `movieTimescale`. Every sum and product is checked: a shift past 64 bits is refused,
  /// naming the `elst`; a span whose end does not fit runs to the end of time.
  init(_ edits: MovieBox, mediaTimescale: Int64, movieTimescale: Int64) throws(MovieFormatError) {
    guard var list = try edits.children().first(where: { $0.type == "elst" }) else { return }
    let version = try list.versionAndFlags().version
    var empty: Int64 = 0
    var mediaEdits: [(start: Int64, duration: UInt64)] = []
    for _ in 0..<(try list.entryCount(entrySize: version == 1 ? 20 : 12)) {
      let duration = version == 1 ? try list.uint64() : UInt64(try list.uint32())
      let start = version == 1 ? try list.int64() : Int64(try list.int32())
      try list.skip(4)  // rate
      if start != -1 {
        mediaEdits.append((start, duration))
        continue
      }
      // Only the empty edits before the first media edit delay its media.
      guard mediaEdits.isEmpty else { continue }
      guard movieTimescale > 0 else { throw list.error("an empty edit in a movie without a timescale") }
      let (scaled, overflow) = Int64(clamping: duration).multipliedReportingOverflow(by: mediaTimescale)
      guard !overflow else { throw list.error("an empty edit of \(duration) is too long") }
      let (sum, sumOverflow) = empty.addingReportingOverflow(scaled / movieTimescale)
      guard !sumOverflow else { throw list.error("the empty edits add up past 2⁶³") }
      empty = sum
    }
    guard let first = mediaEdits.first else {
      shift = empty
      return
    }
    let (shift, overflow) = empty.subtractingReportingOverflow(first.start)
    guard !overflow else {
      throw list.error("an edit's media time \(first.start) puts presentation past 2⁶³")
    }
    self.shift = shift
    let spans = mediaEdits.map { edit in
      let start = edit.start.addingSaturated(shift)
      let length = Self.mediaLength(
        edit.duration, mediaTimescale: mediaTimescale, movieTimescale: movieTimescale)
      return Span(start: start, end: length.map { start.addingSaturated($0) } ?? .max)
    }
    shown = Self.merged(spans)
  }

  /// An edit's length in the media's timescale, rounded up (a sample that starts inside the
  /// last fraction of a unit is on screen); `nil` for an edit that runs to the end of the
  /// media: a duration of 0 (a fragmented movie's last edit), or one that cannot be scaled.
  private static func mediaLength(_ duration: UInt64, mediaTimescale: Int64, movieTimescale: Int64) -> Int64?
  {
    guard duration > 0, movieTimescale > 0 else { return nil }
    let product = duration.multipliedFullWidth(by: UInt64(mediaTimescale))
    let divisor = UInt64(movieTimescale)
    guard product.high < divisor else { return nil }
    let (quotient, remainder) = divisor.dividingFullWidth(product)
    let rounded = quotient + (remainder > 0 ? 1 : 0)
    return rounded <= UInt64(Int64.max) ? Int64(rounded) : nil
  }

  /// `spans` sorted by start, overlapping and touching ones joined.
  private static func merged(_ spans: [Span]) -> [Span] {
    var merged: [Span] = []
    for span in spans.sorted(by: { $0.start < $1.start }) where span.start < span.end {
      if let last = merged.last, span.start <= last.end {
        merged[merged.count - 1].end = max(last.end, span.end)
      } else {
        merged.append(span)
      }
    }
    return merged
  }

  /// Keeps, of `times` (presentation times, ascending), the samples shown; `lastDuration` is
  /// how long the last one is on screen.
  /// - Complexity: O(*n*) in the samples, in place.
  func keepShown(_ times: inout [Int64], lastDuration: Int64) {
    guard let shown else { return }
    var span = 0
    var kept = 0
    for index in times.indices {
      let start = times[index]
      let next = index + 1 < times.count ? times[index + 1] : start.addingSaturated(max(lastDuration, 1))
      let end = max(next, start.addingSaturated(1))
      while span < shown.count && shown[span].end <= start { span += 1 }
      guard span < shown.count, shown[span].start < end else { continue }
      times[kept] = start
      kept += 1
    }
    times.removeLast(times.count - kept)
  }
}
