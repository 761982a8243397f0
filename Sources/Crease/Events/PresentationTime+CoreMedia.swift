// Conveniences for the sample buffers an app gets from AVFoundation. Only Apple platforms have
// CoreMedia; nothing here is compiled, or tested, on Linux (Docs/Decisions.md, "Platforms").
#if canImport(CoreMedia)
  import CoreMedia

  extension PresentationTime {
    /// A sample buffer's presentation time, as recorded; `nil` for a time that is not a number
    /// (invalid, indefinite or infinite) or whose nanoseconds do not fit in 64 bits.
    public init?(_ time: CMTime) {
      guard time.flags.contains(.valid),
        time.flags.isDisjoint(with: [.indefinite, .positiveInfinity, .negativeInfinity])
      else { return nil }
      self.init(value: time.value, timescale: time.timescale)
    }

    /// The time as a `CMTime`, its value and timescale as recorded.
    public var cmTime: CMTime { CMTime(value: value, timescale: timescale) }
  }

  extension EventSending {
    /// A delivered sample buffer, by its presentation time; returns `false`, sending nothing,
    /// when the buffer's time is not a number (``PresentationTime/init(_:)``).
    @discardableResult
    public mutating func frame(
      _ sampleBuffer: CMSampleBuffer, stream: StreamName = .video, camera: Camera? = nil, at t: Nanoseconds
    ) throws(SendFailure) -> Bool {
      guard let pts = PresentationTime(CMSampleBufferGetPresentationTimeStamp(sampleBuffer)) else {
        return false
      }
      try frame(pts, stream: stream, camera: camera, at: t)
      return true
    }
  }
#endif
