import Crease
import CreaseRecording

/// Where a command's lines go: through a buffer as fast as possible, or, with a pacer, each one
/// written and flushed when its trace time comes.
public struct LineOutput {
  /// Where the lines go.
  public let sink: ByteSink
  /// The pacer, when the output is paced.
  public private(set) var pacer: Pacer?
  /// Lines waiting to be written: the first `used` bytes. The array keeps its full count, so
  /// a writer can write into it through a pointer.
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)
  private var used = 0
  /// Where ``write(at:_:)`` encodes a line before it is copied into `buffer`.
  private var scratch: [UInt8] = []

  /// An output to `sink`, paced by `pacer` when given.
  public init(sink: ByteSink, pacer: Pacer? = nil) {
    self.sink = sink
    self.pacer = pacer
  }

  /// Writes the line `encode` appends (newline included), due at trace time `t`.
  public mutating func write(at t: Nanoseconds, _ encode: (inout [UInt8]) -> Void) throws {
    var line: [UInt8] = []
    swap(&line, &scratch)
    defer { swap(&line, &scratch) }
    line.removeAll(keepingCapacity: true)
    encode(&line)
    try write(line, at: t, atMost: line.count) { line, writer in line.withUnsafeBytes { writer.write($0) } }
  }

  /// Writes the line `encode` writes of `value` (newline included, at most `capacity` bytes,
  /// which the writer checks), due at trace time `t`: straight into the buffer. The value is
  /// handed to `encode`, not captured by it: a captured cue was copied, and the copy destroyed,
  /// for every line. Tuning: moved-not-copied.
  package mutating func write<Value>(
    _ value: Value, at t: Nanoseconds, atMost capacity: Int,
    _ encode: (Value, inout UnsafeByteWriter) -> Void
  ) throws {
    if used + capacity > buffer.count {
      try flush()
      if capacity > buffer.count { buffer = [UInt8](repeating: 0, count: capacity) }
    }
    // Safe because `used + capacity` fits in the buffer (made so above), and the writer is
    // bounded by `capacity` from `used`.
    buffer.withUnsafeMutableBufferPointer { bytes in
      let start = bytes.baseAddress!
      var writer = UnsafeByteWriter(at: start + used, capacity: capacity)
      encode(value, &writer)
      used = writer.cursor - start
    }
    // Tested, not bound: binding would copy the pacer (and its histogram) for every line.
    guard pacer != nil else { return }
    let due = pacer!.wait(for: t)
    try flush()
    pacer!.sent(due)
    // A stop signal ends a paced run here, after a whole line (InterruptCleanup).
    try InterruptCleanup.checkStop()
  }

  /// Starts the pacer's clock at trace time `t` (the first event read), when paced.
  public mutating func startPacing(at t: Nanoseconds) { pacer?.start(at: t) }

  /// Writes out what is buffered and, when paced, waits until trace time `t` comes.
  public mutating func finishPacing(at t: Nanoseconds) throws {
    try flush()
    pacer?.pause(until: t)
  }

  /// Writes out what is buffered.
  public mutating func flush() throws {
    if used > 0 {
      try buffer.withUnsafeBytes { bytes in try sink.write(UnsafeRawBufferPointer(rebasing: bytes[..<used])) }
      used = 0
    }
    try sink.flush()
  }
}
