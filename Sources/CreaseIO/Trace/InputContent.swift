/// What an input holds, told by its first bytes rather than its name: a binary trace (its
/// magic), a QuickTime or MP4 movie (its first box), or text (JSON Lines, a timestamp list,
/// or bytes whose reader will say what is wrong with them).
public enum InputContent: Sendable, Hashable {
  /// A binary trace: the file starts with ``BinaryTraceFormat/magic``.
  case binaryTrace
  /// A QuickTime or MP4 movie: the file starts with a box a movie starts with.
  case movie
  /// Anything else.
  case text

  /// The most bytes it takes to tell: a box header, or the binary magic.
  public static let longestPrefix = 8

  /// The boxes a QuickTime or MP4 file starts with (ISO 14496-12 and QuickTime's own).
  public static let movieOpeningBoxes: Set<String> = [
    "ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "styp", "uuid",
  ]

  /// What `prefix`, the first bytes of an input (at most ``longestPrefix``), shows; `nil` when
  /// more bytes are needed and `complete` says more may come.
  ///
  /// For a source that may wait (`waiting`: a pipe), a first byte of printable text settles it
  /// as text, so a JSON Lines producer that sends one short line and waits is never held up:
  /// a movie's first box has a size whose first byte is 0 in any real file (`ftyp`, `free`
  /// and `wide` are small; a large first `mdat` writes its size in 64 bits after a 1).
  public init?(prefix: ArraySlice<UInt8>, complete: Bool, waiting: Bool) {
    let magic = BinaryTraceFormat.magic
    if prefix.elementsEqual(magic) {
      self = .binaryTrace
      return
    }
    if prefix.count >= Self.longestPrefix {
      self = Self.startsWithMovieBox(prefix) ? .movie : .text
      return
    }
    let couldBeMagic = prefix.elementsEqual(magic.prefix(prefix.count))
    let settledAsText = waiting && prefix.first.map(Self.isText) == true
    if complete || (settledAsText && !couldBeMagic) {
      self = .text
      return
    }
    return nil
  }

  /// Whether `header` starts with a box header whose type opens a movie and whose size is one
  /// a box can have (0: to the end of the file, 1: a 64-bit size follows, 8 or more).
  static func startsWithMovieBox(_ header: ArraySlice<UInt8>) -> Bool {
    guard header.count >= 8 else { return false }
    let start = header.startIndex
    let size = header[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let type = String(decoding: header[start + 4..<start + 8], as: UTF8.self)
    return (size <= 1 || size >= 8) && movieOpeningBoxes.contains(type)
  }

  private static func isText(_ byte: UInt8) -> Bool {
    (0x20...0x7E).contains(byte) || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
