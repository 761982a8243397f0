import Crease

/// Where a command's lines go: through a buffer as fast as possible, or, with a pacer, each one
/// written and flushed when its trace time comes.
public struct LineOutput {
  public let sink: ByteSink
  /// The pacer, when the output is paced.
  public private(set) var pacer: Pacer?
  private var buffer: [UInt8] = []

  public init(sink: ByteSink, pacer: Pacer? = nil) {
    self.sink = sink
    self.pacer = pacer
    buffer.reserveCapacity(1 << 16)
  }

  /// Writes the line `encode` appends (newline included), due at trace time `t`.
  public mutating func write(at t: Nanoseconds, _ encode: (inout [UInt8]) -> Void) throws {
    encode(&buffer)
    // Tested, not bound: binding would copy the pacer (and its histogram) for every line.
    guard pacer != nil else {
      if buffer.count >= 1 << 16 { try flush() }
      return
    }
    let due = pacer!.wait(for: t)
    try flush()
    pacer!.sent(due)
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
    if !buffer.isEmpty { try sink.write(buffer) }
    buffer.removeAll(keepingCapacity: true)
    try sink.flush()
  }
}
