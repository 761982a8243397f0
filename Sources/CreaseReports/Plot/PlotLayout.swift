/// Where each part of the plot goes, top to bottom: the angle, the camera lane, a frame row
/// per stream, the latency lane, the time axis and the legend. Only the frame rows vary.
struct PlotLayout {
  static let width = 1200.0
  static let plotLeft = 80.0
  static let plotRight = 1170.0
  /// How far inside the frame the window's ends are drawn: a marker's half width.
  static let inset = 6.0
  static let angleTop = 50.0
  static let angleBottom = 370.0
  static let laneTop = 390.0
  static let laneBottom = 440.0
  /// A stream's frame row.
  static let frameRowHeight = 14.0
  /// Streams past this many are named, not drawn.
  static let maximumFrameRows = 8

  /// The frame rows drawn.
  let frameRows: Int

  var framesTop: Double { Self.laneBottom + 10 }
  var framesBottom: Double { framesTop + Self.frameRowHeight * Double(frameRows) }
  var latencyTop: Double { (frameRows > 0 ? framesBottom : Self.laneBottom) + 10 }
  var latencyBottom: Double { latencyTop + 40 }
  var height: Double { latencyBottom + 130 }
}
