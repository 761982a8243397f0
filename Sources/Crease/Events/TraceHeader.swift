/// The optional first line of a trace.
public struct TraceHeader: Hashable, Sendable {
  /// The only trace format version this build reads and writes.
  public static let currentVersion = 1

  public var version: Int
  public var device: String?
  public var os: String?
  /// Nominal frame rates declared per stream, in frames per second.
  public var nominalFrameRates: [StreamName: Double]

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
