import Crease

extension ProvenLineParser {
  /// The record on `line` when it is spelled exactly as ``TraceEncoder`` writes it, or `nil`.
  ///
  /// Recorders and `crease convert` write an event with `t` and `kind` first, then the kind's
  /// fields in a fixed order, with no spaces: nearly every line of a real trace. Such a line is
  /// matched as its literals and values in turn, with no key lookup and no record of which
  /// members were seen. Its values go through the general path's own readers and checks, so
  /// it accepts a subset of what that path accepts, read to the same values; any other spelling
  /// is left to it. With `ignoringUnknownKeys`, members of keys no kind defines may follow the
  /// kind's fields (a recorder's own `seq`, say), as ``parseMembers(_:ignoringUnknownKeys:)``
  /// takes them.
  /// - Complexity: O(*n*) in the length of the line.
  func parseCanonical(_ line: UnsafeRawBufferPointer, ignoringUnknownKeys: Bool = false) -> TraceRecord? {
    guard let (record, length) = parseCanonicalPrefix(line, ignoringUnknownKeys: ignoringUnknownKeys),
      length == line.count
    else { return nil }
    return record
  }

  /// The record a canonical line at the start of `bytes` holds, and its length up to its closing
  /// brace, or `nil`. Nothing it accepts holds a newline (names and labels refuse control
  /// bytes), so when a newline follows, it ends the line: a reader may parse a line where it
  /// lies in its buffer before knowing where it ends.
  /// - Complexity: O(*n*) in the length of the line.
  // Inlined into the reader's loop. Tuning: hot-inline.
  @inline(__always)
  func parseCanonicalPrefix(
    _ bytes: UnsafeRawBufferPointer, ignoringUnknownKeys: Bool = false
  ) -> (TraceRecord, length: Int)? {
    var scanner = Scanner(bytes: bytes)
    // A negative `t` is left to the general path, which leaves it to json-c to refuse.
    guard scanner.take(#"{"t":"#), let time = scanner.naturalNumber(), scanner.take(#","kind":""#)
    else { return nil }
    let payload: Event.Payload
    if scanner.take(#"hinge","angle":"#) {
      guard let angle = scanner.number().flatMap(Fields.number), scanner.take(#","status":"#),
        let status = scanner.name(statuses)
      else { return nil }
      payload = .hinge(HingeDelivery(angle: .degrees(angle), status: status))
    } else if scanner.take(#"frame","stream":"#) {
      guard let (stream, pts) = scanner.streamAndPTS(recentStrings) else { return nil }
      var camera: Camera?
      if scanner.take(#","camera":"#) {
        guard let named = scanner.name(cameras) else { return nil }
        camera = named
      }
      payload = .frame(Frame(stream: stream, pts: pts, camera: camera))
    } else if scanner.take(#"drop","stream":"#) {
      guard let (stream, pts) = scanner.streamAndPTS(recentStrings) else { return nil }
      var reason: DropReason?
      if scanner.take(#","reason":"#) {
        guard let named = scanner.name(dropReasons) else { return nil }
        reason = named
      }
      payload = .drop(Drop(stream: stream, pts: pts, reason: reason))
    } else if scanner.take(#"mark","label":"#) {
      guard let (bytes, isASCII) = scanner.text(), let label = recentStrings.string(bytes, isASCII: isASCII)
      else { return nil }
      payload = .mark(label: label)
    } else {
      return nil
    }
    guard scanner.take(UInt8(ascii: "}")) || (ignoringUnknownKeys && scanner.unknownMembersToTheEnd())
    else { return nil }
    return (.event(Event(t: Nanoseconds(time), payload)), scanner.offset)
  }
}

extension ProvenLineParser.Scanner {
  /// A quoted name of `matcher`'s type, matched in place without scanning for its end.
  fileprivate mutating func name<Named>(_ matcher: NameMatcher<Named>) -> Named? {
    guard take(UInt8(ascii: "\""))
    else { return nil }
    guard let (value, length) = matcher.matchQuoted(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
    else { return nil }
    offset &+= length
    return value
  }

  /// A stream name (a long one made by `recent`), then `,"pts":` and an integer pts.
  fileprivate mutating func streamAndPTS(_ recent: RecentStrings) -> (StreamName, PresentationTime)? {
    let stream: StreamName
    if take(#""video""#) {
      stream = .video
    } else {
      guard let (name, isASCII) = text(),
        let named = ProvenLineParser.Fields.stream(named: name, isASCII: isASCII, recent)
      else {
        return nil
      }
      stream = named
    }
    guard take(#","pts":"#), let pts = integer() else { return nil }
    return (stream, PresentationTime(nanoseconds: pts))
  }
}
