import Crease
import CreaseIO
import CreaseSynth

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The trace the peers were written for (the bench trace before the working day): hinge samples
/// at 60 Hz, 30 fps frames, an occasional drop and a mark in every fourth line, written
/// deterministically. Kept for the peers' part table, whose cues match crease's on it.
enum BenchTrace {
  /// Writes `lines` lines to `path` (reused when already there) and returns its size in bytes.
  static func write(lines: Int, to path: String) throws -> Int {
    if let existing = try? FileSource(path: path), let size = try? size(of: existing), size > 0 {
      return size
    }
    let sink = try FileSink(creatingFileAt: path)
    var random = SplitMix64(seed: 42)
    var size = 0
    var t: Int64 = 0
    var pts: Int64 = 0
    var line = #"{"kind":"header","format":"crease-trace","version":1,"streams":{"video":{"fps":30}}}"# + "\n"
    for index in 0..<lines {
      if index > 0 {
        t += 8_333_333 + Int64(random.next() % 1_000_000)
        switch index % 4 {
        case 0, 2:
          let angle = 90 + 60 * sin(Double(index) / 5000) + Double(random.next() % 100) / 100
          let status = angle > 150 ? "fullyOpen" : "partiallyOpen"
          line = #"{"t":\#(t),"kind":"hinge","angle":\#(angle),"status":"\#(status)"}"# + "\n"
        case 1:
          pts += 33_333_333
          line = #"{"t":\#(t),"kind":"frame","stream":"video","pts":\#(pts),"camera":"innerFront"}"# + "\n"
        default:
          line =
            index % 1000 == 3
            ? #"{"t":\#(t),"kind":"drop","stream":"video","pts":\#(pts + 1),"reason":"frameWasLate"}"# + "\n"
            : #"{"t":\#(t),"kind":"mark","label":"m\#(index)"}"# + "\n"
        }
      }
      try sink.write(line)
      size += line.utf8.count
    }
    try sink.flush()
    return size
  }

  private static func size(of source: ByteSource) throws -> Int {
    var total = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while case let count = try buffer.withUnsafeMutableBytes({ try source.read(into: $0) }), count > 0 {
      total += count
    }
    return total
  }
}
