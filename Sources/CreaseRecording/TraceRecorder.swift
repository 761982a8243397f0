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
/// Like a session, it keeps a reorder window: it writes an event up to ``reorderWindow`` behind
/// the latest one as it comes, and refuses one further behind, or after ``finish(at:)``. Give
/// it the session's window and call ``advance(to:)`` where the session's idle advance is
/// called: it then takes exactly the events the session took, in the order it took them, and
/// the recording, replayed with that window (`reorderWindowMs`), gives the session's cues
/// byte for byte. It refuses whatever a trace
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
  /// How far behind the latest event one may come and still be written, as a session's
  /// window: 0 unless given.
  public let reorderWindow: Nanoseconds

  /// Starts a trace in `sink` with its header line.
  /// - Parameters:
  ///   - sink: where the lines go, each whole.
  ///   - header: the trace's header line: the device, the OS, declared frame rates.
  ///   - reorderWindow: how far behind the latest event an event may come and still be
  ///     written: the window of the session fed the same calls (0, the default, takes events
  ///     in order only). A negative window counts as 0.
  /// - Throws: ``Failure/refusedHeader(_:)`` for a header `crease` would not read back, before
  ///   anything is written; ``Failure/sink(_:)`` when the sink fails.
  public init(sink: Sink, header: TraceHeader = TraceHeader(), reorderWindow: Nanoseconds = .zero)
    throws(Failure)
  {
    if let reason = RefusedHeader.reason(for: header) {
      throw .refusedHeader(RefusedHeader(header: header, reason: reason))
    }
    self.writer = sink
    self.reorderWindow = Swift.max(reorderWindow, .zero)
    line.reserveCapacity(256)
    try write(.header(header))
  }

  /// Writes `event` as a trace line.
  /// - Complexity: O(*l*) in the line's length; no allocation in steady state.
  // Inlinable, with the steps it takes. Tuning: inlinable-generic.
  @inlinable
  public mutating func send(_ event: Event) throws(Failure) {
    if let reason = refusal(of: event) { throw .refusedEvent(RefusedEvent(event: event, reason: reason)) }
    if case .end = event.payload { ended = true }
    if event.t > latest { latest = event.t }
    try write(.event(event))
  }

  /// Idle advance, as a session's `advance(to:)`: moves the latest time to `t` (if later)
  /// without writing a line, so the recorder refuses what the session refuses after it. The
  /// replay needs no line for it: the cues depend on the events, not on when time moved.
  public mutating func advance(to t: Nanoseconds) {
    if t > latest { latest = t }
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
    if latest - event.t > reorderWindow { return .late(behind: latest - event.t) }
    return nil
  }

  @inlinable
  mutating func write(_ record: TraceRecord) throws(Failure) {
    line.removeAll(keepingCapacity: true)
    TraceEncoder.encode(record, into: &line)
    // The line lent as a pointer for the one call. `withUnsafeBytes` rethrows untyped, so the
    // sink's error is cast back to its type, not carried in a `Result` typed by the sink's
    // failure. Tuning: inlinable-generic.
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

/// Failures compare equal where their sink's do, so an app's test can expect a given one.
extension TraceRecorder.Failure: Equatable where Sink.Failure: Equatable {}
