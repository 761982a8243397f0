import Crease

/// Records an app's hinge and capture events as a Crease trace while it runs: the header line
/// first, a line per event, an `end` line last, in exactly the format `crease replay` reads.
///
/// It takes the same calls as `CreaseSession` (`EventSending`), so an app can
/// feed both from one place and replay the recording later to the same cues. Each line is
/// encoded into a buffer the recorder keeps, and handed whole to the app's ``TraceSink``: no
/// allocation per event once the buffer has grown to the longest line.
///
/// ```swift
/// var recorder = try TraceRecorder(sink: file, header: TraceHeader(device: "iPhone Duo"))
/// try recorder.hinge(.degrees(12), status: .closed, at: .zero)
/// try recorder.frame(PresentationTime(value: 1001, timescale: 30000)!, camera: .outerFront, at: t)
/// try recorder.finish()
/// ```
///
/// Like a session, it refuses an event before the latest one (a trace read by `crease` with no
/// reorder window would find it late) or after ``finish(at:)``, and it refuses whatever a trace
/// cannot hold (`Event/traceRefusal`: a negative `t`, an angle that is not a finite
/// number of degrees, an empty stream name, a camera both toward and away); a refusal is a
/// ``Failure/refusedEvent(_:)`` and nothing is written. Every line it writes passes `crease check`.
/// Errors are typed: a refusal, or the sink's own ``TraceSink/Failure``.
public struct TraceRecorder<Sink: TraceSink>: EventSending {
  /// Why the recorder did not take a header or an event.
  public enum Failure: Error {
    /// A header `crease` would not read back; nothing was written.
    case refusedHeader(RefusedHeader)
    /// An event `crease` would not read back, or out of order; nothing was written.
    case refusedEvent(RefusedEvent)
    /// The sink failed to take a line.
    case sink(Sink.Failure)
  }

  /// The sink, for an app that wants it back (to close a file, say).
  public var sink: Sink { writer }
  // Usable from inlinable code: the calls for each event are inlined into the app's build, so
  // they are compiled for its sink (see `send`).
  @usableFromInline var writer: Sink
  @usableFromInline var line: [UInt8] = []
  @usableFromInline var latest = Nanoseconds.zero
  @usableFromInline var ended = false

  /// Starts a trace in `sink` with its header line.
  /// - Throws: ``Failure/refusedHeader(_:)`` for a header `crease` would not read back, before
  ///   anything is written; ``Failure/sink(_:)`` when the sink fails.
  public init(sink: Sink, header: TraceHeader = TraceHeader()) throws(Failure) {
    if let reason = RefusedHeader.reason(for: header) {
      throw .refusedHeader(RefusedHeader(header: header, reason: reason))
    }
    self.writer = sink
    line.reserveCapacity(256)
    try write(.header(header))
  }

  /// Writes `event` as a trace line.
  /// - Complexity: O(*l*) in the line's length; no allocation in steady state.
  // Inlinable, with the steps it takes: compiled generically, in this module, each call looked
  // up the metadata of `Failure`, a type generic over the sink, about 600 instructions an event
  // (callgrind, `make library-cost`).
  @inlinable
  public mutating func send(_ event: Event) throws(Failure) {
    if let reason = refusal(of: event) { throw .refusedEvent(RefusedEvent(event: event, reason: reason)) }
    if case .end = event.payload { ended = true }
    latest = event.t
    try write(.event(event))
  }

  /// Ends the trace with an `end` line at `t` (by default the latest event's time); later events
  /// are refused. Calling it again changes nothing.
  public mutating func finish(at t: Nanoseconds? = nil) throws(Failure) {
    guard !ended else { return }
    try send(Event(t: t ?? latest, .end))
  }

  @inlinable
  func refusal(of event: Event) -> RefusedEvent.Reason? {
    if ended { return .afterEnd }
    if let reason = event.traceRefusal { return reason }
    if event.t < latest { return .late(behind: latest - event.t) }
    return nil
  }

  @inlinable
  mutating func write(_ record: TraceRecord) throws(Failure) {
    line.removeAll(keepingCapacity: true)
    TraceEncoder.encode(record, into: &line)
    // The line lent as a pointer for the one call. `withUnsafeBytes` rethrows untyped, so the
    // sink's error is cast back to its type; a `Result` typed by the sink's failure instead cost
    // a look-up of its generic metadata at every line, about 1,000 instructions an event in an
    // app's build (callgrind, `make library-cost`).
    do {
      try line.withUnsafeBytes { bytes in try writer.write(bytes) }
    } catch let failure as Sink.Failure {
      throw .sink(failure)
    } catch {
      preconditionFailure("a sink throws only its own Failure: \(error)")
    }
  }
}

extension TraceRecorder: Sendable where Sink: Sendable {}

extension TraceRecorder.Failure {
  /// The event refused, with why; `nil` for another failure.
  public var refusedEvent: RefusedEvent? {
    if case .refusedEvent(let refusal) = self { refusal } else { nil }
  }

  /// The header refused, with why; `nil` for another failure.
  public var refusedHeader: RefusedHeader? {
    if case .refusedHeader(let refusal) = self { refusal } else { nil }
  }
}

extension TraceRecorder.Failure: CustomStringConvertible {
  /// What failed, in one line.
  public var description: String {
    switch self {
    case .refusedHeader(let refusal): "\(refusal)"
    case .refusedEvent(let refusal): "\(refusal)"
    case .sink(let failure): "the trace sink failed: \(failure)"
    }
  }
}
