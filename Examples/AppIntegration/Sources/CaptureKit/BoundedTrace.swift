import CreaseRecording

/// A recording kept in memory up to a number of lines, as an app might cap one it uploads.
public struct BoundedTrace: TraceSink, Sendable {
  /// Why a line was not taken.
  public enum Failure: Error, Equatable {
    /// The recording already holds `capacity` lines.
    case full(capacity: Int)
  }

  /// The lines taken, without their newlines.
  public private(set) var lines: [String] = []
  /// The most lines it takes.
  public let capacity: Int

  /// An empty recording of at most `capacity` lines.
  public init(capacity: Int) { self.capacity = capacity }

  /// Takes one line, or fails when full.
  public mutating func write(_ line: UnsafeRawBufferPointer) throws(Failure) {
    guard lines.count < capacity else { throw .full(capacity: capacity) }
    lines.append(String(decoding: line.dropLast(), as: UTF8.self))
  }
}
