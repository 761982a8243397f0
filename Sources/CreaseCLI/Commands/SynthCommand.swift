import Crease
import CreaseIO
import CreaseRecording
import CreaseReports
import CreaseScenarioFiles
import CreaseSynth

/// `crease synth`: write a synthetic trace.
enum SynthCommand: Subcommand {
  static let seedOption = CommandDescription.Option(["--seed"], value: "n", help: "The seed (default 1).")
  static let durationOption = CommandDescription.Option(
    ["--duration"], value: "seconds",
    help: "Length in seconds (default: the scenario's); 0 runs until stopped, pass after pass.")
  static let limitOption = CommandDescription.Option(
    ["--limit"], value: "n", help: "Stop after n events (the header not counted).")
  static let statsOption = CommandDescription.Option(
    ["--stats"], value: "seconds",
    help:
      "Every so many seconds, events sent, their rate and lateness on stderr (or how long the output has blocked)."
  )
  static let fpsOption = CommandDescription.Option(
    ["--fps"], value: "n", help: "Camera frame rate, 1 to 240 (default 30).")
  static let hingeRateOption = CommandDescription.Option(
    ["--hinge-hz"], value: "n", help: "Mean hinge delivery rate, up to 1000 (default 60).")
  static let outputOption = CommandDescription.Option(
    ["-o", "--output"], value: "file",
    help:
      "Write to a file or a socket (tcp://HOST:PORT, udp://HOST:PORT, unix:PATH) instead of standard output.")
  static let scenarioOption = CommandDescription.Option(
    ["--scenario"], value: "file",
    help: "Play a scenario file instead of a built-in (see 'crease scenarios --json').")

  static let description = CommandDescription(
    name: "synth",
    abstract: "Write a synthetic trace; the same seed gives the same bytes.",
    discussion: """
      Models hands on a hinge (eased movements, sensor noise, a jittery delivery rate) and cameras
      (30 or 60 fps, arrival jitter, switch gaps without drop reasons, drops with reasons).
      'crease scenarios' lists the scenarios; --scenario plays one written as a file (segments
      of hinge moves, camera frames, drops and gaps, context events; Schemas/scenario.schema.json),
      and 'crease scenarios --json NAME' prints a built-in in that form. With --speed each line
      is written when its trace time comes, for feeding other tools.
      """,
    arguments: [
      .init(
        "scenario", help: "The built-in scenario to generate (see 'crease scenarios').", isOptional: true,
        completion: .values(Scenario.allCases.map(\.rawValue)))
    ],
    options: [
      scenarioOption, seedOption, durationOption, fpsOption, hingeRateOption, TraceInputs.speedOption,
      outputOption,
      TraceOutputFormat.option, limitOption, statsOption,
    ])

  /// The command line, read and checked whole before any file is touched.
  struct Options {
    var scenario: ScenarioDescription
    /// The scenario file read, if one was (`--scenario`).
    var scenarioFile: String?
    var synth = SynthOptions()
    var speed: Double?
    /// Whether the run goes on until stopped (`--duration 0`).
    var endless = false
    /// The most events to write (`--limit`).
    var limit: Int?
    /// How often to report progress on standard error (`--stats`).
    var statsInterval: Nanoseconds?
    /// The file to write; `-` for standard output.
    var output: String
    /// The trace format, by the output's name or `--to`.
    var format: TraceOutputFormat

    init(_ arguments: ParsedArguments) throws {
      scenarioFile = arguments.value(scenarioOption)
      scenario = try Self.scenario(arguments)
      synth.seed = try arguments.value(seedOption, as: "a whole number", { UInt64($0) }) ?? 1
      let duration = try arguments.value(durationOption, as: "0, or a positive number of seconds") { text in
        Double(text).flatMap { $0 >= 0 && $0 <= 86_400 ? $0 : nil }
      }
      endless = duration == 0
      synth.duration = endless ? nil : duration
      limit = try arguments.value(limitOption, as: "a whole number from 1") {
        Int($0).flatMap { $0 >= 1 ? $0 : nil }
      }
      statsInterval = try arguments.value(statsOption, as: "a positive number of seconds") { text in
        Double(text).flatMap { $0 > 0 && $0 <= 86_400 ? Nanoseconds(rounding: $0 * 1e9) : nil }
      }
      synth.fps =
        try arguments.value(fpsOption, as: "a frame rate from 1 to 240") {
          Int($0).flatMap { (1...240).contains($0) ? $0 : nil }
        } ?? 30
      synth.hingeHz =
        try arguments.value(hingeRateOption, as: "a rate from 1 to 1000") { text in
          Double(text).flatMap { $0 >= 1 && $0 <= 1000 ? $0 : nil }
        } ?? 60
      speed = try TraceInputs.speed(arguments)
      output = arguments.value(outputOption) ?? "-"
      format = try TraceOutputFormat.resolve(arguments, output: output)
    }

    /// The built-in named, or the file `--scenario` names, read whole: one or the other.
    private static func scenario(_ arguments: ParsedArguments) throws -> ScenarioDescription {
      switch (arguments.positionals.first, arguments.value(scenarioOption)) {
      case (let name?, nil):
        guard let scenario = Scenario(rawValue: name) else {
          throw UsageError(
            "Unknown scenario '\(name)'.\(Suggestion.didYouMean(name, in: Scenario.allCases.map(\.rawValue)))"
          )
        }
        return scenario.description
      case (nil, let path?):
        return try ScenarioFile.read(try FileSource(path: path))
      case (.some, .some):
        throw UsageError("Give a built-in scenario or --scenario FILE, not both.")
      case (nil, nil):
        throw UsageError(
          "Missing a scenario: name a built-in (see 'crease scenarios') or give --scenario FILE.")
      }
    }
  }

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let options = try Options(arguments)
    try OutputPaths.refuseOverlaps(
      [("--output", options.output)], inputs: options.scenarioFile.map { [$0] } ?? [], streams: streams)
    let pacer = options.speed.map { Pacer(speed: $0) }
    let target = try OutputTarget(options.output, streams: streams, inPlace: pacer != nil || options.endless)
    let stats = try options.statsInterval.map {
      try SynthStats(interval: $0, output: target.sink, to: streams.error)
    }
    defer { stats?.stop() }
    var output = LineOutput(sink: stats?.watchedOutput ?? target.sink, pacer: pacer)
    let header = options.scenario.header(options.synth)
    let events: AnySequence<Event> =
      options.endless
      ? AnySequence(options.scenario.endless(options.synth))
      : AnySequence(options.scenario.events(options.synth))
    var encoder = BinaryTraceEncoder()
    var record: [UInt8] = options.format == .binary ? encoder.fileHeader : []
    var written = 0
    // An endless or paced run is stopped by a signal after its last whole line.
    let stopsAfterLines = options.endless || pacer != nil
    if stopsAfterLines { InterruptCleanup.finishLinesOnStop() }
    for (index, event) in events.enumerated() {
      if stopsAfterLines && InterruptCleanup.stopRequested {
        try output.flush()
        stats?.stop()
        InterruptCleanup.stopIfRequested()
      }
      if index == 0 {
        try write(.header(header), at: event.t, format: options.format, &encoder, &record, to: &output)
      }
      if written == options.limit { break }
      try write(.event(event), at: event.t, format: options.format, &encoder, &record, to: &output)
      written += 1
      try stats?.sent(written, pacer: output.pacer)
    }
    try output.flush()
    try target.commit()
    return .success
  }

  /// Writes one record as the format wants it, due at `t`.
  private static func write(
    _ item: TraceRecord, at t: Nanoseconds, format: TraceOutputFormat, _ encoder: inout BinaryTraceEncoder,
    _ record: inout [UInt8], to output: inout LineOutput
  ) throws {
    switch format {
    case .jsonl:
      try output.write(at: t) { TraceEncoder.encode(item, into: &$0) }
    case .binary:
      try encoder.encode(item, into: &record)
      try output.write(at: t) { [record] in $0 += record }
      record.removeAll(keepingCapacity: true)
    }
  }
}

/// `crease scenarios`: list the synthetic scenarios, or print them as scenario files.
enum ScenariosCommand: Subcommand {
  static let jsonOption = CommandDescription.Option(
    ["--json"], help: "Print the scenarios as scenario files (one, when named) for 'synth --scenario'.")

  static let description = CommandDescription(
    name: "scenarios", abstract: "List the synthetic scenarios.",
    discussion: """
      With --json, each built-in scenario as the file 'crease synth --scenario' reads: its model
      and every parameter, with notes on what each does. 'crease scenarios --json wobble >
      mine.json' gives a file to edit; unedited, it plays the same bytes as 'crease synth wobble'.
      """,
    arguments: [
      .init(
        "scenario", help: "The one scenario to print with --json.", isOptional: true,
        completion: .values(Scenario.allCases.map(\.rawValue)))
    ],
    options: [jsonOption])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let names = Scenario.allCases.map(\.rawValue)
    let named = try arguments.positionals.first.map { name in
      guard let scenario = Scenario(rawValue: name) else {
        throw UsageError("Unknown scenario '\(name)'.\(Suggestion.didYouMean(name, in: names))")
      }
      return scenario
    }
    guard arguments.flag(jsonOption) else {
      guard named == nil else { throw UsageError("A scenario is named only with --json.") }
      let width = names.map(\.count).max() ?? 0
      for scenario in Scenario.allCases {
        let padding = String(repeating: " ", count: width - scenario.rawValue.count)
        try streams.output.write(
          "\(scenario.rawValue)\(padding)  \(scenario.summary) (\(Int(scenario.defaultDuration)) s)\n")
      }
      return .success
    }
    let document: JSONDocument =
      named.map { ScenarioFile.json($0.description) }
      ?? .array(Scenario.allCases.map { ScenarioFile.json($0.description) })
    try streams.output.write(document.bytes)
    return .success
  }
}
