import Crease
import CreaseIO
import CreaseJSON
import CreaseRecording
import CreaseSynth

extension ScenarioFile {
  /// `scenario` as a scenario file holds it: what `crease scenarios --json` writes, and what
  /// `synth --scenario` reads back to the same scenario. A model's segment lists every
  /// parameter, and beside them `notes` saying what each one does.
  public static func json(_ scenario: ScenarioDescription) -> JSONDocument {
    var members: [JSONDocument.Member] = [.init("name", .string(scenario.name))]
    if !scenario.summary.isEmpty { members.append(.init("summary", .string(scenario.summary))) }
    if let duration = scenario.duration { members.append(.init("duration", .exact(duration))) }
    members.append(.init("segments", .array(scenario.segments.map(segment))))
    return .object(members)
  }

  private static func segment(_ segment: ScenarioSegment) -> JSONDocument {
    var members: [JSONDocument.Member] = []
    if let duration = segment.duration { members.append(.init("duration", .exact(duration))) }
    if let mark = segment.mark { members.append(.init("mark", .string(mark))) }
    switch segment.content {
    case .model(let model, let parameters):
      members.append(.init("model", .string(model.rawValue)))
      members.append(.init("parameters", .object(parameters.all.map { .init($0.name, value($0.value)) })))
      members.append(
        .init(
          "notes",
          .object(parameters.all.map { .init($0.name, .string("\($0.unit.label): \($0.meaning)")) })))
    case .tracks(let tracks):
      if let hinge = tracks.hinge { members.append(.init("hinge", self.hinge(hinge))) }
      if let camera = tracks.camera { members.append(.init("camera", self.camera(camera))) }
      if !tracks.events.isEmpty { members.append(.init("events", .array(tracks.events.map(event)))) }
    }
    return .object(members)
  }

  private static func hinge(_ hinge: HingeTrack) -> JSONDocument {
    var members: [JSONDocument.Member] = []
    if let from = hinge.from { members.append(.init("from", value(from))) }
    if !hinge.moves.isEmpty { members.append(.init("moves", .array(hinge.moves.map(move)))) }
    if !hinge.repeating.isEmpty { members.append(.init("repeat", .array(hinge.repeating.map(move)))) }
    members.append(.init("noise", .exact(hinge.noise)))
    members.append(.init("unknownChance", .exact(hinge.unknownChance)))
    if let rate = hinge.rateHz { members.append(.init("rateHz", .exact(rate))) }
    return .object(members)
  }

  private static func move(_ move: HingeTrack.Move) -> JSONDocument {
    switch move {
    case .rest(let seconds): .object([.init("rest", value(seconds))])
    case .open(let angle, let seconds): .object([.init("open", value(angle)), .init("over", value(seconds))])
    case .close(let angle, let seconds):
      .object([.init("close", value(angle)), .init("over", value(seconds))])
    case .wobble(let around, let within, let seconds):
      .object([
        .init("wobble", .exact(around)), .init("within", .exact(within)), .init("over", value(seconds)),
      ])
    }
  }

  private static func camera(_ camera: CameraTrack) -> JSONDocument {
    var members: [JSONDocument.Member] = [.init("camera", .string(camera.camera.name))]
    if let input = camera.input { members.append(.init("input", .string(input.name))) }
    members.append(.init("stream", .string(camera.stream.rawValue)))
    if let fps = camera.fps { members.append(.init("fps", .count(fps))) }
    if !camera.rates.isEmpty {
      members.append(
        .init(
          "rates",
          .array(camera.rates.map { .object([.init("at", .exact($0.at)), .init("fps", .count($0.fps))]) })))
    }
    if !camera.gaps.isEmpty {
      members.append(
        .init(
          "gaps",
          .array(
            camera.gaps.map { gap in
              .object(
                [.init("at", .exact(gap.at)), .init("for", .exact(gap.duration))]
                  + (gap.then.map { [.init("then", .string($0.name))] } ?? []))
            })))
    }
    if let drops = camera.drops {
      members.append(
        .init(
          "drops",
          .object([
            .init("chance", .exact(drops.chance)),
            .init(
              "reasons", .object(drops.reasons.map { .init($0.reason?.name ?? "none", .exact($0.weight)) })),
            .init("burstChance", .exact(drops.burstChance)),
          ])))
    }
    return .object(members)
  }

  /// The event as its trace line spells it (one encoder for both), with `at` for `t`.
  private static func event(_ event: ScenarioEvent) -> JSONDocument {
    var line: [UInt8] = []
    TraceEncoder.encode(.event(Event(t: .zero, event.payload)), into: &line)
    guard case .object(let fields) = try? JSONDocument.parse(line, path: "") else {
      preconditionFailure("the trace encoder writes a JSON object")
    }
    return .object([.init("at", .exact(event.at))] + fields.filter { $0.key != "t" })
  }

  private static func value(_ value: ScenarioValue) -> JSONDocument {
    switch value {
    case .fixed(let number): .exact(number)
    case .range(let range): .array([.exact(range.lowerBound), .exact(range.upperBound)])
    }
  }
}
