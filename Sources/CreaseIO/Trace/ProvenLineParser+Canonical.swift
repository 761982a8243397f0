import Crease

extension ProvenLineParser {
  /// The record on `line` when it is spelled exactly as a ``CanonicalSpelling`` spells it, or
  /// `nil`.
  ///
  /// Recorders and `crease convert` write an event with `t` and `kind` first, then the kind's
  /// fields in a fixed order, with no spaces (``CanonicalSpelling/compact``): nearly every line
  /// of a real trace. A Python tool writing the same members in the same order with
  /// `json.dumps` puts a space after each `:` and `,` (``CanonicalSpelling/spaced``). Such a
  /// line is matched as its literals and values in turn, with no key lookup and no record of
  /// which members were seen. Its values go through the general path's own readers and checks,
  /// so it accepts a subset of what that path accepts, read to the same values; any other
  /// spelling is left to it. With `ignoringUnknownKeys`, members of keys no kind defines may
  /// follow the kind's fields (a recorder's own `seq`, say), as
  /// ``parseMembers(_:ignoringUnknownKeys:)`` takes them.
  /// - Complexity: O(*n*) in the length of the line.
  func parseCanonical(_ line: UnsafeRawBufferPointer, ignoringUnknownKeys: Bool = false) -> TraceRecord? {
    guard
      let (record, length) =
        parseCanonicalPrefix(
          Scanner(bytes: line), spelledAs: .compact, ignoringUnknownKeys: ignoringUnknownKeys)
        ?? parseSpacedCanonicalPrefix(line, ignoringUnknownKeys: ignoringUnknownKeys),
      length == line.count
    else { return nil }
    return record
  }

  /// The record a canonical line at the start of `padded` holds, and its length up to its
  /// closing brace, or `nil`. Nothing it accepts holds a newline (names and labels refuse
  /// control bytes), so when a newline follows, it ends the line: a reader may parse a line
  /// where it lies in its buffer before knowing where it ends. The zeros after the buffer let
  /// the compact template read on without checking how many bytes are left (callgrind, the day
  /// trace's JSON Lines: 20 instructions a line).
  /// - Complexity: O(*n*) in the length of the line.
  // The compact template inlined into the reader's loop, the spaced one a call. Tuning: hot-inline.
  @inline(__always)
  func parseCanonicalPrefix(
    _ padded: ZeroPaddedBytes, ignoringUnknownKeys: Bool = false
  ) -> (TraceRecord, length: Int)? {
    parseCanonicalPrefix(Scanner(padded), spelledAs: .compact, ignoringUnknownKeys: ignoringUnknownKeys)
      ?? parseSpacedCanonicalPrefix(padded.bytes, ignoringUnknownKeys: ignoringUnknownKeys)
  }

  /// The template for ``CanonicalSpelling/spaced``: a call of its own, tried only for a line
  /// that is not compact, so the reader's loop stays small.
  @inline(never)
  private func parseSpacedCanonicalPrefix(
    _ bytes: UnsafeRawBufferPointer, ignoringUnknownKeys: Bool
  ) -> (TraceRecord, length: Int)? {
    parseCanonicalPrefix(Scanner(bytes: bytes), spelledAs: .spaced, ignoringUnknownKeys: ignoringUnknownKeys)
  }

  /// The template for one spelling, read by `scanner` from its start: inlined where it is
  /// asked, so `spelling` and whether zeros follow the bytes are constants, and each literal
  /// is compared in place.
  /// - Complexity: O(*n*) in the length of the line.
  // Tuning: hot-inline.
  @inline(__always)
  private func parseCanonicalPrefix(
    _ scanner: consuming Scanner, spelledAs spelling: CanonicalSpelling, ignoringUnknownKeys: Bool
  ) -> (TraceRecord, length: Int)? {
    var scanner = scanner
    // A negative `t` is left to the general path, which leaves it to json-c to refuse.
    guard scanner.take(spelling.time), let time = scanner.naturalNumber()
    else { return nil }
    let payload: Event.Payload
    // Frames first: most lines of a trace (57 % of the day trace's; callgrind, 4 instructions
    // a line fewer than hinges first).
    if scanner.take(spelling.frameStream) {
      guard let (stream, pts) = scanner.streamAndPTS(recentStrings, spelledAs: spelling) else { return nil }
      var camera: Camera?
      if scanner.take(spelling.camera) {
        guard let named = scanner.name(cameras) else { return nil }
        camera = named
      }
      payload = .frame(Frame(stream: stream, pts: pts, camera: camera))
    } else if scanner.take(spelling.hingeAngle) {
      guard let angle = scanner.decimal(), scanner.take(spelling.status),
        let status = scanner.name(statuses)
      else { return nil }
      payload = .hinge(HingeDelivery(angle: .degrees(angle), status: status))
    } else if scanner.take(spelling.dropStream) {
      guard let (stream, pts) = scanner.streamAndPTS(recentStrings, spelledAs: spelling) else { return nil }
      var reason: DropReason?
      if scanner.take(spelling.reason) {
        guard let named = scanner.name(dropReasons) else { return nil }
        reason = named
      }
      payload = .drop(Drop(stream: stream, pts: pts, reason: reason))
    } else if scanner.take(spelling.markLabel) {
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
  // Inlined into the template, where each matcher is known: as a call of its own for each
  // type, a hinge's status and a frame's camera cost 20 instructions a line more (callgrind,
  // the bench's day trace). Tuning: hot-inline.
  @inline(__always)
  fileprivate mutating func name<Named>(_ matcher: NameMatcher<Named>) -> Named? {
    guard take(UInt8(ascii: "\""))
    else { return nil }
    guard let (value, length) = matcher.matchQuoted(words(at: offset)) else { return nil }
    offset &+= length
    return value
  }

  /// A stream name (a long one made by `recent`), then `,"pts":` as `spelling` spells it and
  /// an integer pts: a call of its own for each spelling, so that the literal is a constant in
  /// each (picked at run time, it cost a branch and a call to `memcmp` a frame).
  @inline(__always)
  fileprivate mutating func streamAndPTS(
    _ recent: RecentStrings, spelledAs spelling: ProvenLineParser.CanonicalSpelling
  ) -> (StreamName, PresentationTime)? {
    switch spelling {
    case .compact: zeroPadded ? paddedCompactStreamAndPTS(recent) : compactStreamAndPTS(recent)
    case .spaced: spacedStreamAndPTS(recent)
    }
  }

  /// A short string made lately, quoted, taken where it lies: its end is not looked for.
  @inline(__always)
  private mutating func rememberedQuotedString(_ recent: RecentStrings) -> String? {
    quotedString { recent.rememberedShort(quotedAtStartOf: $0) }
  }

  /// A short stream name made before, quoted, taken where it lies once the quote after it is
  /// found: with more streams than ``rememberedQuotedString(_:)`` finds, delivering in turn. A
  /// call: the template's usual stream is one made lately.
  @inline(never)
  private mutating func knownQuotedString(_ recent: RecentStrings) -> String? {
    quotedString { recent.streamName(quotedAtStartOf: $0) }
  }

  /// The quoted string `find` finds in the sixteen bytes after the opening quote, with its
  /// length, taken with its quotes.
  @inline(__always)
  private mutating func quotedString(_ find: (LineWords) -> (string: String, count: Int)?) -> String? {
    guard zeroPadded || offset < bytes.count, byte(at: offset) == UInt8(ascii: "\""),
      let (string, count) = find(words(at: offset &+ 1))
    else { return nil }
    offset &+= count &+ 2
    return string
  }

  @inline(never)
  private mutating func compactStreamAndPTS(_ recent: RecentStrings) -> (StreamName, PresentationTime)? {
    streamAndPTS(recent, ptsKey: ProvenLineParser.CanonicalSpelling.compact.pts)
  }

  /// ``compactStreamAndPTS(_:)`` for a scanner of zero-padded bytes, read by a scanner made for
  /// them here, so that in this call too the padding is a constant and the reads that it makes
  /// safe skip their checks (callgrind, the day trace's JSON Lines: 23 instructions a line).
  @inline(never)
  private mutating func paddedCompactStreamAndPTS(_ recent: RecentStrings) -> (StreamName, PresentationTime)?
  {
    var padded = Self(ZeroPaddedBytes(unsafeFollowedByZeros: bytes))
    padded.offset = offset
    defer { offset = padded.offset }
    return padded.streamAndPTS(recent, ptsKey: ProvenLineParser.CanonicalSpelling.compact.pts)
  }

  @inline(never)
  private mutating func spacedStreamAndPTS(_ recent: RecentStrings) -> (StreamName, PresentationTime)? {
    streamAndPTS(recent, ptsKey: ProvenLineParser.CanonicalSpelling.spaced.pts)
  }

  @inline(__always)
  private mutating func streamAndPTS(_ recent: RecentStrings, ptsKey: StaticString) -> (
    StreamName, PresentationTime
  )? {
    let stream: StreamName
    if take(#""video""#) {
      stream = .video
    } else if let name = rememberedQuotedString(recent) {
      stream = StreamName(rawValue: name)
    } else if let name = knownQuotedString(recent) {
      stream = StreamName(rawValue: name)
    } else {
      guard let (name, isASCII) = text(),
        let named = ProvenLineParser.Fields.stream(namedOtherThanVideo: name, isASCII: isASCII, recent)
      else {
        return nil
      }
      stream = named
    }
    guard take(ptsKey), let pts = integer() else { return nil }
    return (stream, PresentationTime(nanoseconds: pts))
  }
}
