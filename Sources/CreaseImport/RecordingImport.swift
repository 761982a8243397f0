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
  /// What a recording is, told by its name.
  public enum Kind: Sendable {
    /// A QuickTime or MP4 movie (`.mov`, `.mp4`, `.m4v`).
    case movie
    /// A list of timestamps, one a line.
    case timestampList

    /// The kind of the recording at `path`: a movie by its extension, a timestamp list otherwise.
    public init(path: String) {
      let lowercased = path.lowercased()
      self = [".mov", ".mp4", ".m4v"].contains { lowercased.hasSuffix($0) } ? .movie : .timestampList
    }
  }

  /// The frames of every video track of `movie`: the first track is `stream`, the next ones
  /// `stream` followed by their place (`video2`, …), each frame from `camera` when given.
  /// - Complexity: O(*n* log *n*) in the samples.
  public static func events(of movie: MovieTiming, stream: StreamName, camera: Camera?) -> [Event] {
    let frames = movie.tracks.enumerated().flatMap { index, track in
      let name = index == 0 ? stream : StreamName(rawValue: "\(stream.rawValue)\(index + 1)")
      return track.presentationTimes.map { value in
        // The timescale is checked positive and within Int32 when the track is read.
        (name, PresentationTime(value: value, timescale: track.timescale)!)
      }
    }
    return events(frames, camera: camera)
  }

  /// The frames of a timestamp list, in its order.
  public static func events(of timestamps: [Nanoseconds], stream: StreamName, camera: Camera?) -> [Event] {
    events(timestamps.map { (stream, PresentationTime(nanoseconds: $0.rawValue)) }, camera: camera)
  }

  private static func events(_ frames: [(StreamName, PresentationTime)], camera: Camera?) -> [Event] {
    let earliest = frames.map(\.1.nanoseconds).min() ?? .zero
    let offset = earliest < .zero ? Nanoseconds.zero - earliest : .zero
    var latest: [StreamName: Nanoseconds] = [:]
    let events = frames.map { stream, pts in
      let t = max(latest[stream] ?? .zero, pts.nanoseconds + offset)  // saturating
      latest[stream] = t
      return Event(t: t, .frame(Frame(stream: stream, pts: pts, camera: camera)))
    }
    // Tracks one after another, merged by t; stable, so each keeps its order.
    return events.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
  }
}
