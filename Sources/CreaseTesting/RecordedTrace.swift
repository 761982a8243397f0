import Crease
import CreaseRecording

/// A recording replayed through a session, for an app's tests: a trace as `TraceRecorder`
/// wrote it (a file's or a bundle resource's bytes) in, its cues out, with no Foundation and no
/// JSON library, so the test runs wherever the app does.
///
/// ```swift
/// let cues = try RecordedTrace.cues(of: recording, name: "opening.jsonl")
/// #expect(cues.contains { $0.kind == .hingeStatus(from: .closed, to: .partiallyOpen) })
/// ```
public enum RecordedTrace {
  /// The cues of the trace in `bytes`, replayed as `crease replay` replays it: through a
  /// `CreaseSession` of `configuration` (its reorder window), with the frame rates the
  /// trace's header declares, finished at the trace's end.
  /// - Throws: `TraceDecoder.Failure` for a line Crease does not write (named `name`),
  ///   `ConfigurationError` for a bad configuration or header rate, `RefusedEvent` for an
  ///   event the session refuses (more than the window late, or after `end`).
  /// - Complexity: O(*n*) in the trace's bytes.
  public static func cues(
    of bytes: some Collection<UInt8>, name: String = "trace", configuration: Configuration = .default
  ) throws -> [Cue] {
    let records = try TraceDecoder.records(in: bytes, name: name)
    var frameRates: [StreamName: Double] = [:]
    if case .header(let header)? = records.first { frameRates = header.nominalFrameRates }
    var session = try CreaseSession(configuration: configuration, frameRates: frameRates)
    var cues: [Cue] = []
    for case .event(let event) in records {
      try session.send(event)
      session.drainCues { cues.append($0) }
    }
    session.finish()
    session.drainCues { cues.append($0) }
    return cues
  }
}
