import CreaseIO
import CreaseImport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Peak memory of the fleet commands and of `import` as their work grows (SPEC 9: flat in the
/// number of summaries, traces, combinations and samples), each at two sizes, measured from
/// the parent as a user's `time -v` would.
enum ScaleRows {
  /// One command at two sizes of its work.
  struct Row {
    var name: String
    /// What grows, in the plural (`summaries`, `traces`).
    var unit: String
    var sizes: (Int, Int)
    /// The command line for a size, its inputs made first.
    var command: (Int) throws -> String
  }

  /// Prints a line per row: the peak RSS at each size and their ratio.
  static func print(crease: String, data: String) throws {
    Swift.print("\npeak RSS as the work grows (SPEC 9: flat; report under 64 MB at 10,000 summaries):")
    for row in try rows(crease: crease, data: data) {
      let peaks = try [row.sizes.0, row.sizes.1].map { try Spawn.peakResidentKilobytes(try row.command($0)) }
      Swift.print(
        "  \(row.name): \(row.sizes.0) \(row.unit) \(peaks[0] / 1024) MiB, \(row.sizes.1) \(peaks[1] / 1024) MiB"
          + " (\(BenchRow.format(Double(peaks[1]) / Double(peaks[0]), 2))×)")
    }
  }

  static func rows(crease: String, data: String) throws -> [Row] {
    let directory = "\(data)/scale"
    try Spawn.run("rm -rf \(directory) && mkdir -p \(directory)")
    // One summary of a day's half hour and one short trace, linked under as many names as a
    // size needs: the work grows, the disk does not.
    let summary = "\(directory)/day.summary.json"
    try Spawn.run("\(crease) replay Traces/synth-day.jsonl -o /dev/null --summary-json \(summary)")
    func links(_ target: String, _ count: Int, _ name: String) throws -> String {
      let folder = "\(directory)/\(name)-\(count)"
      try Spawn.run(
        "mkdir -p \(folder) && i=0; while [ $i -lt \(count) ]; do ln -s \(cwd())/\(target) \(folder)/$i.\(name); i=$((i+1)); done"
      )
      return folder
    }
    return [
      Row(name: "report", unit: "summaries", sizes: (1_000, 10_000)) { count in
        "\(crease) report -f json -o /dev/null \(try links(summary, count, "json"))/*.json"
      },
      Row(name: "batch", unit: "traces", sizes: (100, 1_000)) { count in
        "\(crease) batch -j 1 -d \(directory)/batch-out-\(count) \(try links("Traces/wobble.jsonl", count, "jsonl"))/*.jsonl 2> /dev/null"
      },
      Row(name: "sweep", unit: "settings", sizes: (100, 1_000)) { count in
        let values = (0..<count).map { String(10 + $0) }.joined(separator: ",")
        return
          "\(crease) sweep -f json -o /dev/null --set hinge.statusDebounceMs=\(values) Traces/wobble.jsonl"
      },
      Row(name: "import", unit: "samples", sizes: (100_000, 400_000)) { count in
        let movie = "\(directory)/movie-\(count).mp4"
        let tracks = (1...2).map { id in
          var track = MovieTimingWriter.Track(id: UInt32(id), timescale: 600)
          track.durations = [.init(count: UInt32(count / 2), value: 20)]
          // Reordered frames, as a phone's B-frames are: an offset a sample, no run to share.
          track.offsets = (0..<count / 2).map { .init(count: 1, value: $0 % 2 == 0 ? 40 : 0) }
          return track
        }
        let sink = try FileSink(creatingFileAt: movie)
        try sink.write(MovieTimingWriter(movieTimescale: 600, tracks: tracks).bytes())
        try sink.flush()
        return "\(crease) import \(movie) -o /dev/null"
      },
    ]
  }

  /// The working directory, for links that hold wherever they are read from.
  private static func cwd() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    return getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
  }
}
