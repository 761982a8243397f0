/// The short ASCII strings a trace reader made lately, found again by their bytes packed into
/// two words.
///
/// A string of at most 15 bytes lives inline and allocates nothing, but making one still copies
/// its bytes through a closure (about 60 instructions for a stream name such as `video2`, on
/// most lines of a JSON Lines trace of several streams, and in every record of a version 1
/// binary trace). Packed, the bytes of a short string compare with a remembered one's in three
/// comparisons, and a remembered one's bytes need no check again.
///
/// Its entries live behind a pointer it owns, so that looking one up reads no class property
/// that would need an exclusivity check. One reader owns it and uses it from one thread at a
/// time. Safe because `entries` is allocated and initialized, every slot, in `init`,
/// deinitialized and deallocated in `deinit` only, and only slots below ``capacity`` are read
/// or written.
final class RecentShortStrings {
  /// How many strings are remembered.
  static let capacity = 4
  /// The longest string remembered: the longest that lives inline.
  static let longest = 15

  /// A string's bytes, packed: up to ``longest``, the bytes themselves.
  private typealias Key = PackedBytes

  private struct Entry {
    var key: Key
    var quoted: QuotedPrefix
    var string: String

    init(key: Key, string: String) {
      (self.key, quoted, self.string) = (key, QuotedPrefix(key), string)
    }
  }

  private let entries: UnsafeMutablePointer<Entry>
  /// The slot the next new string takes: they are replaced in turn.
  private let nextReplaced: UnsafeMutablePointer<Int>

  init() {
    // Every slot holds the empty string, which is what its key (no bytes) stands for.
    let noBytes = UnsafeRawBufferPointer(start: nil, count: 0)
    entries = .allocate(capacity: Self.capacity)
    entries.initialize(repeating: Entry(key: Key(noBytes), string: ""), count: Self.capacity)
    nextReplaced = .allocate(capacity: 1)
    nextReplaced.initialize(to: 0)
  }

  deinit {
    entries.deinitialize(count: Self.capacity)
    entries.deallocate()
    nextReplaced.deallocate()
  }

  /// The string of `bytes`, ASCII and at most ``longest`` of them: the remembered one when its
  /// bytes are the same, else made and remembered in place of the oldest.
  /// - Complexity: O(``capacity``) for a remembered string; O(*n*) in its *n* bytes otherwise.
  // A call: inlined into the JSON Lines parse, it grew the reading loop past what the optimizer
  // inlines, and three byte reads a line became calls (callgrind: +49 instructions a line; as a
  // call, -29 against making each string).
  @inline(never)
  func string(ascii bytes: UnsafeRawBufferPointer) -> String {
    let key = Key(bytes)
    return remembered(key) ?? made(bytes, key: key)
  }

  /// The remembered string of `bytes`, at most ``longest`` of them, if any. Its bytes were
  /// checked when it was made: a caller that would check them first need not.
  /// - Complexity: O(``capacity``).
  @inline(__always)
  func remembered(_ bytes: UnsafeRawBufferPointer) -> String? { remembered(Key(bytes)) }

  /// The remembered string that `line`'s sixteen bytes start with, followed by a closing
  /// quote, and its length. The empty string, which every slot holds at first, is never found
  /// this way: no stream is named so.
  ///
  /// The 16 bytes are loaded once and compared with each slot's ``QuotedPrefix``: compared
  /// slot by slot in their length and bytes, a frame's stream name cost about 70 instructions
  /// (callgrind, the day trace's JSON Lines).
  ///
  /// Asked only of the JSON Lines parser's cache (`ProvenLineParser.recentStrings`), which
  /// only the fast path fills, with strings of checked plain bytes (no quote, no backslash, no
  /// control byte): these bytes up to the quote are then the plain string the parser would have
  /// read. A binary reader's cache may hold any bytes and is never asked this.
  // Inlined into the stream's parse: since the stream and pts of zero-padded lines are read by
  // a call of their own, it no longer pushes the pts's integer read out of line (callgrind, the
  // day trace's JSON Lines: 9 instructions a line; as a call before that, the same count).
  @inline(__always)
  func remembered(quotedAtStartOf line: LineWords) -> (string: String, count: Int)? {
    for slot in 0..<Self.capacity where entries[slot].quoted.isPrefix(of: line) {
      return (entries[slot].string.copyIgnoringImmortality(), entries[slot].key.count)
    }
    return nil
  }

  @inline(__always)
  private func remembered(_ key: Key) -> String? {
    assert(key.count <= Self.longest, "only a short string is remembered here")
    for slot in 0..<Self.capacity where entries[slot].key == key {
      return entries[slot].string.copyIgnoringImmortality()
    }
    return nil
  }

  /// Makes the string of `bytes` and remembers it. A call: a trace makes each of its few short
  /// names once.
  @inline(never)
  private func made(_ bytes: UnsafeRawBufferPointer, key: Key) -> String {
    let string = String(ascii: bytes)
    remember(string, key)
    return string
  }

  /// Remembers `string`, ASCII and packed as `key` (at most ``longest`` bytes), in place of the
  /// oldest: one made before and found again elsewhere.
  func remember(_ string: String, _ key: PackedBytes) {
    assert(remembered(key) == nil, "a string is remembered once")
    entries[nextReplaced.pointee] = Entry(key: key, string: string)
    nextReplaced.pointee = (nextReplaced.pointee &+ 1) % Self.capacity
  }
}
