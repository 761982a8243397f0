/// The optional first line of a trace.
public struct TraceHeader: Hashable, Sendable {
  /// The only trace format version this build reads and writes.
  public static let currentVersion = 1

  /// The trace format's version.
  public var version: Int
  /// The device the trace was recorded on, free text.
  public var device: String?
  /// The system version the trace was recorded on, free text.
  public var os: String?
  /// Nominal frame rates declared per stream, in frames per second.
  public var nominalFrameRates: [StreamName: Double]

  /// A header of format `version`, with what the recording knew.
  public init(
    version: Int = TraceHeader.currentVersion, device: String? = nil, os: String? = nil,
    nominalFrameRates: [StreamName: Double] = [:]
  ) {
    self.version = version
    self.device = device
    self.os = os
    self.nominalFrameRates = nominalFrameRates
  }
}
