extension String {
  /// The text of bytes known to be ASCII (a plain JSON string, a checked binary string).
  ///
  /// Copied into the string's own storage rather than decoded: with nothing to repair, that
  /// costs about 55 instructions a short label less than `String(decoding:as:)` (callgrind).
  init(ascii bytes: UnsafeRawBufferPointer) {
    assert(bytes.allSatisfy { $0 < 0x80 }, "only ASCII is copied in unchecked")
    // Safe because the capacity is exactly `bytes.count`, every byte of which is written.
    self.init(unsafeUninitializedCapacity: bytes.count) {
      UnsafeMutableRawBufferPointer($0).copyMemory(from: bytes)
      return bytes.count
    }
  }

  /// The text of `bytes` when they are well-formed UTF-8, else `nil`.
  ///
  /// Decoding puts U+FFFD in place of each ill-formed sequence, so the bytes come back the same
  /// only if they were well-formed (`String(validating:)` would say so at once: macOS 15).
  init?(wellFormed bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard text.utf8.elementsEqual(bytes) else { return nil }
    self = text
  }
}
