import Crease
import CreaseIO
import CreaseImport
import CreaseRecording

/// `crease import`: a real recording as a trace.
enum ImportCommand: Subcommand {
  static let outputOption = CommandDescription.Option(
    ["-o", "--output"], value: "file", help: "Write the trace to a file instead of standard output.")
  static let cameraOption = CommandDescription.Option(
    ["--camera"], value: "name", completion: .values(Camera.allCases.map(\.name)),
    help: "The camera that recorded it: each frame names it.")
  static let streamOption = CommandDescription.Option(
    ["--stream"], value: "name",
    help: "The first video track's stream (default video; the others add 2, 3 and so on).")
  static let allSamplesOption = CommandDescription.Option(
    ["--all-samples"], help: "Keep every sample of a movie, those its edit list never shows too.")
  static let strictOption = CommandDescription.Option(
    ["--strict"], help: "Refuse a movie cut short (exit 65) rather than keep the samples it holds.")

  static let description = CommandDescription(
    name: "import",
    abstract: "Turn a real recording into a trace: a movie's frame timing, or a list of timestamps.",
    discussion: """
      A QuickTime or MP4 movie, known by its first box whatever its name (.mov, .mp4, .m4v,
      .3gp, .qt, none), gives each video track's samples as frame events, in presentation order
      after the edit list, each pts the exact CMTime of the track's timescale; a sample the edit
      list never shows is left out (--all-samples keeps it); fragmented movies too. A track that
      ends before another gets a streamEnd after its last frame: it ended, it did not stall. A
      movie cut
      short, as a phone that crashed while recording leaves it, gives the samples whose data the
      file holds, with one warning (--strict: exit 65). Anything else is a list of timestamps, one
      a line, in whole nanoseconds or decimal seconds ('#' starts a comment). The trace declares
      no frame rate: the replay estimates it, and reports the holes in the timestamps as gaps.
      Crease reads the file itself; no other program is run.
      """,
    arguments: [
      .init("recording", help: "The movie or timestamp list ('-' reads standard input).")
    ],
    options: [
      outputOption, TraceOutputFormat.option, cameraOption, streamOption, allSamplesOption, strictOption,
    ])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    guard arguments.positionals.count == 1 else { throw UsageError("Give one recording to import.") }
    let path = arguments.positionals[0]
    let output = arguments.value(outputOption) ?? "-"
    let format = try TraceOutputFormat.resolve(arguments, output: output)
    let camera = try arguments.value(
      cameraOption, as: "a camera: " + Camera.allCases.map(\.name).joined(separator: ", ")
    ) {
      Camera(name: $0)
    }
    let stream = StreamName(rawValue: arguments.value(streamOption) ?? "video")
    guard !stream.rawValue.isEmpty else { throw UsageError("'--stream' needs a name.") }
    try OutputPaths.refuseOverlaps([("--output", output)], inputs: [path], streams: streams)
    let source = try TraceInputs.openRecording(path, streams: streams)
    let events: ImportedFrames
    switch source.content {
    case .movie:
      let movie: MovieTiming
      do {
        movie = try MovieTiming.read(source, keepingEverySample: arguments.flag(allSamplesOption))
      } catch let error as MovieFormatError {
        throw InputError(path: source.name, message: "\(error)")
      }
      if let truncation = movie.truncation {
        guard !arguments.flag(strictOption) else {
          throw InputError(path: source.name, message: "\(truncation)")
        }
        try streams.error.write("\(source.name.escapingControlCharacters): warning: \(truncation)\n")
      }
      events = RecordingImport.events(of: movie, stream: stream, camera: camera)
    case .binaryTrace:
      throw InputError(
        path: source.name, message: "a Crease binary trace, not a recording: replay it as it is")
    case .text:
      events = RecordingImport.events(of: try TimestampList.read(source), stream: stream, camera: camera)
    }
    let target = try OutputTarget(output, streams: streams)
    // A record at a time into the sink's buffer: the trace's text is never whole in memory.
    var record: [UInt8] = []
    var encoder = BinaryTraceEncoder()
    if format == .binary { record = encoder.fileHeader }
    func write(_ item: TraceRecord) throws {
      switch format {
      case .jsonl: TraceEncoder.encode(item, into: &record)
      case .binary: try encoder.encode(item, into: &record)
      }
      try target.sink.write(record)
      record.removeAll(keepingCapacity: true)
    }
    try write(.header(TraceHeader()))
    for event in events { try write(.event(event)) }
    try target.commit()
    return .success
  }
}
