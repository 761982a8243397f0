/// One line of a trace, parsed.
public enum TraceRecord: Hashable, Sendable {
  /// The trace's header line.
  case header(TraceHeader)
  /// An event.
  case event(Event)
}
