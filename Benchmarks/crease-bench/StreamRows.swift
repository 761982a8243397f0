/// What a frame costs as the streams grow (SPEC 9: flat from 1 to 100,000 streams): callgrind's
/// instructions of a replay of frames only, streams delivering in turn, the difference between
/// two lengths of the same trace over the frames between them.
enum StreamRows {
  /// A set of rows measured against its own first: the streams' rates declared in a header,
  /// or left for each stream's estimate to find.
  struct Set {
    var title: String
    var declaresRates: Bool
    var streams: [Int]
    /// The shorter trace's frames a stream: every stream is past its start there. A stream
    /// whose rate is estimated needs its window of deltas full (15), or its frames cost less
    /// than in steady state (at 100,000 streams, 1,193 instructions a frame after 5 rounds,
    /// 1,292 after 20).
    var roundsBefore: Int
    /// The formats replayed: binary, and JSON Lines (whose reader finds each stream's name by
    /// its bytes) where its traces stay small.
    var formats: [(name: String, extension: String)]
  }

  static let binary = (name: "binary", extension: "crtrace")
  static let jsonLines = (name: "JSON Lines", extension: "jsonl")

  /// Declared rates, as a camera's session states them: the header's 1 MiB holds 30,000.
  static let declared = Set(
    title: "rates declared", declaresRates: true, streams: [1, 1_000, 30_000], roundsBefore: 1,
    formats: [binary, jsonLines])
  /// No header: 100,000 streams' rates pass any header's 1 MiB, in either format.
  static let estimated = Set(
    title: "rates estimated, no header", declaresRates: false, streams: [1, 100_000], roundsBefore: 17,
    formats: [binary])

  /// Prints each set's instructions a frame by number of streams, each against one stream.
  static func print(crease: String, data: String) throws {
    Swift.print("\ninstructions a frame of a replay, by number of streams (SPEC 9: flat):")
    guard Spawn.commandExists("valgrind") else { return Swift.print("  (valgrind is not installed)") }
    for set in [declared, estimated] {
      var perFrame: [String: [(streams: Int, instructions: Int)]] = [:]
      for streams in set.streams {
        // The difference covers at least 100,000 frames, and whole rounds of the streams.
        let added = max(100_000, streams)
        let before = max(100_000, streams * set.roundsBefore)
        var counts: [String: [Int]] = [:]
        for frames in [before, before + added] {
          let path = "\(data)/streams-\(set.declaresRates ? "" : "estimated-")\(streams)-\(frames)"
          try StreamsTrace.write(
            streams: streams, frames: frames, declaringRates: set.declaresRates, to: path + ".jsonl")
          try Spawn.run("\(crease) convert \(path).jsonl -o \(path).crtrace")
          for format in set.formats {
            if let run = try Callgrind.run("\(crease) replay \(path).\(format.extension) > /dev/null") {
              counts[format.name, default: []].append(run.all)
            }
          }
          try Spawn.run("rm \(path).jsonl")
        }
        for format in set.formats {
          guard let pair = counts[format.name], pair.count == 2 else { continue }
          perFrame[format.name, default: []].append((streams, (pair[1] - pair[0]) / added))
        }
      }
      for format in set.formats {
        guard let rows = perFrame[format.name], let one = rows.first else { continue }
        let cells = rows.map { row in
          "\(row.streams) stream\(row.streams == 1 ? "" : "s") \(row.instructions)"
            + (row.streams == one.streams
              ? "" : " (\(BenchRow.format(Double(row.instructions) / Double(one.instructions), 2))×)")
        }
        Swift.print("  \(format.name), \(set.title): " + cells.joined(separator: ", "))
      }
    }
  }
}
