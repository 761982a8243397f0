/// One line of a trace, parsed.
public enum TraceRecord: Hashable, Sendable {
  case header(TraceHeader)
  case event(Event)
}
