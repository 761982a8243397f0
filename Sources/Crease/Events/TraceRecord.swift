/// One line of a trace, parsed.
public enum TraceRecord: Hashable, Sendable {
  /// The trace's header line.
  // Indirect: a header (two optional strings, a dictionary) is larger than any event, and a
  // record is moved whole through the reading thread's batches for every event; a box for the
  // one header of a trace made every record 9 bytes smaller (callgrind: 6 instructions a binary
  // event; JSON Lines unchanged).
  indirect case header(TraceHeader)
  /// An event.
  case event(Event)
}
