extension String {
  /// Whether the string owns no reference-counted storage: a short string (its text in its own
  /// two words) or a literal in the program's constant data.
  ///
  /// Such a string is *immortal*: the runtime ignores every retain and release of it, yet a copy
  /// or a destroy still calls into the runtime to be told so (callgrind: about 15 instructions a
  /// copy, 17 a destroy). ``copyIgnoringImmortality()`` and ``endWithoutReleaseIfImmortal()``
  /// skip those calls for the names that cross the replay at every frame.
  ///
  /// A `String` is two words on 64-bit platforms, and the top bit of the second is its
  /// immortal flag (the standard library's `_StringObject`, part of its stable ABI). Where a
  /// `String` is not two words (32-bit platforms), no string is taken for immortal here, and
  /// every copy and destroy goes through the runtime as usual.
  ///
  /// The bits are read, and the string parked, through the standard library's unprotected
  /// variants of `withUnsafeBytes(of:)` and `withUnsafeTemporaryAllocation` (public, emitted
  /// into the client, what the standard library itself uses for such reads). The protected ones
  /// put a stack protector into every function they are inlined in, the record's decoding and
  /// the camera stage's frame among them (callgrind, the day trace: 8 instructions an event).
  /// Safe because each closure reads, copies or initializes exactly the 16 bytes it is lent,
  /// with offsets fixed here: no write goes past them for a protector to catch.
  @inlinable package var isImmortal: Bool {
    guard MemoryLayout<String>.size == 2 &* MemoryLayout<UInt64>.size else { return false }
    return _withUnprotectedUnsafeBytes(of: self) { $0.load(fromByteOffset: 8, as: UInt64.self) } >> 63 == 1
  }

  /// A copy of the string, made without a retain when the string is immortal.
  ///
  /// Safe because an immortal string's copy shares no storage with a reference count: the
  /// runtime would have ignored the retain this skips.
  // Once a frame, in the decoders' name tables. Tuning: immortal-names.
  @inlinable @inline(__always) package func copyIgnoringImmortality() -> String {
    guard isImmortal else { return self }
    // The bits moved out of memory of their own: a move is a take, which retains nothing, where
    // a copy of the bits (`unsafeBitCast`, a load) is given a retain by the compiler. The raw
    // memory is bound to `String` once it holds a string's bits.
    return _withUnprotectedUnsafeTemporaryAllocation(byteCount: 16, alignment: 8) { memory in
      _withUnprotectedUnsafeBytes(of: self) { memory.copyMemory(from: $0) }
      return memory.baseAddress!.bindMemory(to: String.self, capacity: 1).move()
    }
  }

  /// Ends the string, without a release when it is immortal.
  ///
  /// Safe because an immortal string owns nothing a release would free: the runtime would have
  /// ignored the release this skips. Left in memory that is never deinitialized, it leaks
  /// nothing.
  // Once a frame, in the camera stage. Tuning: immortal-names.
  @inlinable @inline(__always) package consuming func endWithoutReleaseIfImmortal() {
    guard isImmortal else { return }
    // Moved into stack memory that is given back uninitialized: the value's end is the
    // memory's, and no destroy runs. The optional is taken inside, because a closure may not
    // consume what it captures.
    var parked = Optional(consume self)
    _withUnprotectedUnsafeTemporaryAllocation(of: String.self, capacity: 1) {
      $0.baseAddress!.initialize(to: parked.take()!)
    }
  }
}
