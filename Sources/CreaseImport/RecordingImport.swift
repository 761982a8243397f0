import Crease
import CreaseIO

/// A real recording as trace events (`crease import`): each video track of a movie, or each
/// line of a timestamp list, as `frame` events of one stream.
///
/// A frame's `pts` is the sample's exact presentation time (a CMTime of the track's timescale,
/// or nanoseconds from a list). Its `t`, the host time a trace needs, is the presentation time
/// in nanoseconds, moved so that the earliest is not negative (an edit list can put samples
/// before 0) and never going back (a regressing timestamp keeps the previous `t`), so the
/// replay sees every frame and reports what the timestamps do.
public enum RecordingImport {
  /// The frames of every video track of `movie`: the first track is `stream`, the next ones
  /// `stream` followed by their place (`video2`, …), each frame from `camera` when given.
  /// - Complexity: O(*n* log *k*) in the *n* samples of *k* tracks, made as they are taken.
  public static func events(of movie: MovieTiming, stream: StreamName, camera: Camera?) -> ImportedFrames {
    ImportedFrames(
      tracks: movie.tracks.enumerated().map { index, track in
        let name = index == 0 ? stream : StreamName(rawValue: "\(stream.rawValue)\(index + 1)")
        return .init(stream: name, timescale: track.timescale, values: track.presentationTimes)
      }, camera: camera)
  }

  /// The frames of a timestamp list, in its order.
  public static func events(of timestamps: [Nanoseconds], stream: StreamName, camera: Camera?)
    -> ImportedFrames
  {
    ImportedFrames(
      tracks: [.init(stream: stream, timescale: nil, values: PackedTimes(timestamps.lazy.map(\.rawValue)))],
      camera: camera)
  }
}

/// A recording's frames as trace events, made one at a time as they are taken: memory is the
/// recording's timing, packed (a byte or two a frame), not its events.
///
/// Tracks one after another, merged by `t` as a stable sort would (a frame at the same `t` as
/// another track's comes after it when its track comes later), since each track's `t` never
/// goes back. A track that ends while another goes on gets a `streamEnd` at its last frame's
/// `t`, right after that frame: its end is where the recording of it stopped, not a stall. The
/// track that ends last gets none: the end of the trace ends it.
public struct ImportedFrames: Sequence, Sendable {
  /// One stream's times.
  struct Track: Sendable {
    var stream: StreamName
    /// The CMTime timescale of `values`; `nil` for nanoseconds.
    var timescale: Int32?
    var values: PackedTimes

    /// The presentation time of `value`, one of `values`. A movie's timescale and times were
    /// checked when its track was read.
    func pts(_ value: Int64) -> PresentationTime {
      guard let timescale else { return PresentationTime(nanoseconds: value) }
      return PresentationTime(value: value, timescale: timescale)!
    }
  }

  let tracks: [Track]
  let camera: Camera?
  /// Added to every time, so that the earliest is not negative.
  let offset: Nanoseconds

  init(tracks: [Track], camera: Camera?) {
    self.tracks = tracks
    self.camera = camera
    // A movie track's times are ascending and a list's are not: the earliest is looked for.
    let earliest =
      tracks.compactMap { track in
        track.timescale == nil
          ? track.values.min().map { Nanoseconds($0) }
          : track.values.first.map { track.pts($0).nanoseconds }
      }.min() ?? .zero
    offset = earliest < .zero ? Nanoseconds.zero - earliest : .zero
  }

  public func makeIterator() -> Iterator { Iterator(self) }

  /// Takes the frame of the lowest `t`, the earlier track's first on a tie, from a heap of the
  /// tracks' next frames.
  public struct Iterator: IteratorProtocol {
    private let frames: ImportedFrames
    /// Each track's times not yet taken, the next of them, and the `t` of its last frame
    /// (`t` never goes back).
    private var cursors: [PackedTimes.Iterator]
    private var upcoming: [Int64?]
    private var latest: [Nanoseconds]
    /// Tracks with a frame left, ordered by their next frame's `t` and then their place.
    private var merge = RunMerge()
    /// The end of a track whose last frame was just taken while others have frames left.
    private var endedTrack: Event?

    init(_ frames: ImportedFrames) {
      self.frames = frames
      var cursors = frames.tracks.map { $0.values.makeIterator() }
      upcoming = cursors.indices.map { cursors[$0].next() }
      self.cursors = cursors
      latest = Array(repeating: .zero, count: frames.tracks.count)
      for track in frames.tracks.indices where upcoming[track] != nil {
        merge.insert(run: track, time: nextTime(of: track))
      }
    }

    /// The `t` of `track`'s next frame: its pts moved by the offset (a saturating sum), never
    /// before the last.
    private func nextTime(of track: Int) -> Nanoseconds {
      Swift.max(latest[track], frames.tracks[track].pts(upcoming[track]!).nanoseconds + frames.offset)
    }

    public mutating func next() -> Event? {
      if let ended = endedTrack.take() { return ended }
      guard let (t, track) = merge.first else { return nil }
      let pts = frames.tracks[track].pts(upcoming[track]!)
      latest[track] = t
      upcoming[track] = cursors[track].next()
      if upcoming[track] != nil {
        merge.advanceFirst(to: nextTime(of: track))
      } else {
        merge.removeFirst()
        if !merge.isEmpty { endedTrack = Event(t: t, .streamEnd(stream: frames.tracks[track].stream)) }
      }
      return Event(t: t, .frame(Frame(stream: frames.tracks[track].stream, pts: pts, camera: frames.camera)))
    }
  }
}
