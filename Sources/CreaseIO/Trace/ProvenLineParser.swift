import CJSONC
import Crease
import CreaseRecording

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The parser of the lines it can prove json-c reads the same: a one-pass matcher, in front of
/// json-c, for every event kind in plain JSON (the header and `end` aside). No tree, no
/// allocation beyond the record's own strings: a day's context events (`session`, `app`,
/// `display`, `direction`, `input`) cost json-c 25 to 40 allocations each.
///
/// It accepts a line only when it can prove json-c (strict, UTF-8 checked) accepts it with the
/// same values:
/// - an object of members with plain keys, each field of the type its kind wants, no key twice;
/// - strings without escapes or control bytes: printable ASCII, and a stream or view name or a
///   label also in well-formed UTF-8, which json-c's path checks as ``UTF8Check`` does (a name
///   past ASCII cost a frame's line 9,000 instructions and 25 allocations there);
/// - `true`, `false`, lists of plain strings, integers of at most 18 digits, and plain decimals
///   of at most 19 digits, read exactly: by Clinger's fast path when the significand is at most
///   2^53, else by an integer division rounded to nearest, ties to even; longer ones by the C
///   library's `strtod`, as json-c reads them, in the C locale. All round correctly, so the
///   double is the same;
/// - no key no kind defines, unless a replay asks for such members to be skipped (json-c's path
///   ignores them; `crease check` has json-c list them), and then only with values of these
///   forms or `null`.
///
/// A line spelled exactly as `TraceEncoder` writes it, or as Python's `json.dumps` spaces the
/// same members, is matched first as a fixed template
/// (``parseCanonical(_:ignoringUnknownKeys:)``), any other spelling member by member
/// (``parseMembers(_:ignoringUnknownKeys:)``). Anything else returns `nil`, and ``TraceParser``
/// decides with json-c, which stays the reference and writes every error message (SPEC 9).
/// Differential tests and a fuzz target hold the two to the same accepted set and values.
///
/// An instance holds the names each field may hold, built once for a ``TraceParser``: as
/// globals, each line paid for the check of their one-time initialization.
struct ProvenLineParser {
  /// A member name the fast path takes.
  typealias Key = TraceKey

  /// The kinds the fast path takes.
  static let kinds: [EventKind] = EventKind.allCases.filter { $0 != .end }

  /// The keys of the kinds the fast path takes; any other key sends the line to json-c.
  static let keys: [Key] =
    [.t, .kind]
    + TraceKey.allCases.filter { key in
      kinds.contains { TraceKey.defined(by: $0).contains(key) }
    }

  /// One member's value, as found on the line.
  enum Value {
    /// A string without escapes or control bytes, and whether it is all ASCII: only names and
    /// labels may hold more, and they are checked as UTF-8 as they are made.
    case string(UnsafeRawBufferPointer, isASCII: Bool)
    case integer(Int64)
    /// A decimal, or an integer literal, where a number is wanted.
    case number(Double)
    case bool(Bool)
    /// `null`, which no field the fast path reads takes: only an unknown key's.
    case null
    /// A list of plain strings: the bytes between its brackets, each element checked.
    case list(UnsafeRawBufferPointer)
  }

  /// The names a field of each kind may hold.
  let statuses = NameMatcher<HingeStatus>()
  let cameras = NameMatcher<Camera>()
  let dropReasons = NameMatcher<DropReason>()
  let displays = NameMatcher<Display>()
  let appStates = NameMatcher<AppState>()
  /// The long stream names, view names and labels made lately, made again without allocating.
  let recentStrings = RecentStrings()

  /// The record on `line`, or `nil` when json-c must decide. With `ignoringUnknownKeys`, a
  /// member whose key no kind the fast path takes defines is skipped, as json-c's path ignores
  /// it, when its name and value are ones it can prove json-c accepts; without, such a line is
  /// json-c's (whose path lists its unknown keys for `crease check`).
  /// - Complexity: O(*n*) in the length of the line.
  func parse(_ line: UnsafeRawBufferPointer, ignoringUnknownKeys: Bool = false) -> TraceRecord? {
    parseCanonical(line, ignoringUnknownKeys: ignoringUnknownKeys)
      ?? parseMembers(line, ignoringUnknownKeys: ignoringUnknownKeys)
  }

  /// The record on `line` read member by member, in any order and spacing, or `nil` when
  /// json-c must decide; members of unknown keys skipped when `ignoringUnknownKeys`.
  /// - Complexity: O(*n*) in the length of the line.
  func parseMembers(_ line: UnsafeRawBufferPointer, ignoringUnknownKeys: Bool = false) -> TraceRecord? {
    var scanner = Scanner(bytes: line)
    var fields = Fields()
    // Taken once a line: a static table is reached through its one-time initializer's check.
    let keyWords = KeyWords.shared
    scanner.skipSpaces()
    guard scanner.take(UInt8(ascii: "{")) else { return nil }
    repeat {
      scanner.skipSpaces()
      let keyStart = scanner.offset
      if let key = scanner.key(keyWords) {
        scanner.skipSpaces()
        guard scanner.take(UInt8(ascii: ":")) else { return nil }
        scanner.skipSpaces()
        guard let value = scanner.value(), fields.set(key, value) else { return nil }
      } else {
        scanner.offset = keyStart
        guard ignoringUnknownKeys, scanner.unknownMember() else { return nil }
      }
      scanner.skipSpaces()
    } while scanner.take(UInt8(ascii: ","))
    guard scanner.take(UInt8(ascii: "}")) else { return nil }
    scanner.skipSpaces()
    guard scanner.atEnd else { return nil }
    return fields.record(names: self)
  }

  /// Whether a string's bytes, read by ``Scanner/text()``, are well-formed UTF-8, as json-c's
  /// path requires of every byte of a line: a name or label is checked as it is made, a string
  /// no field reads only here.
  static func isWellFormed(_ text: (bytes: UnsafeRawBufferPointer, isASCII: Bool)) -> Bool {
    text.isASCII || UTF8Check.firstInvalidOffset(in: text.bytes) == nil
  }

  /// The members found so far, each at most once.
  struct Fields {
    var t: Value?
    var kind: Value?
    var angle: Value?
    var angleRad: Value?
    var status: Value?
    var stream: Value?
    var pts: Value?
    var camera: Value?
    var reason: Value?
    var label: Value?
    var view: Value?
    var toward: Value?
    var away: Value?
    var display: Value?
    var fullScreen: Value?
    var state: Value?
    var running: Value?
    var previewVisible: Value?
    /// How many members were found: a kind's record is made only when every one of them is a
    /// member it reads, so a member of another kind sends the line to json-c.
    var count = 0

    /// Records `value` for `key`; `false` for a duplicate, which json-c resolves its own way, or
    /// for a key left to json-c.
    mutating func set(_ key: Key, _ value: Value) -> Bool {
      func store(_ slot: inout Value?) -> Bool {
        guard slot == nil else { return false }
        slot = value
        count &+= 1
        return true
      }
      switch key {
      case .t: return store(&t)
      case .kind: return store(&kind)
      case .angle: return store(&angle)
      case .angleRad: return store(&angleRad)
      case .status: return store(&status)
      case .stream: return store(&stream)
      case .pts: return store(&pts)
      case .camera: return store(&camera)
      case .reason: return store(&reason)
      case .label: return store(&label)
      case .view: return store(&view)
      case .toward: return store(&toward)
      case .away: return store(&away)
      case .display: return store(&display)
      case .fullScreen: return store(&fullScreen)
      case .state: return store(&state)
      case .running: return store(&running)
      case .previewVisible: return store(&previewVisible)
      default: return false
      }
    }

    /// Whether the members found are `t`, `kind` and the `read` others a kind's record took.
    private func readAll(_ read: Int) -> Bool { count == 2 &+ read }

    /// 1 when `value` is there, else 0: for counting the optional members a record read.
    private static func one(_ value: Value?) -> Int { value == nil ? 0 : 1 }

    /// The record the members spell, their names matched by `names`' matchers.
    func record(names: ProvenLineParser) -> TraceRecord? {
      guard case .string(let kindName, _)? = kind, case .integer(let time)? = t, time >= 0 else { return nil }
      let t = Nanoseconds(time)
      switch kindName.count {
      case 5 where Self.equal(kindName, "hinge"):
        guard readAll(2), let status = status.flatMap({ Self.name($0, names.statuses) }) else { return nil }
        let delivered: HingeAngle
        switch (angle, angleRad) {
        case (let degrees?, nil):
          guard let value = Self.number(degrees) else { return nil }
          delivered = .degrees(value)
        case (nil, let radians?):
          // Left to json-c, which names the problem, when it is not finite in degrees.
          guard let value = Self.number(radians), HingeAngle.radians(value).degrees.isFinite else {
            return nil
          }
          delivered = .radians(value)
        default:
          return nil
        }
        return .event(Event(t: t, .hinge(HingeDelivery(angle: delivered, status: status))))
      case 5 where Self.equal(kindName, "frame"):
        guard readAll(1 &+ Self.one(stream) &+ Self.one(camera)), case .integer(let pts)? = pts,
          let stream = Self.stream(stream, names.recentStrings),
          let frameCamera = Self.optional(camera, names.cameras)
        else { return nil }
        return .event(
          Event(
            t: t, .frame(Frame(stream: stream, pts: PresentationTime(nanoseconds: pts), camera: frameCamera)))
        )
      case 4 where Self.equal(kindName, "drop"):
        guard readAll(1 &+ Self.one(stream) &+ Self.one(reason)), case .integer(let pts)? = pts,
          let stream = Self.stream(stream, names.recentStrings),
          let named = Self.optional(reason, names.dropReasons)
        else { return nil }
        return .event(
          Event(t: t, .drop(Drop(stream: stream, pts: PresentationTime(nanoseconds: pts), reason: named))))
      case 4 where Self.equal(kindName, "mark"):
        guard readAll(1), case .string(let text, let isASCII)? = label,
          let label = names.recentStrings.string(text, isASCII: isASCII)
        else { return nil }
        return .event(Event(t: t, .mark(label: label)))
      case 5 where Self.equal(kindName, "input"):
        guard readAll(1 &+ Self.one(stream)), let stream = Self.stream(stream, names.recentStrings),
          let camera = camera.flatMap({ Self.name($0, names.cameras) })
        else { return nil }
        return .event(Event(t: t, .input(stream: stream, camera: camera)))
      case 9 where Self.equal(kindName, "streamEnd"):
        guard readAll(Self.one(stream)), let stream = Self.stream(stream, names.recentStrings) else {
          return nil
        }
        return .event(Event(t: t, .streamEnd(stream: stream)))
      case 3 where Self.equal(kindName, "app"):
        guard readAll(1), let state = state.flatMap({ Self.name($0, names.appStates) }) else { return nil }
        return .event(Event(t: t, .app(state)))
      case 7 where Self.equal(kindName, "display"):
        guard readAll(2), let display = display.flatMap({ Self.name($0, names.displays) }),
          case .bool(let fullScreen)? = fullScreen
        else { return nil }
        return .event(Event(t: t, .display(DisplayChange(display: display, fullScreen: fullScreen))))
      case 7 where Self.equal(kindName, "session"):
        guard readAll(1 &+ Self.one(previewVisible)), case .bool(let running)? = running else { return nil }
        var preview: Bool?
        if let previewVisible {
          guard case .bool(let visible) = previewVisible else { return nil }
          preview = visible
        }
        return .event(Event(t: t, .session(SessionState(running: running, previewVisible: preview))))
      case 9 where Self.equal(kindName, "direction"):
        guard readAll(2 &+ Self.one(view)),
          let (toward, innerFrontFirst) = Self.cameras(toward, names.cameras),
          let (away, _) = Self.cameras(away, names.cameras), toward.intersection(away).isEmpty
        else { return nil }
        var name = ViewName.main
        if let view {
          // An empty name is json-c's to judge.
          guard case .string(let bytes, let isASCII) = view, !bytes.isEmpty,
            let made = names.recentStrings.string(bytes, isASCII: isASCII)
          else { return nil }
          name = ViewName(rawValue: made)
        }
        return .event(
          Event(
            t: t,
            .direction(
              DirectionUpdate(view: name, toward: toward, away: away, innerFrontListedFirst: innerFrontFirst))
          ))
      default:
        return nil
      }
    }

    /// An optional member naming a case of `T`: `.some(nil)` when absent, `nil` when it names
    /// none.
    static func optional<T>(_ value: Value?, _ matcher: NameMatcher<T>) -> T?? {
      guard let value else { return .some(nil) }
      return name(value, matcher).map { $0 }
    }

    /// The cameras a list names, and whether `innerFront` comes before `outerFront` in it, as
    /// json-c's path reads a direction's lists (SPEC 4.7).
    static func cameras(_ value: Value?, _ matcher: NameMatcher<Camera>) -> (CameraSet, Bool)? {
      guard case .list(let elements)? = value else { return nil }
      var scanner = Scanner(bytes: elements)
      var set = CameraSet()
      var innerFrontFirst = false
      scanner.skipSpaces()
      guard !scanner.atEnd else { return (set, false) }
      repeat {
        scanner.skipSpaces()
        guard let name = scanner.plainString(), let camera = matcher(name) else { return nil }
        if camera == .innerFront && !set.contains(.outerFront) { innerFrontFirst = true }
        set.insert(CameraSet(camera))
        scanner.skipSpaces()
      } while scanner.take(UInt8(ascii: ","))
      return (set, innerFrontFirst)
    }

    static func equal(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
      bytes.count == text.utf8CodeUnitCount && memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0
    }

    /// The case of `T` a string value names, if it is a string naming one.
    static func name<T>(_ value: Value, _ matcher: NameMatcher<T>) -> T? {
      guard case .string(let bytes, _) = value else { return nil }
      return matcher(bytes)
    }

    /// A non-empty stream name, or the default when absent, made by `recent`; `nil` when it is
    /// not well-formed UTF-8 (json-c's path says so).
    static func stream(_ value: Value?, _ recent: RecentStrings) -> StreamName? {
      guard let value else { return .video }
      guard case .string(let bytes, let isASCII) = value else { return nil }
      return stream(named: bytes, isASCII: isASCII, recent)
    }

    /// The stream `bytes` name, made by `recent`; `nil` when empty or not well-formed UTF-8.
    @inline(__always)
    static func stream(named bytes: UnsafeRawBufferPointer, isASCII: Bool, _ recent: RecentStrings)
      -> StreamName?
    {
      guard !bytes.isEmpty else { return nil }
      if equal(bytes, "video") { return .video }
      return stream(namedOtherThanVideo: bytes, isASCII: isASCII, recent)
    }

    /// ``stream(named:isASCII:_:)`` for bytes that are not `video`: the canonical template takes
    /// that name as a literal, and asking again cost a call a frame of any other stream.
    @inline(__always)
    static func stream(
      namedOtherThanVideo bytes: UnsafeRawBufferPointer, isASCII: Bool, _ recent: RecentStrings
    )
      -> StreamName?
    {
      guard !bytes.isEmpty else { return nil }
      return recent.streamName(bytes, isASCII: isASCII).map(StreamName.init(rawValue:))
    }

    static func number(_ value: Value) -> Double? {
      switch value {
      case .number(let number): number
      case .integer(let integer): Double(integer)
      case .string, .bool, .list, .null: nil
      }
    }
  }

  /// Reads a line from its start. Its offset never passes the end of the line, so the
  /// arithmetic on it wraps rather than checks.
  ///
  /// Safe because every read is of bytes below `bytes.count`: a byte is read after `offset <
  /// bytes.count`, a word or a literal after checking that many bytes remain; the strings it
  /// returns are slices of `bytes`, which the caller lends for the parse and which the record
  /// made from them copies. Over ``ZeroPaddedBytes``, the reads marked so skip the check: each
  /// starts at an offset no further than `bytes.count` and reads less than the padding, and
  /// the offset stays there because it only moves past bytes that matched, none of them zero.
  struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
    /// Whether zeros follow `bytes` (``ZeroPaddedBytes``). A constant where the scanner is made
    /// in the template, so each check that asks it is folded away or kept whole there.
    let zeroPadded: Bool

    init(bytes: UnsafeRawBufferPointer) { (self.bytes, zeroPadded) = (bytes, false) }

    init(_ padded: ZeroPaddedBytes) { (bytes, zeroPadded) = (padded.bytes, true) }

    /// The byte at `index`: below `bytes.count`, or in the padding (read through the base
    /// address, which a buffer's subscript would refuse in a debug build).
    @inline(__always) func byte(at index: Int) -> UInt8 {
      bytes.baseAddress.unsafelyUnwrapped.load(fromByteOffset: index, as: UInt8.self)
    }

    /// The eight bytes from `index`, the first in the lowest: all below `bytes.count`, or
    /// running into the padding.
    @inline(__always) func word(at index: Int) -> UInt64 {
      UInt64(
        littleEndian: bytes.baseAddress.unsafelyUnwrapped.loadUnaligned(
          fromByteOffset: index, as: UInt64.self))
    }

    /// The sixteen bytes from `index`, at most `bytes.count` (``LineWords``): loaded at once
    /// when zeros follow `bytes`, else with the zeros put in past its end.
    @inline(__always) func words(at index: Int) -> LineWords {
      zeroPadded
        ? LineWords(low: word(at: index), high: word(at: index &+ 8))
        : LineWords(UnsafeRawBufferPointer(rebasing: bytes[index...]))
    }

    var atEnd: Bool { offset == bytes.count }

    mutating func skipSpaces() {
      while offset < bytes.count && bytes[offset] == 0x20 { offset &+= 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      guard zeroPadded || offset < bytes.count, self.byte(at: offset) == byte else { return false }
      offset &+= 1
      return true
    }

    /// Takes `literal` when the line goes on with it.
    @inline(__always) mutating func take(_ literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      assert(!zeroPadded || count <= ZeroPaddedBytes.padding, "a literal read past the end fits in the zeros")
      guard zeroPadded || bytes.count &- offset >= count,
        memcmp(bytes.baseAddress! + offset, literal.utf8Start, count) == 0
      else { return false }
      offset &+= count
      return true
    }

    /// Every key the fast path takes, spelled one after another, and where each one's bytes
    /// are: plain ranges to walk, where an array of each key's bytes was retained and released
    /// at every step (an unknown key's member cost 860 instructions).
    private static let keyText = ProvenLineParser.keys.flatMap { Array($0.rawValue.utf8) }
    private static let keyRanges: [(key: Key, bytes: Range<Int>)] = {
      var start = 0
      return ProvenLineParser.keys.map { key in
        defer { start += key.rawValue.utf8.count }
        return (key, start..<(start + key.rawValue.utf8.count))
      }
    }()

    /// The key `name` spells, if the fast path takes it.
    static func key(named name: UnsafeRawBufferPointer) -> Key? {
      keyText.withUnsafeBytes { text in
        for known in keyRanges where known.bytes.count == name.count {
          if memcmp(text.baseAddress! + known.bytes.lowerBound, name.baseAddress!, name.count) == 0 {
            return known.key
          }
        }
        return nil
      }
    }

    /// ``key(_:)`` for the last bytes of a line and the longer keys: the name as a plain string,
    /// then its bytes.
    mutating func keyByBytes() -> Key? {
      plainString().flatMap(Self.key(named:))
    }

    mutating func value() -> Value? {
      guard offset < bytes.count else { return nil }
      switch bytes[offset] {
      case UInt8(ascii: "\""): return text().map { .string($0.bytes, isASCII: $0.isASCII) }
      case UInt8(ascii: "["): return list()
      // Whatever follows a literal, the line goes on with a space, `,` or `}`, or json-c decides.
      case UInt8(ascii: "t"): return take("true") ? .bool(true) : nil
      case UInt8(ascii: "f"): return take("false") ? .bool(false) : nil
      case UInt8(ascii: "n"): return take("null") ? .null : nil
      default:
        // A natural number first (`t`, `pts`), which ``number()`` reads to the same value with
        // about 100 instructions more; anything else read again by it.
        let start = offset
        if let natural = naturalNumber() { return .integer(natural) }
        offset = start
        return number()
      }
    }

    /// `[`, plain strings separated by `,`, `]`, with spaces between: the bytes inside the
    /// brackets, read again by the record that wants them.
    mutating func list() -> Value? {
      guard take(UInt8(ascii: "[")) else { return nil }
      let start = offset
      skipSpaces()
      if !take(UInt8(ascii: "]")) {
        repeat {
          skipSpaces()
          guard plainString() != nil else { return nil }
          skipSpaces()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return nil }
      }
      return .list(UnsafeRawBufferPointer(rebasing: bytes[start..<(offset &- 1)]))
    }

    /// Takes a member whose key no kind the fast path takes defines (a recorder's own `seq`,
    /// say), which json-c's path ignores: `false` unless its name and value are ones the fast
    /// path can prove json-c accepts (each string well-formed UTF-8, as json-c's path requires
    /// of every byte of a line). A line of them once went to json-c whole: 30,000 instructions
    /// and 26 allocations a line.
    mutating func unknownMember() -> Bool {
      guard let name = text(), Self.key(named: name.bytes) == nil, ProvenLineParser.isWellFormed(name)
      else { return false }
      skipSpaces()
      guard take(UInt8(ascii: ":")) else { return false }
      skipSpaces()
      guard let value = value() else { return false }
      if case .string(let bytes, let isASCII) = value {
        return ProvenLineParser.isWellFormed((bytes, isASCII))
      }
      return true
    }

    /// Takes `,` and an ``unknownMember()``, as many times as they come, then the closing
    /// brace: the rest of a canonical line whose kind's fields are read. A call of its own, off
    /// the template's path.
    @inline(never)
    mutating func unknownMembersToTheEnd() -> Bool {
      repeat {
        skipSpaces()
        guard take(UInt8(ascii: ",")) else { return false }
        skipSpaces()
        guard unknownMember() else { return false }
        skipSpaces()
      } while !take(UInt8(ascii: "}"))
      return true
    }

    /// A string of printable ASCII without escapes, its quotes taken.
    mutating func plainString() -> UnsafeRawBufferPointer? {
      quoted { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }
    }

    /// A string without escapes, control bytes or DEL, its quotes taken, and whether it is all
    /// ASCII: a name's or a label's. Bytes past ASCII are taken as they are, to be checked as
    /// UTF-8 as the name or label is made, so a line json-c's path would refuse for them is
    /// left to it.
    @inline(__always)
    mutating func text() -> (bytes: UnsafeRawBufferPointer, isASCII: Bool)? {
      let start = offset
      if let ascii = plainString() { return (ascii, true) }
      offset = start
      return stringPastASCII()
    }

    /// ``text()`` for a string that is not ``plainString()``'s: read again, bytes past ASCII
    /// taken. A call of its own, so that the common case stays small.
    @inline(never)
    private mutating func stringPastASCII() -> (bytes: UnsafeRawBufferPointer, isASCII: Bool)? {
      quoted { $0 >= 0x80 || ($0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\")) }.map { ($0, false) }
    }

    /// A quoted string whose every byte `accepts`, its quotes taken.
    @inline(__always)
    private mutating func quoted(accepting accepts: (UInt8) -> Bool) -> UnsafeRawBufferPointer? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = offset
      skipPlainWords()
      while offset < bytes.count {
        let byte = bytes[offset]
        if byte == UInt8(ascii: "\"") {
          offset &+= 1
          return UnsafeRawBufferPointer(start: bytes.baseAddress! + start, count: offset &- 1 &- start)
        }
        guard accepts(byte) else { return nil }
        offset &+= 1
      }
      return nil
    }

    /// Moves past whole words of printable ASCII without a quote or a backslash, eight bytes
    /// a step while eight remain, to the first byte of a word that is not such (every string
    /// reader accepts those bytes; the byte-by-byte loop after it judges the rest). A stream
    /// name's bytes one at a time cost about 10 instructions each (callgrind).
    ///
    /// Each test flags a byte by its high bit; a test's false flags lie only above a byte it
    /// flags truly (a borrow comes from a byte below its limit), so the lowest flag is true.
    @inline(__always) private mutating func skipPlainWords() {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      func below(_ word: UInt64, _ limit: UInt8) -> UInt64 { (word &- ones &* UInt64(limit)) & ~word & highs }
      while offset &+ 8 <= bytes.count {
        let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        // Past ASCII, a control byte, `"`, a backslash or DEL.
        let stops =
          (word & highs) | below(word, 0x20) | below(word ^ (ones &* 0x22), 1)
          | below(word ^ (ones &* 0x5C), 1)
          | below(word ^ (ones &* 0x7F), 1)
        guard stops == 0 else {
          offset &+= stops.trailingZeroBitCount &>> 3
          return
        }
        offset &+= 8
      }
    }

    /// ``digitRun(continuing:)`` one digit at a time, for a run that is nearly always short: a
    /// number's integer part (a hinge angle's has one to three digits). A word's conversion
    /// costs more than a digit or two (callgrind: 13 instructions fewer a JSON Lines line of
    /// the day trace, whose angles have two decimals, and as many with 16-digit angles; the
    /// fraction taken this way too saved 11 more on the first and cost 30 on the second).
    @inline(__always) mutating func shortDigitRun() -> UInt64 {
      // The bytes' bounds and the offset in locals, the offset stored once: through `self`,
      // each digit's step read the bounds and stored the offset again.
      let (base, count) = (bytes.baseAddress, bytes.count)
      var (value, position) = (UInt64(0), offset)
      while position < count,
        case let digit = base!.load(fromByteOffset: position, as: UInt8.self) &- UInt8(ascii: "0"), digit < 10
      {
        value = value &* 10 &+ UInt64(digit)
        position &+= 1
      }
      offset = position
      return value
    }

    /// Takes a run of decimal digits and returns `start` followed by them as one integer
    /// (wrapping past 64 bits, so exact for at most 19 digits in all).
    ///
    /// Eight bytes are looked at as one word while eight remain: the digits at its front are
    /// found and converted together, in three multiplications. Inlined, as it runs two or three
    /// times a line.
    @inline(__always) mutating func digitRun(continuing start: UInt64 = 0) -> UInt64 {
      var value = start
      while offset &+ 8 <= bytes.count {
        let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let count = Self.nonDigits(in: word).trailingZeroBitCount &>> 3
        if count == 8 {
          value = value &* 100_000_000 &+ Self.eightDigits(word)
          offset &+= 8
          continue
        }
        if count != 0 {
          // The digits moved to the back of the word (the last ones read are the least
          // significant); the zero bytes shifted in before them count as 0s.
          let digits = word &<< UInt64(truncatingIfNeeded: 64 &- 8 &* count)
          value = value &* UnsafeByteWriter.powerOfTen(count) &+ Self.eightDigits(digits)
          offset &+= count
        }
        return value
      }
      while offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10 {
        value = value &* 10 &+ UInt64(bytes[offset] &- UInt8(ascii: "0"))
        offset &+= 1
      }
      return value
    }

    /// The run ``digitRun(continuing:)`` takes from 0, when it ends within the next 16 bytes:
    /// read from two words with no loop, as a `t` or a pts of up to 15 digits is, twice a
    /// frame's line (callgrind, the day trace's JSON Lines: 42 instructions a line fewer than
    /// the loop, whose two rounds kept the template's registers busy). `nil`, with nothing
    /// taken, when fewer than 16 bytes are left (and no zeros follow them) or all 16 are digits.
    @inline(__always) mutating func digitRunInTwoWords() -> UInt64? {
      guard zeroPadded || offset &+ 16 <= bytes.count else { return nil }
      let first = word(at: offset)
      let firstNonDigits = Self.nonDigits(in: first)
      if firstNonDigits != 0 {
        let count = firstNonDigits.trailingZeroBitCount &>> 3
        guard count > 0 else { return 0 }
        offset &+= count
        return Self.eightDigits(first &<< UInt64(truncatingIfNeeded: 64 &- 8 &* count))
      }
      let second = word(at: offset &+ 8)
      let secondNonDigits = Self.nonDigits(in: second)
      guard secondNonDigits != 0 else { return nil }
      let count = secondNonDigits.trailingZeroBitCount &>> 3
      offset &+= 8 &+ count
      guard count > 0 else { return Self.eightDigits(first) }
      return Self.eightDigits(first) &* UnsafeByteWriter.powerOfTen(count)
        &+ Self.eightDigits(second &<< UInt64(truncatingIfNeeded: 64 &- 8 &* count))
    }

    /// ``digitRun(continuing:)`` from 0, for a run that ``digitRunInTwoWords()`` leaves: a call,
    /// so that its loop keeps out of the template's registers (callgrind, the day trace's JSON
    /// Lines: 2 instructions a line).
    @inline(never) mutating func longDigitRun() -> UInt64 { digitRun() }

    /// A word with a bit set in each byte of `word` that is not an ASCII digit, and none in a
    /// digit, up to the first byte that is not one: its trailing zero bits, over 8, count the
    /// digits at the word's front (the first byte in the lowest).
    ///
    /// A byte is a digit when its high nibble is 3 and adding 6 leaves it 3. A carry out of a
    /// byte of 0xFA or more only reaches later bytes, which come after a non-digit.
    @inline(__always) static func nonDigits(in word: UInt64) -> UInt64 {
      let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
      let threes: UInt64 = 0x3030_3030_3030_3030
      return ((word & high) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & high) ^ threes)
    }

    /// The number eight ASCII digits spell, the first in the lowest byte (a zero byte reads as
    /// 0): pairs, then groups of four, then all eight combined by multiplying with the place
    /// values.
    @inline(__always) static func eightDigits(_ word: UInt64) -> UInt64 {
      var value = word & 0x0F0F_0F0F_0F0F_0F0F
      value = (value &* (10 << 8 + 1)) >> 8 & 0x00FF_00FF_00FF_00FF
      value = (value &* (100 << 16 + 1)) >> 16 & 0x0000_FFFF_0000_FFFF
      return (value &* (10000 << 32 + 1)) >> 32
    }

    /// Whether a byte follows that ends a number: a space, `,` or `}`. json-c would read an
    /// exponent or a letter on, and strtod stops at it.
    @inline(__always) var endsNumber: Bool {
      guard zeroPadded || offset < bytes.count else { return false }
      let next = byte(at: offset)
      return next == 0x20 || next == UInt8(ascii: ",") || next == UInt8(ascii: "}")
    }

    /// `0|[1-9][0-9]*` of at most 18 digits followed by a space, `,` or `}`: an integer of
    /// ``number()`` without a sign, for the canonical template's `t`, where it is inlined.
    /// Without the sign, the fraction and the enum of kinds of value, and as a call of its own
    /// no more, reading `t` costs about 100 instructions less.
    @inline(__always) mutating func naturalNumber() -> Int64? {
      let start = offset
      let value = digitRunInTwoWords() ?? longDigitRun()
      let digits = offset &- start
      guard digits > 0, digits <= 18, digits == 1 || bytes[start] != UInt8(ascii: "0"), endsNumber else {
        return nil
      }
      return Int64(truncatingIfNeeded: value)
    }

    /// An integer as ``number()`` reads it: a negative one by ``number()``, the others by
    /// ``naturalNumber()``.
    @inline(__always) mutating func integer() -> Int64? {
      guard zeroPadded || offset < bytes.count, byte(at: offset) == UInt8(ascii: "-") else {
        return naturalNumber()
      }
      guard case .integer(let value)? = number() else { return nil }
      return value
    }

    /// The number ``number()`` reads, as a double (a hinge angle): an unsigned decimal with a
    /// fraction that ``exactly(_:digits:fractionDigits:)`` reads is read here, anything else,
    /// from the same offset, by ``number()``. One in the next eight bytes, as a recorded
    /// angle of two decimals is, is read inline, with no loop; a longer one by calls that
    /// return the double in a register (callgrind, a line of the bench's day trace, 43 % of
    /// them hinges: as a `Value` from ``number()``, returned through memory, 14 instructions
    /// more, 16 more with 16-digit angles; the digit loops inlined into the template, 20 more).
    @inline(__always) mutating func decimal() -> Double? {
      let start = offset
      switch decimalInOneWord() {
      case .read(let value): return value
      case .fractionRunsOn(let integer, let digits):
        return decimal(from: start, integer: integer, integerDigits: digits)
      case .notInOneWord: return decimalDigitByDigit(from: start)
      }
    }

    /// ``decimal()`` from `start`, its integer and point read digit by digit. A call, as the
    /// next one is.
    @inline(never) mutating func decimalDigitByDigit(from start: Int) -> Double? {
      let integer = shortDigitRun()
      let integerDigits = offset &- start
      guard integerDigits > 0, integerDigits == 1 || bytes[start] != UInt8(ascii: "0"),
        take(UInt8(ascii: "."))
      else {
        offset = start
        return number().flatMap(Fields.number)
      }
      return decimal(from: start, integer: integer, integerDigits: integerDigits)
    }

    /// ``decimal()`` from `start`, whose `integer` of `integerDigits` digits and point were
    /// taken: the fraction after them. A call: its loop, inlined into the template with the
    /// one-word read, would take the template's registers (callgrind, the day trace's JSON
    /// Lines: 12 instructions a line fewer than `decimal()` whole as a call; 16-digit angles,
    /// which come here, 4 more).
    @inline(never) mutating func decimal(from start: Int, integer: UInt64, integerDigits: Int) -> Double? {
      let fractionStart = offset
      let significand = digitRun(continuing: integer)
      let fractionDigits = offset &- fractionStart
      if fractionDigits > 0, endsNumber,
        let value = Self.exactly(
          significand, digits: integerDigits &+ fractionDigits, fractionDigits: fractionDigits)
      {
        return value
      }
      offset = start
      return number().flatMap(Fields.number)
    }

    /// What ``decimalInOneWord()`` read.
    enum OneWordDecimal {
      /// The whole decimal, with the byte that ends it, lay in the word: its value.
      case read(Double)
      /// The integer and the point lay in the word, the fraction goes on past it: the integer
      /// and its count of digits, with the offset after the point.
      case fractionRunsOn(UInt64, digits: Int)
      /// Neither, or fewer than eight bytes are left: nothing is taken.
      case notInOneWord
    }

    /// What of the decimal ``decimal()`` reads lies in the next eight bytes: all of it, with
    /// the byte that ends it, as a recorded angle's does (`168.48,`), or its integer and its
    /// point (an angle of 16 digits).
    ///
    /// The eight bytes are read as one word, and its digits found by ``nonDigits(in:)``: no
    /// byte up to the one ending the fraction carries when 6 is added, so each is classed
    /// right. The point is taken out by shifting the fraction's digits down a byte, and all
    /// the digits are converted together. The integer and the counts are the ones the digit
    /// loops would give, so the double is theirs (callgrind, a line of the day trace, whose
    /// angles have two decimals: 22 instructions fewer, about 50 an angle; with 16-digit
    /// angles, whose fraction runs on, 3 more).
    @inline(__always) mutating func decimalInOneWord() -> OneWordDecimal {
      guard zeroPadded || offset &+ 8 <= bytes.count else { return .notInOneWord }
      let word = word(at: offset)
      let notDigits = Self.nonDigits(in: word)
      // At least one digit before the point, and no leading zero but a lone one.
      let point = notDigits.trailingZeroBitCount &>> 3
      guard point >= 1, point <= 7, (word &>> UInt64(truncatingIfNeeded: point &* 8)) & 0xFF == 0x2E,
        point == 1 || word & 0xFF != 0x30
      else { return .notInOneWord }
      // The bytes after the point, as classed: none but digits when the fraction runs on.
      let afterPoint = point == 7 ? 0 : notDigits &>> UInt64(truncatingIfNeeded: (point &+ 1) &* 8)
      guard afterPoint != 0 else {
        offset &+= point &+ 1
        return .fractionRunsOn(
          Self.eightDigits(word &<< UInt64(truncatingIfNeeded: (8 &- point) &* 8)), digits: point)
      }
      let end = point &+ 1 &+ afterPoint.trailingZeroBitCount &>> 3
      guard end > point &+ 1 else { return .notInOneWord }
      let ender = (word &>> UInt64(truncatingIfNeeded: end &* 8)) & 0xFF
      guard ender == 0x20 || ender == 0x2C || ender == 0x7D else { return .notInOneWord }
      let integerBytes: UInt64 = (1 &<< UInt64(truncatingIfNeeded: point &* 8)) &- 1
      let joined = (word & integerBytes) | ((word &>> 8) & ~integerBytes)
      let digits = end &- 1
      let significand = Self.eightDigits(joined &<< UInt64(truncatingIfNeeded: (8 &- digits) &* 8))
      guard let value = Self.exactly(significand, digits: digits, fractionDigits: end &- point &- 1) else {
        return .notInOneWord
      }
      offset &+= end
      return .read(value)
    }

    /// The decimal of `digits` digits in all, `fractionDigits` of them after the point, whose
    /// digits spell `significand`, read exactly: `nil` past 19 digits, which strtod reads.
    ///
    /// Clinger's fast path: with at most 19 digits the significand is exact, and when it is at
    /// most 2^53 both it and the power of ten (at most 10^19; every power up to 10^22 is one) are
    /// exact doubles, and one IEEE division rounds correctly, as strtod does: the same double,
    /// bit for bit. A longer significand (an angle printed with 17 digits), still exact in 64
    /// bits, is divided in integers and rounded to nearest, ties to even, as strtod rounds.
    @inline(__always)
    static func exactly(_ significand: UInt64, digits: Int, fractionDigits: Int) -> Double? {
      guard digits <= 19 else { return nil }
      if significand <= 1 << 53 {
        return Double(significand) / Double(UnsafeByteWriter.powerOfTen(fractionDigits))
      }
      return quotient(significand, dividedByPowerOfTen: fractionDigits)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?` followed by a space, `,` or `}`; no exponent, no negative
    /// zero (json-c reads `-0` as the integer 0).
    mutating func number() -> Value? {
      let start = offset
      let negative = take(UInt8(ascii: "-"))
      let integerStart = offset
      let integer = shortDigitRun()
      let integerDigits = offset &- integerStart
      guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
        return nil
      }
      var isDecimal = false
      // All the digits as one integer, while they fit: for the exact fast path below.
      var significand = integer
      var fractionDigits = 0
      if take(UInt8(ascii: ".")) {
        let fractionStart = offset
        significand = digitRun(continuing: significand)
        fractionDigits = offset &- fractionStart
        guard fractionDigits > 0 else { return nil }
        isDecimal = true
      }
      let magnitude = Int64(truncatingIfNeeded: integer)
      guard endsNumber else { return nil }
      // A negative zero is json-c's to read. The significand is exact, so 0 only for zeros,
      // while it has at most 19 digits; a longer negative number is left to json-c too.
      guard !negative || (significand != 0 && integerDigits &+ fractionDigits <= 19) else { return nil }
      guard isDecimal else {
        guard integerDigits <= 18 else { return nil }
        return .integer(negative ? -magnitude : magnitude)
      }
      if let value = Self.exactly(
        significand, digits: integerDigits &+ fractionDigits, fractionDigits: fractionDigits)
      {
        return .number(negative ? -value : value)
      }
      let text = bytes.baseAddress!.assumingMemoryBound(to: CChar.self) + start
      return .number(crease_strtod_c(text))
    }

    /// `numerator / 10^exponent` rounded to the nearest double, ties to even: the correctly
    /// rounded value strtod gives. `numerator` is not 0 and `exponent` at most 19, so every
    /// step is exact in integers; `nil` when the numerator is too long for the scaling (over
    /// 55 bits more than the divisor), which strtod then reads.
    static func quotient(_ numerator: UInt64, dividedByPowerOfTen exponent: Int) -> Double? {
      let divisor = UnsafeByteWriter.powerOfTen(exponent)
      // Scale the numerator so the integer quotient has 55 or 56 bits: 53 for the significand,
      // one to round on, and one or two more that, with the remainder, say whether anything
      // below it is non-zero.
      let numeratorBits = 64 - numerator.leadingZeroBitCount
      let divisorBits = 64 - divisor.leadingZeroBitCount
      var shift = 55 + divisorBits - numeratorBits
      guard shift >= 0 else { return nil }
      let scaled: (high: UInt64, low: UInt64) =
        shift >= 64
        ? (numerator << (shift - 64), 0)
        : shift == 0 ? (0, numerator) : (numerator >> (64 - shift), numerator << shift)
      let division = divisor.dividingFullWidth(scaled)
      var quotient = division.quotient
      var sticky = division.remainder != 0
      // quotient is in [2^54, 2^56): keep 55 bits.
      if quotient >= 1 << 55 {
        sticky = sticky || quotient & 1 != 0
        quotient >>= 1
        shift -= 1
      }
      var significand = quotient >> 2
      let half = quotient & 0b10 != 0
      sticky = sticky || quotient & 0b01 != 0
      if half && (sticky || significand & 1 != 0) { significand += 1 }
      var scale = 2 - shift
      if significand == 1 << 53 {
        significand >>= 1
        scale += 1
      }
      // The significand is in [2^52, 2^53): a normal double is its bits and the biased
      // exponent, put together here (the general initializer cost about 30 instructions more).
      let exponentBias = 1023
      let biasedExponent = scale + Double.significandBitCount + exponentBias
      guard biasedExponent > 0 && biasedExponent < 2 * exponentBias + 1 else {
        return Double(sign: .plus, exponent: scale, significand: Double(significand))
      }
      let fractionBits = significand & (1 << Double.significandBitCount - 1)
      return Double(bitPattern: UInt64(biasedExponent) << Double.significandBitCount | fractionBits)
    }
  }
}
