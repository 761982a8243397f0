extension Event {
  /// The event moved later by `offset`: its `t`, and a frame's or drop's pts, so a stream
  /// repeated after itself (`replay --loop`, endless `synth`) continues instead of going back.
  /// Saturates at the end of the time range.
  public func shifted(by offset: Nanoseconds) -> Event {
    var moved = self
    moved.t = t + offset
    switch payload {
    case .frame(var frame):
      frame.pts = PresentationTime(nanoseconds: (frame.pts.nanoseconds + offset).rawValue)
      moved.payload = .frame(frame)
    case .drop(var drop):
      drop.pts = PresentationTime(nanoseconds: (drop.pts.nanoseconds + offset).rawValue)
      moved.payload = .drop(drop)
    default:
      break
    }
    return moved
  }
}
