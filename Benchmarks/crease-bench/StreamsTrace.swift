import CreaseIO

/// A trace of frames only, at 30 fps on each of `streams` streams, interleaved as cameras
/// deliver them: what a frame costs as the number of streams grows (SPEC 9, "flat in the
/// number of streams"). The rates are declared in a header, or left for the replay to estimate.
enum StreamsTrace {
  /// Writes `frames` frames over `streams` streams to `path`, replacing it.
  static func write(streams: Int, frames: Int, declaringRates: Bool, to path: String) throws {
    let sink = try FileSink(creatingFileAt: path)
    if declaringRates {
      let declared = (0..<streams).map { #""s\#($0)":{"fps":30}"# }.joined(separator: ",")
      try sink.write(
        #"{"kind":"header","format":"crease-trace","version":1,"streams":{\#(declared)}}"# + "\n")
    }
    let period: Int64 = 33_333_333
    for frame in 0..<frames {
      let (round, stream) = frame.quotientAndRemainder(dividingBy: streams)
      let pts = Int64(round) * period
      let t = pts + Int64(stream) * period / Int64(streams)
      try sink.write(
        #"{"t":\#(t),"kind":"frame","stream":"s\#(stream)","pts":\#(pts),"camera":"outerFront"}"# + "\n")
    }
    try sink.flush()
  }
}
