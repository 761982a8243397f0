import Crease
import CreaseIO
import CreaseSynth

/// `crease synth`: write a synthetic trace.
enum SynthCommand: Subcommand {
  static let description = CommandDescription(
    name: "synth",
    abstract: "Write a synthetic trace; the same seed gives the same bytes.",
    discussion: """
      Models hands on a hinge (eased movements, sensor noise, a jittery delivery rate) and cameras
      (30 or 60 fps, arrival jitter, switch gaps without drop reasons, drops with reasons).
      'crease scenarios' lists the scenarios. With --speed each line is written when its trace
      time comes, for feeding other tools.
      """,
    arguments: [.init("scenario", help: "The scenario to generate (see 'crease scenarios').")],
    options: [
      .init(["--seed"], value: "n", help: "The seed (default 1)."),
      .init(["--duration"], value: "seconds", help: "Length in seconds (default: the scenario's)."),
      .init(["--fps"], value: "n", help: "Camera frame rate, 1 to 240 (default 30)."),
      .init(["--hinge-hz"], value: "n", help: "Mean hinge delivery rate, up to 1000 (default 60)."),
      TraceInputs.speedOption,
      .init(["-o", "--output"], value: "file", help: "Write to a file instead of standard output."),
    ])

  static func run(_ arguments: ParsedArguments, streams: StandardStreams) throws -> ExitCode {
    let name = arguments.positionals[0]
    guard let scenario = Scenario(rawValue: name) else {
      throw UsageError(
        "Unknown scenario '\(name)'.\(Suggestion.didYouMean(name, in: Scenario.allCases.map(\.rawValue)))")
    }
    var options = SynthOptions()
    options.seed = try arguments.value("--seed", as: "a whole number", { UInt64($0) }) ?? 1
    options.duration = try arguments.value("--duration", as: "a positive number of seconds") { text in
      Double(text).flatMap { $0 > 0 && $0 <= 86_400 ? $0 : nil }
    }
    options.fps =
      try arguments.value("--fps", as: "a frame rate from 1 to 240") {
        Int($0).flatMap { (1...240).contains($0) ? $0 : nil }
      } ?? 30
    options.hingeHz =
      try arguments.value("--hinge-hz", as: "a rate from 1 to 1000") { text in
        Double(text).flatMap { $0 >= 1 && $0 <= 1000 ? $0 : nil }
      } ?? 60
    let pacer = try TraceInputs.speed(arguments).map { Pacer(speed: $0) }
    let path = arguments.value("--output").flatMap { $0 == "-" ? nil : $0 }
    try OutputPaths.refuseOverlaps(path.map { [("--output", $0)] } ?? [], inputs: [])
    let file = try path.map { try ReplacedFile(path: $0, inPlace: pacer != nil) }
    var output = LineOutput(sink: file?.sink ?? streams.output, pacer: pacer)
    let trace = scenario.generate(options)
    try output.write(at: trace.events.first?.t ?? .zero) {
      TraceEncoder.encode(.header(trace.header), into: &$0)
    }
    for event in trace.events {
      try output.write(at: event.t) { TraceEncoder.encode(.event(event), into: &$0) }
    }
    try output.flush()
    try file?.commit()
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
