import Crease
import CreaseIO
import CreaseRecording
import CreaseSynth

/// `crease synth`: write a synthetic trace.
enum SynthCommand: Subcommand {
  static let seedOption = CommandDescription.Option(["--seed"], value: "n", help: "The seed (default 1).")
  static let durationOption = CommandDescription.Option(
    ["--duration"], value: "seconds", help: "Length in seconds (default: the scenario's).")
  static let fpsOption = CommandDescription.Option(
    ["--fps"], value: "n", help: "Camera frame rate, 1 to 240 (default 30).")
  static let hingeRateOption = CommandDescription.Option(
    ["--hinge-hz"], value: "n", help: "Mean hinge delivery rate, up to 1000 (default 60).")
  static let outputOption = CommandDescription.Option(
    ["-o", "--output"], value: "file", help: "Write to a file instead of standard output.")

  static let description = CommandDescription(
    name: "synth",
    abstract: "Write a synthetic trace; the same seed gives the same bytes.",
    discussion: """
      Models hands on a hinge (eased movements, sensor noise, a jittery delivery rate) and cameras
      (30 or 60 fps, arrival jitter, switch gaps without drop reasons, drops with reasons).
      'crease scenarios' lists the scenarios. With --speed each line is written when its trace
      time comes, for feeding other tools.
      """,
    arguments: [
      .init(
        "scenario", help: "The scenario to generate (see 'crease scenarios').",
        completion: .values(Scenario.allCases.map(\.rawValue)))
    ],
    options: [
      seedOption, durationOption, fpsOption, hingeRateOption, TraceInputs.speedOption, outputOption,
      TraceOutputFormat.option,
    ])

  /// The command line, read and checked whole before any file is touched.
  struct Options {
    var scenario: Scenario
    var synth = SynthOptions()
    var speed: Double?
    /// The file to write; `-` for standard output.
    var output: String
    /// The trace format, by the output's name or `--to`.
    var format: TraceOutputFormat

    init(_ arguments: ParsedArguments) throws {
      let name = arguments.positionals[0]
      guard let scenario = Scenario(rawValue: name) else {
        throw UsageError(
          "Unknown scenario '\(name)'.\(Suggestion.didYouMean(name, in: Scenario.allCases.map(\.rawValue)))")
      }
      self.scenario = scenario
      synth.seed = try arguments.value(seedOption, as: "a whole number", { UInt64($0) }) ?? 1
      synth.duration = try arguments.value(durationOption, as: "a positive number of seconds") { text in
        Double(text).flatMap { $0 > 0 && $0 <= 86_400 ? $0 : nil }
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
  }

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let options = try Options(arguments)
    let pacer = options.speed.map { Pacer(speed: $0) }
    let target = try OutputTarget(options.output, streams: streams, inPlace: pacer != nil)
    var output = LineOutput(sink: target.sink, pacer: pacer)
    let trace = options.scenario.generate(options.synth)
    let start = trace.events.first?.t ?? .zero
    switch options.format {
    case .jsonl:
      try output.write(at: start) { TraceEncoder.encode(.header(trace.header), into: &$0) }
      for event in trace.events {
        try output.write(at: event.t) { TraceEncoder.encode(.event(event), into: &$0) }
      }
    case .binary:
      var encoder = BinaryTraceEncoder()
      var record = encoder.fileHeader
      try encoder.encode(.header(trace.header), into: &record)
      try output.write(at: start) { [record] in $0 += record }
      for event in trace.events {
        record.removeAll(keepingCapacity: true)
        try encoder.encode(.event(event), into: &record)
        try output.write(at: event.t) { [record] in $0 += record }
      }
    }
    try output.flush()
    try target.commit()
    return .success
  }
}

/// `crease scenarios`: list the synthetic scenarios.
enum ScenariosCommand: Subcommand {
  static let description = CommandDescription(name: "scenarios", abstract: "List the synthetic scenarios.")

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let width = Scenario.allCases.map(\.rawValue.count).max() ?? 0
    for scenario in Scenario.allCases {
      let padding = String(repeating: " ", count: width - scenario.rawValue.count)
      try streams.output.write(
        "\(scenario.rawValue)\(padding)  \(scenario.summary) (\(Int(scenario.defaultDuration)) s)\n")
    }
    return .success
  }
}
