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

  static let description = CommandDescription(
    name: "import",
    abstract: "Turn a real recording into a trace: a movie's frame timing, or a list of timestamps.",
    discussion: """
      A QuickTime or MP4 movie (.mov, .mp4, .m4v) gives each video track's samples as frame
      events, in presentation order after the edit list, each pts the exact CMTime of the track's
      timescale (what 'ffprobe -show_entries packet=pts' shows); fragmented movies too. Any other
      file is a list of timestamps, one a line, in whole nanoseconds or decimal seconds ('#'
      starts a comment). The trace declares no frame rate: the replay estimates it, and reports
      the holes in the timestamps as gaps. Crease reads the file itself; no other program is run.
      """,
    arguments: [
      .init("recording", help: "The movie or timestamp list ('-' reads standard input as a list).")
    ],
    options: [outputOption, TraceOutputFormat.option, cameraOption, streamOption])

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
    let source = try TraceInputs.open([path], streams: streams)[0]
    let events: ImportedFrames
    switch RecordingImport.Kind(path: path) {
    case .movie:
      do {
        events = RecordingImport.events(of: try MovieTiming.read(source), stream: stream, camera: camera)
      } catch let error as MovieFormatError {
        throw InputError(path: path, message: "\(error)")
      }
    case .timestampList:
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
