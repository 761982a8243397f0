#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits a byte source into lines with a fixed amount of memory, whatever the file size or
/// the length of its lines.
///
/// A line longer than ``maximumLineLength`` is not buffered: the reader reports it as
/// ``Line/overlong(length:)`` and streams its bytes to a sink, if one is given, so a 100 MB
/// line costs no more memory than a short one and nothing is lost. A line that has not ended
/// after ``longestSkippedLine`` bytes (`/dev/zero`, a file of one endless line) is reported the
/// same way and ends the reading: ``stoppedInsideLine`` says so, and ``next(overflow:)`` returns
/// `nil` after it, so no input makes a reader read on forever inside one line.
///
/// Safe because the buffer is the reader's own for its life, every slice of it lies within
/// `start..<end` (`0 <= start <= end <= storage.count`, which every method keeps), and the lines
/// it lends, whose names say `unsafe`, stay valid until the next call that reads, which is the
/// only one that moves bytes. Past `storage`, the allocation holds `ZeroPaddedBytes.padding`
/// bytes more, and the padding's worth of bytes from `end` on are zeros whenever a call
/// returns: every method that moves `end` or writes at it writes them again.
public final class LineReader {
  /// One line, without its line terminator (`\n`, or `\r\n`).
  public enum Line {
    /// A line that fits, lent: the bytes are the reader's buffer, valid only until the next call
    /// to ``next(overflow:)`` (``bytes`` copies them).
    case unsafeComplete(UnsafeRawBufferPointer)
    /// A line over the limit, already streamed to the overflow sink: its length in bytes.
    case overlong(length: Int)

    /// A copy of a line that fits, the reader's to reuse no more; `nil` for an overlong line.
    public var bytes: [UInt8]? {
      guard case .unsafeComplete(let lent) = self else { return nil }
      return Array(lent)
    }
  }

  /// The longest line read whole, in bytes (``defaultMaximumLineLength`` unless given).
  public let maximumLineLength: Int
  /// The longest line a trace reader reads whole: 1 MiB.
  public static let defaultMaximumLineLength = 1 << 20
  /// The most bytes of one overlong line read on in search of its end: 64 MiB. Past it, the
  /// reader stops (``stoppedInsideLine``).
  public static let longestSkippedLine = 64 << 20
  private var storedStoppedInsideLine = false
  /// Whether the overlong line last returned had not ended within ``longestSkippedLine`` bytes,
  /// so that reading stopped inside it: nothing after it is read.
  public var stoppedInsideLine: Bool { storedStoppedInsideLine }
  // State behind public getters, stored privately. Tuning: private-storage (Docs/Performance.md).
  private var storedLineNumber = 0
  /// The 1-based number of the line last returned.
  public var lineNumber: Int { storedLineNumber }
  /// The source being read.
  public let source: ByteSource
  private var storedBytesRead = 0
  /// Bytes read from the source so far.
  public var bytesRead: Int { storedBytesRead }
  /// Bytes of the source taken up to the end of the line last returned: those read less those
  /// still buffered.
  public var bytesTaken: Int { storedBytesRead - (end - start) }
  private var storedEndedWithCarriageReturn = false
  /// Whether the line last returned ended with `\r\n` (its `\r` is not in the line), so a copy
  /// of it can be written verbatim.
  public var endedWithCarriageReturn: Bool { storedEndedWithCarriageReturn }

  private let storage: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0
  private var sourceIsExhausted = false

  /// A reader of `source` that reads lines up to `maximumLineLength` bytes whole.
  public init(source: ByteSource, maximumLineLength: Int = defaultMaximumLineLength) {
    precondition(maximumLineLength > 0)
    self.source = source
    self.maximumLineLength = maximumLineLength
    // Room for the longest line and its terminator, `\r\n` included, and the zeros after the
    // bytes read (`unsafeBuffered`), which need room past the longest line.
    let allocation = UnsafeMutableRawBufferPointer.allocate(
      byteCount: maximumLineLength + 2 + ZeroPaddedBytes.padding, alignment: 1)
    self.storage = UnsafeMutableRawBufferPointer(rebasing: allocation[..<(maximumLineLength + 2)])
    padEnd()
  }

  // The allocation starts where `storage` does.
  deinit { storage.deallocate() }

  /// Whether ``next(overflow:)`` can return without reading: a whole line is buffered or the
  /// source is exhausted.
  public var hasBufferedLine: Bool { sourceIsExhausted || findNewline() != nil }

  /// The next line, or `nil` at the end of the source.
  ///
  /// - Parameter overflow: receives the bytes of an overlong line, in order (a sink, not a
  ///   closure: an optional closure escapes, and its context was allocated for every line).
  /// - Complexity: O(*n*) in the length of the line.
  @inline(__always) public func next(overflow: ByteSink? = nil) throws -> Line? {
    // A line whole in the buffer, the common case, is taken here, inlined into the reader's
    // loop; reading more, the end and overlong lines are left to a call.
    if let newline = findNewline() { return .unsafeComplete(take(upTo: newline)) }
    return try readMore(overflow: overflow)
  }

  /// The bytes buffered and not yet returned as lines, and the zeros after them: the next
  /// line, when it is whole in the buffer, starts them. Valid until the next call that reads.
  @inline(__always) var unsafeBuffered: ZeroPaddedBytes {
    // From the base, not a slice of `storage`: `start <= end` holds (see the type), and the
    // slice checked it again, with the base, for every line (callgrind, the day trace: 4
    // instructions a line).
    ZeroPaddedBytes(
      unsafeFollowedByZeros: UnsafeRawBufferPointer(
        start: storage.baseAddress.unsafelyUnwrapped + start, count: end &- start))
  }

  /// Returns the next line, which the caller found to be the first `length` bytes of
  /// ``unsafeBuffered``, followed by a newline or, `endsWithCarriageReturn`, by `\r\n`:
  /// ``next(overflow:)`` for a caller that has already seen where the line ends.
  @inline(__always) func unsafeTakeLine(length: Int, endsWithCarriageReturn: Bool) -> UnsafeRawBufferPointer {
    let terminator = endsWithCarriageReturn ? 2 : 1
    assert(
      start + length + terminator <= end && storage[start + length + terminator - 1] == 0x0A,
      "a buffered line ends at a newline")
    // Safe because the caller found the line and its terminator in `unsafeBuffered` (asserted
    // above). Unchecked: a file of 2^63 lines does not happen, and the storage, allocated once,
    // has a base (checked for every line, it cost 5 instructions a line: callgrind, the day
    // trace).
    storedLineNumber &+= 1
    storedEndedWithCarriageReturn = endsWithCarriageReturn
    let line = UnsafeRawBufferPointer(start: storage.baseAddress.unsafelyUnwrapped + start, count: length)
    start &+= length &+ terminator
    return line
  }

  /// The next line, after reading more of the source as needed.
  private func readMore(overflow: ByteSink?) throws -> Line? {
    while true {
      if let newline = findNewline() { return .unsafeComplete(take(upTo: newline)) }
      if sourceIsExhausted {
        guard start < end else { return nil }
        storedLineNumber += 1
        let line = UnsafeRawBufferPointer(rebasing: storage[start..<end])
        start = end
        return .unsafeComplete(trimmingCarriageReturn(line))
      }
      if isOverlong(buffered: end - start) { return try skipOverlongLine(overflow: overflow) }
      try fill()
    }
  }

  /// Takes the line that ends at the newline at `newline`.
  @inline(__always) private func take(upTo newline: Int) -> UnsafeRawBufferPointer {
    storedLineNumber += 1
    let line = UnsafeRawBufferPointer(rebasing: storage[start..<newline])
    start = newline + 1
    return trimmingCarriageReturn(line)
  }

  /// Whether `count` buffered bytes with no newline among them are already more than a line
  /// may hold: the terminator does not count, so one byte more is allowed while it is a `\r`.
  private func isOverlong(buffered count: Int) -> Bool {
    count > maximumLineLength + 1 || (count == maximumLineLength + 1 && storage[end - 1] != 0x0D)
  }

  @inline(__always) private func findNewline() -> Int? {
    guard start < end, let base = storage.baseAddress else { return nil }
    guard let found = memchr(base + start, 0x0A, end - start) else { return nil }
    return base.distance(to: found)
  }

  private func fill() throws {
    defer { padEnd() }
    if start > 0 {
      if start < end {
        storage.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: end - start)
      }
      end -= start
      start = 0
    }
    let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[end...]))
    storedBytesRead += count
    if count == 0 { sourceIsExhausted = true } else { end += count }
  }

  /// Writes the zeros after `end` again, in the allocation's room past `storage`: once a read,
  /// not once a line.
  private func padEnd() {
    (storage.baseAddress! + end).initializeMemory(
      as: UInt8.self, repeating: 0, count: ZeroPaddedBytes.padding)
  }

  /// Streams the rest of a line that does not fit to `overflow` and reports it.
  private func skipOverlongLine(overflow: ByteSink?) throws -> Line {
    defer { padEnd() }
    storedLineNumber += 1
    var length = end - start
    try overflow?.write(UnsafeRawBufferPointer(rebasing: storage[start..<end]))
    start = 0
    end = 0
    while true {
      guard length < Self.longestSkippedLine else {
        storedStoppedInsideLine = true
        sourceIsExhausted = true
        break
      }
      let count = try source.read(into: storage)
      storedBytesRead += count
      guard count > 0 else {
        sourceIsExhausted = true
        break
      }
      if let found = memchr(storage.baseAddress!, 0x0A, count) {
        let lineEnd = storage.baseAddress!.distance(to: found)
        try overflow?.write(UnsafeRawBufferPointer(rebasing: storage[0..<lineEnd]))
        length += lineEnd
        start = lineEnd + 1
        end = count
        break
      }
      try overflow?.write(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
      length += count
    }
    return .overlong(length: length)
  }

  @inline(__always) private func trimmingCarriageReturn(_ line: UnsafeRawBufferPointer)
    -> UnsafeRawBufferPointer
  {
    storedEndedWithCarriageReturn = line.last == 0x0D
    return storedEndedWithCarriageReturn ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
  }
}
