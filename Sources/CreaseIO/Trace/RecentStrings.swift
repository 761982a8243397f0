#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The long names and labels a trace reader made lately, found again by their bytes.
///
/// A string of more than 15 UTF-8 bytes is a heap allocation each time it is made, and a trace
/// repeats a few stream names, view names and mark labels on most of its lines: a JSON Lines
/// trace whose stream was named `back-wide-camera-main` allocated once a frame. A short ASCII
/// string comes from ``RecentShortStrings``, which finds it by its bytes packed into two words;
/// a long one that matches a remembered string is that string, retained; any other is checked
/// as UTF-8 unless it is ASCII, made, and remembered in place of the oldest when long. Memory
/// stays bounded: ``capacity`` strings of at most ``longest`` bytes, and the short ones'.
///
/// A class, so that a reader's parse stays non-mutating. One reader owns it and uses it from
/// one thread at a time.
final class RecentStrings {
  /// How many strings are remembered.
  static let capacity = 8
  /// The longest string remembered, in bytes; longer ones are made every time.
  static let longest = 256
  /// The longest string that lives inline, with no allocation to save.
  static let longestInline = 15

  private var strings: [String] = []
  private var nextReplaced = 0
  private let short = RecentShortStrings()
  /// The short stream names made or found lately, apart from the labels and views, which would
  /// take their places: found where they lie on a line.
  private let shortStreamNames = RecentShortStrings()
  /// Every stream name made, within the stages' budget: more streams than are remembered here
  /// deliver in turn, and each name comes round again after the others.
  private let streamNames = NamesByBytes()
  /// How many stream names ``streamName(quotedAtStartOf:)`` has found, behind a pointer this
  /// object owns, so that counting one needs no exclusivity check (callgrind, 1,000 streams in
  /// turn: about 30 instructions a frame as a stored property). Safe because it is initialized
  /// in `init` and deinitialized in `deinit` only.
  private let streamNamesFound = UnsafeMutablePointer<Int>.allocate(capacity: 1)

  init() {
    strings.reserveCapacity(Self.capacity)
    streamNamesFound.initialize(to: 0)
  }

  deinit { streamNamesFound.deallocate() }

  /// The remembered string of `bytes` when they are short and were made into a string lately,
  /// found without checking them: they were checked when it was made.
  /// - Complexity: O(*n*) in the *n* bytes.
  @inline(__always)
  func rememberedShort(_ bytes: UnsafeRawBufferPointer) -> String? {
    bytes.count <= Self.longestInline ? short.remembered(bytes) : nil
  }

  /// The short string made lately that `line`'s sixteen bytes start with, a closing quote
  /// after it, and its length: a stream name found where it lies on a JSON line, without
  /// looking for its end.
  /// - Complexity: O(`RecentShortStrings.capacity`).
  @inline(__always)
  func rememberedShort(quotedAtStartOf line: LineWords) -> (string: String, count: Int)? {
    shortStreamNames.remembered(quotedAtStartOf: line)
  }

  /// The stream name made before that `line`'s sixteen bytes start with, a closing quote after
  /// it, and its length, however many streams the trace has: for a JSON line whose stream is
  /// not among those ``rememberedShort(quotedAtStartOf:)`` finds. Asked only of the JSON Lines
  /// parser's strings, whose stream names all come from its fast path, of plain bytes
  /// (``NamesByBytes/name(quotedAtStartOf:)``).
  /// - Complexity: O(1), expected.
  // Inlined into the line's parse, with the remembering a call. Tuning: hot-inline.
  @inline(__always)
  func streamName(quotedAtStartOf line: LineWords) -> (string: String, count: Int)? {
    guard let (name, count) = streamNames.name(quotedAtStartOf: line) else { return nil }
    // Remembered again one time in 16, so that a few streams that deliver most come back to
    // the look where they lie, while with many in turn, the remembering costs little.
    streamNamesFound.pointee &+= 1
    if streamNamesFound.pointee & 15 == 0 { rememberStreamName(name, PackedBytes(line, count: count)) }
    return (name, count)
  }

  @inline(never)
  private func rememberStreamName(_ name: String, _ packed: PackedBytes) {
    shortStreamNames.remember(name, packed)
  }

  /// The string of `bytes`, which are ASCII: the remembered one when its bytes are the same.
  /// - Complexity: O(`capacity` × *n*) in the *n* bytes, for a long string; O(*n*) otherwise.
  @inline(__always)
  func string(ascii bytes: UnsafeRawBufferPointer) -> String {
    guard bytes.count > Self.longestInline else { return short.string(ascii: bytes) }
    // Made from ASCII, a string is never refused.
    return rememberedOrMade(bytes) { String(ascii: $0) }!
  }

  /// The short stream name remembered lately whose bytes are `bytes`, if any: the first look of
  /// ``streamName(_:isASCII:)``, for a caller that takes it inline.
  /// - Complexity: O(`RecentShortStrings.capacity`).
  @inline(__always)
  func rememberedShortStreamName(_ bytes: UnsafeRawBufferPointer) -> String? {
    bytes.count <= Self.longestInline ? shortStreamNames.remembered(bytes) : nil
  }

  /// The stream name of `bytes`: one made before, found by its bytes however many streams the
  /// trace has, else made (checked as UTF-8 unless `isASCII` says, or a look at the bytes finds,
  /// that they are ASCII) and kept; `nil` when they are not well-formed UTF-8.
  /// - Complexity: O(*n*) in the *n* bytes, expected.
  func streamName(_ bytes: UnsafeRawBufferPointer, isASCII: Bool? = nil) -> String? {
    // Only ASCII names are remembered short, and bytes equal to one are that name.
    if let remembered = rememberedShortStreamName(bytes) { return remembered }
    if let known = streamNames.name(bytes) { return known }
    let isShort = bytes.count <= Self.longestInline
    let made: String?
    if isASCII ?? bytes.allSatisfy({ $0 < 0x80 }) {
      made = isShort ? shortStreamNames.string(ascii: bytes) : string(ascii: bytes)
    } else {
      made = string(utf8: bytes)
    }
    guard let made else { return nil }
    streamNames.add(made, bytes: bytes)
    return made
  }

  /// The string of `bytes`, the remembered one when its bytes are the same; `nil` when they are
  /// not well-formed UTF-8.
  /// - Complexity: O(`capacity` × *n*) in the *n* bytes.
  func string(utf8 bytes: UnsafeRawBufferPointer) -> String? {
    rememberedOrMade(bytes) { String(wellFormed: $0) }
  }

  /// The remembered string of `bytes`, or the one `make` makes of them, remembered when long.
  /// A remembered string's bytes were well-formed when it was made, so one that matches needs
  /// no check.
  private func rememberedOrMade(
    _ bytes: UnsafeRawBufferPointer, _ make: (UnsafeRawBufferPointer) -> String?
  ) -> String? {
    let remembers = bytes.count > Self.longestInline && bytes.count <= Self.longest
    if remembers {
      for string in strings where Self.equal(string, bytes) { return string }
    }
    guard let made = make(bytes) else { return nil }
    guard remembers else { return made }
    if strings.count < Self.capacity {
      strings.append(made)
    } else {
      strings[nextReplaced] = made
      nextReplaced = (nextReplaced + 1) % Self.capacity
    }
    return made
  }

  /// The string of `bytes`, as ``string(ascii:)`` when `isASCII` says they are ASCII, else as
  /// ``string(utf8:)``.
  @inline(__always)
  func string(_ bytes: UnsafeRawBufferPointer, isASCII: Bool) -> String? {
    isASCII ? string(ascii: bytes) : string(utf8: bytes)
  }

  /// Whether `string`'s UTF-8 is `bytes`.
  private static func equal(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard string.utf8.count == bytes.count else { return false }
    // A remembered string was made from bytes, so it is native and contiguous; the comparison
    // by elements is there for a string that is not.
    return string.utf8.withContiguousStorageIfAvailable { utf8 in
      memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0
    } ?? string.utf8.elementsEqual(bytes)
  }
}
