/// Bytes followed in memory by ``padding`` readable zero bytes: a parser may compare a literal
/// or load a word past their end with no check of how many bytes are left, and the bytes it
/// finds there are zeros.
///
/// A line's parse accepts no zero byte (not in a literal, a digit, a name or a quote), so a
/// match never reaches into the padding, and a parse that reads past the end fails there as it
/// would at the end itself. ``LineReader`` keeps the padding after what it has read, and lends
/// its buffer as these.
struct ZeroPaddedBytes {
  /// How many zero bytes follow: more than the longest literal or word read at one place (the
  /// canonical template's longest literal is 25 bytes, its widest load 16).
  static var padding: Int { 64 }

  /// The bytes themselves, without the padding; never with a `nil` base.
  let bytes: UnsafeRawBufferPointer

  /// Bytes whose owner keeps ``padding`` zero bytes after them, readable, for as long as they
  /// are lent.
  init(unsafeFollowedByZeros bytes: UnsafeRawBufferPointer) {
    precondition(bytes.baseAddress != nil, "padded bytes have an address")
    self.bytes = bytes
  }
}
