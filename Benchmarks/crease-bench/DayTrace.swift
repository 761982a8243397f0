#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The benchmark's trace (SPEC 9): a working day, not a loop of marks. `crease synth day`
/// gives the hinge, the context events and a 30 fps stream; two more days (other seeds, one at
/// 60 fps) give their frames and drops as streams `video2` and `video3`, merged by `t`. Marks
/// are a fraction of a percent of the events.
enum DayTrace {
  /// The streams after the first: each a seed and a frame rate.
  static let extraStreams = [(name: "video2", seed: 2, fps: 30), (name: "video3", seed: 3, fps: 60)]
  /// Trace seconds that give over 1,000,000 events with the three streams.
  static let seconds = 10_000

  /// Writes the day trace's first `lines` lines to `path` (reused when already there), made
  /// from the whole day at `whole` with `crease`.
  static func write(lines: Int, to path: String, whole: String, crease: String) throws {
    if access(whole, R_OK) != 0 {
      let parts = whole + ".parts"
      try Spawn.run("mkdir -p \(parts)")
      try Spawn.run("\(crease) synth day --seed 1 --duration \(seconds) -o \(parts)/video.jsonl")
      try Spawn.run("tail -n +2 \(parts)/video.jsonl > \(parts)/video.jsonl.only")
      var inputs = ["\(parts)/video.jsonl.only"]
      for stream in extraStreams {
        let file = "\(parts)/\(stream.name).jsonl"
        try Spawn.run(
          "\(crease) synth day --seed \(stream.seed) --fps \(stream.fps) --duration \(seconds) -o \(file)")
        try Spawn.run(
          #"grep -E '"kind":"(frame|drop)"' \#(file) | sed 's/"stream":"video"/"stream":"\#(stream.name)"/' > \#(file).only"#
        )
        inputs.append("\(file).only")
      }
      let streams = ([(name: "video", fps: 30)] + extraStreams.map { ($0.name, $0.fps) })
        .map { #""\#($0.name)":{"fps":\#($0.fps)}"# }.joined(separator: ",")
      let header = #"{"kind":"header","format":"crease-trace","version":1,"streams":{\#(streams)}}"#
      // Every input is in order of t: merged stably by t's digits (the field after the first
      // colon), so lines at one t keep the order of their inputs.
      try Spawn.run(
        "{ echo '\(header)'; LC_ALL=C sort -m -s -t: -k2,2n \(inputs.joined(separator: " ")); } > \(whole).partial"
          + " && mv \(whole).partial \(whole) && rm -r \(parts)")
    }
    if access(path, R_OK) != 0 {
      try Spawn.run("head -n \(lines) \(whole) > \(path).partial && mv \(path).partial \(path)")
    }
  }
}
