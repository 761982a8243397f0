import Crease

/// A trace header that ``TraceRecorder`` would not write, because `crease` would not read it back.
public struct RefusedHeader: Error, Hashable, Sendable {
  /// Why the header was refused.
  public enum Reason: Hashable, Sendable {
    /// A format version this build does not write (it writes `TraceHeader/currentVersion`).
    case unsupportedVersion(Int)
    /// A declared frame rate that is not a finite number above 0.
    case frameRate(stream: StreamName, fps: Double)
    /// A stream name holding a NUL byte, which a JSON member name cannot carry through json-c.
    case streamNameHoldsNUL(StreamName)
  }

  /// The header as it was given.
  public var header: TraceHeader
  /// Why it was refused.
  public var reason: Reason

  /// A refusal of `header` for `reason`.
  public init(header: TraceHeader, reason: Reason) {
    self.header = header
    self.reason = reason
  }

  /// Why `header` cannot start a trace, or `nil` when it can.
  /// - Complexity: O(*s*) in the number of declared streams.
  static func reason(for header: TraceHeader) -> Reason? {
    guard header.version == TraceHeader.currentVersion else { return .unsupportedVersion(header.version) }
    for (stream, fps) in header.nominalFrameRates.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      if stream.rawValue.utf8.contains(0) { return .streamNameHoldsNUL(stream) }
      guard fps.isFinite, fps > 0 else { return .frameRate(stream: stream, fps: fps) }
    }
    return nil
  }
}

extension RefusedHeader: CustomStringConvertible {
  /// Why the header was refused, in one line.
  public var description: String {
    switch reason {
    case .unsupportedVersion(let version):
      "header refused: trace version \(version) (this build writes version \(TraceHeader.currentVersion))"
    case .frameRate(let stream, let fps):
      "header refused: stream '\(stream.rawValue)' declares \(fps) fps; a rate is a finite number above 0"
    case .streamNameHoldsNUL(let stream):
      "header refused: stream name \(stream.rawValue.debugDescription) holds a NUL byte"
    }
  }
}
