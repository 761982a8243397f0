import CJSONC
import Crease
import CreaseIO
import CreaseJSON
import CreaseSynth
import CreaseSystem

/// Reads a scenario file (`crease synth --scenario`, SPEC 6; `Schemas/scenario.schema.json`):
/// segments of built-in models with their parameters, or of hinge, camera and event tracks.
///
/// Every key is checked: an unknown one, a value of the wrong type or out of its range, or a
/// segment mixing a model with tracks is an error naming the key, its line and column.
public enum ScenarioFile {
  /// The largest scenario file read, in bytes.
  static let maximumSize = 1 << 20

  /// Reads and validates the scenario in `source`.
  public static func read(_ source: ByteSource) throws -> ScenarioDescription {
    try parse(JSONFile.readAll(source, limit: maximumSize, what: "a scenario file"), path: source.name)
  }

  /// Parses and validates scenario JSON read from `path` (for messages).
  public static func parse(_ bytes: [UInt8], path: String) throws -> ScenarioDescription {
    try JSONFile.withObject(bytes, path: path, what: "a scenario") { (root) throws(JSONValueError) in
      try scenario(root)
    }
  }

  // MARK: Scenario and segments

  private static func scenario(_ top: JSONObjectReader) throws(JSONValueError) -> ScenarioDescription {
    try top.rejectUnknownKeys(known: ["name", "summary", "duration", "segments"])
    let name = try top.string(try top.required("name"), key: "name")
    let summary = try top.optional("summary").map { v throws(JSONValueError) in
      try top.string(v, key: "summary")
    }
    let duration = try top.optional("duration").map { v throws(JSONValueError) in
      try top.bounded(v, key: "duration", Self.runLength)
    }
    let elements = try top.array(try top.required("segments"), key: "segments")
    guard !elements.isEmpty else { throw top.error("segments", "'segments' must hold at least one segment") }
    var segments: [ScenarioSegment] = []
    for (index, element) in elements.enumerated() {
      let reader = try top.element(element, of: "segments", index)
      let segment = try self.segment(reader)
      if duration == nil, segment.duration == nil {
        throw reader.error(nil, "'\(reader.path.last!)' needs a 'duration': the scenario has none")
      }
      segments.append(segment)
    }
    let scenario = ScenarioDescription(
      name: name, summary: summary ?? "", duration: duration, segments: segments)
    guard Self.runLength.contains(scenario.length) else {
      throw top.error("segments", "the segments last \(scenario.length) s in all; a run lasts at most a day")
    }
    return scenario
  }

  /// A run or a segment lasts more than nothing and at most a day.
  private static let runLength = 1e-9...86_400

  private static func segment(_ segment: JSONObjectReader) throws(JSONValueError) -> ScenarioSegment {
    let duration = try segment.optional("duration").map { v throws(JSONValueError) in
      try segment.bounded(v, key: "duration", Self.runLength)
    }
    let mark = try segment.optional("mark").map { v throws(JSONValueError) in
      try segment.string(v, key: "mark")
    }
    if let value = segment.optional("model") {
      try segment.rejectUnknownKeys(known: ["duration", "mark", "model", "parameters", "notes"])
      let model = try segment.name(
        value, key: "model", as: Scenario.init(rawValue:), allowed: Scenario.allCases.map(\.rawValue))
      var parameters = model.defaultParameters
      if let value = segment.optional("parameters") {
        try self.parameters(try segment.nested(value, key: "parameters"), into: &parameters)
      }
      if let value = segment.optional("notes") { try notes(try segment.nested(value, key: "notes")) }
      return ScenarioSegment(duration: duration, mark: mark, content: .model(model, parameters))
    }
    try segment.rejectUnknownKeys(known: ["duration", "mark", "hinge", "camera", "events"])
    let hinge = try segment.optional("hinge").map { v throws(JSONValueError) in
      try Self.hinge(try segment.nested(v, key: "hinge"))
    }
    let camera = try segment.optional("camera").map { v throws(JSONValueError) in
      try Self.camera(try segment.nested(v, key: "camera"), within: duration)
    }
    var events: [ScenarioEvent] = []
    if let value = segment.optional("events") {
      for (index, element) in try segment.array(value, key: "events").enumerated() {
        events.append(try event(try segment.element(element, of: "events", index), within: duration))
      }
    }
    guard hinge != nil || camera != nil || !events.isEmpty || mark != nil else {
      throw segment.error(nil, "a segment needs a 'model', or a 'hinge', 'camera', 'events' or 'mark'")
    }
    return ScenarioSegment(
      duration: duration, mark: mark,
      content: .tracks(ScenarioTracks(hinge: hinge, camera: camera, events: events)))
  }

  private static func parameters(_ group: JSONObjectReader, into parameters: inout ScenarioParameters)
    throws(JSONValueError)
  {
    let known = parameters.all.map(\.name)
    try group.rejectUnknownKeys(known: known)
    for parameter in parameters.all {
      guard let value = group.optional(parameter.name) else { continue }
      // A drawn parameter set to one number still takes its draw: the rest of the trace stays.
      let read: ScenarioValue =
        parameter.drawn
        ? .range(try group.value(value, key: parameter.name, parameter.unit.allowed).bounds)
        : .fixed(try group.bounded(value, key: parameter.name, parameter.unit.allowed))
      _ = parameters.set(parameter.name, to: read)
    }
  }

  /// `notes` are for people (what `scenarios --json` says each parameter does): text only.
  private static func notes(_ group: JSONObjectReader) throws(JSONValueError) {
    for key in group.keys { _ = try group.string(try group.required(key), key: key) }
  }

  // MARK: Tracks

  private static func hinge(_ hinge: JSONObjectReader) throws(JSONValueError) -> HingeTrack {
    try hinge.rejectUnknownKeys(known: ["from", "moves", "repeat", "noise", "unknownChance", "rateHz"])
    var track = HingeTrack()
    track.from = try hinge.optional("from").map { v throws(JSONValueError) in
      try hinge.value(v, key: "from", ScenarioParameter.Unit.degrees.allowed)
    }
    track.moves = try moves(hinge, "moves")
    track.repeating = try moves(hinge, "repeat")
    // A cycle of at least 10 ms: one planned movement per hinge delivery at most, not billions.
    if !track.repeating.isEmpty, track.repeating.reduce(0, { $0 + $1.shortest }) < 0.01 {
      throw hinge.error("repeat", "'\(hinge.qualified("repeat"))' must take at least 10 ms a cycle")
    }
    if let value = hinge.optional("noise") { track.noise = try hinge.bounded(value, key: "noise", 0...10) }
    if let value = hinge.optional("unknownChance") {
      track.unknownChance = try hinge.bounded(value, key: "unknownChance", 0...1)
    }
    track.rateHz = try hinge.optional("rateHz").map { v throws(JSONValueError) in
      try hinge.bounded(v, key: "rateHz", 1...1000)
    }
    return track
  }

  private static func moves(_ hinge: JSONObjectReader, _ key: String) throws(JSONValueError) -> [HingeTrack
    .Move]
  {
    guard let value = hinge.optional(key) else { return [] }
    var moves: [HingeTrack.Move] = []
    for (index, element) in try hinge.array(value, key: key).enumerated() {
      moves.append(try move(try hinge.element(element, of: key, index)))
    }
    return moves
  }

  private static let moveKinds = ["rest", "open", "close", "wobble"]

  private static func move(_ move: JSONObjectReader) throws(JSONValueError) -> HingeTrack.Move {
    let (degrees, seconds) = (ScenarioParameter.Unit.degrees.allowed, ScenarioParameter.Unit.seconds.allowed)
    let kinds = move.keys.filter { Self.moveKinds.contains($0) }
    guard kinds.count == 1, let kind = kinds.first else {
      throw move.error(nil, "a move is one of 'rest', 'open', 'close' or 'wobble'")
    }
    let value = try move.required(kind)
    if kind == "rest" {
      try move.rejectUnknownKeys(known: ["rest"])
      return .rest(try move.value(value, key: kind, seconds))
    }
    try move.rejectUnknownKeys(known: kind == "wobble" ? ["wobble", "within", "over"] : [kind, "over"])
    let over = try move.value(try move.required("over"), key: "over", seconds)
    switch kind {
    case "open": return .open(to: try move.value(value, key: kind, degrees), over: over)
    case "close": return .close(to: try move.value(value, key: kind, degrees), over: over)
    default:
      return .wobble(
        around: try move.bounded(value, key: kind, degrees),
        within: try move.bounded(try move.required("within"), key: "within", 0...90), over: over)
    }
  }

  private static func camera(_ camera: JSONObjectReader, within duration: Double?) throws(JSONValueError)
    -> CameraTrack
  {
    try camera.rejectUnknownKeys(known: ["camera", "input", "stream", "fps", "rates", "gaps", "drops"])
    var track = CameraTrack(camera: try cameraName(camera, try camera.required("camera"), key: "camera"))
    track.input = try camera.optional("input").map { v throws(JSONValueError) in
      try cameraName(camera, v, key: "input")
    }
    if let value = camera.optional("stream") {
      track.stream = StreamName(rawValue: try camera.string(value, key: "stream"))
    }
    track.fps = try camera.optional("fps").map { v throws(JSONValueError) in
      try frameRate(camera, v, key: "fps")
    }
    if let value = camera.optional("rates") {
      for (index, element) in try camera.array(value, key: "rates").enumerated() {
        let change = try camera.element(element, of: "rates", index)
        try change.rejectUnknownKeys(known: ["at", "fps"])
        track.rates.append(
          CameraTrack.RateChange(
            at: try time(change, within: duration),
            fps: try frameRate(change, try change.required("fps"), key: "fps")))
      }
    }
    if let value = camera.optional("gaps") {
      for (index, element) in try camera.array(value, key: "gaps").enumerated() {
        let gap = try camera.element(element, of: "gaps", index)
        try gap.rejectUnknownKeys(known: ["at", "for", "then"])
        track.gaps.append(
          CameraTrack.Gap(
            at: try time(gap, within: duration),
            duration: try gap.bounded(
              try gap.required("for"), key: "for", ScenarioParameter.Unit.seconds.allowed),
            then: try gap.optional("then").map { v throws(JSONValueError) in
              try cameraName(gap, v, key: "then")
            }))
      }
    }
    if let value = camera.optional("drops") {
      track.drops = try drops(try camera.nested(value, key: "drops"))
    }
    return track
  }

  private static func drops(_ drops: JSONObjectReader) throws(JSONValueError) -> CameraTrack.Drops {
    try drops.rejectUnknownKeys(known: ["chance", "reasons", "burstChance"])
    let chance = try drops.bounded(try drops.required("chance"), key: "chance", 0...1)
    let burst = try drops.optional("burstChance").map { v throws(JSONValueError) in
      try drops.bounded(v, key: "burstChance", 0...1)
    }
    let group = try drops.nested(try drops.required("reasons"), key: "reasons")
    let names = DropReason.names + ["none"]
    try group.rejectUnknownKeys(known: names)
    var reasons: [CameraTrack.Drops.Reason] = []
    for name in group.keys {
      let weight = try group.bounded(try group.required(name), key: name, 0...1e6)
      reasons.append(CameraTrack.Drops.Reason(DropReason(name: name), weight: weight))
    }
    guard reasons.contains(where: { $0.weight > 0 }) else {
      throw drops.error("reasons", "'\(drops.qualified("reasons"))' must give some reason a weight above 0")
    }
    return CameraTrack.Drops(chance: chance, reasons: reasons, burstChance: burst ?? 0)
  }

  private static func event(_ event: JSONObjectReader, within duration: Double?) throws(JSONValueError)
    -> ScenarioEvent
  {
    let kinds = EventKind.allCases.filter { $0 != .end }
    let kind = try event.name(
      try event.required("kind"), key: "kind", as: { EventKind(name: $0).flatMap { $0 == .end ? nil : $0 } },
      allowed: kinds.map(\.name))
    try event.rejectUnknownKeys(known: ["at", "kind"] + TraceParser.knownKeys(kind).sorted())
    return ScenarioEvent(at: try time(event, within: duration), try TraceParser.payload(kind, fields: event))
  }

  // MARK: Values

  /// `at`: seconds from the segment's start, within the segment when its length is known.
  private static func time(_ object: JSONObjectReader, within duration: Double?) throws(JSONValueError)
    -> Double
  {
    try object.bounded(try object.required("at"), key: "at", 0...(duration ?? 86_400))
  }

  private static func cameraName(_ object: JSONObjectReader, _ value: OpaquePointer, key: String)
    throws(JSONValueError) -> Camera
  {
    try object.name(value, key: key, as: Camera.init(name:), allowed: Camera.names)
  }

  private static func frameRate(_ object: JSONObjectReader, _ value: OpaquePointer, key: String)
    throws(JSONValueError) -> Int
  {
    let fps = try object.integer(value, key: key)
    guard (1...240).contains(fps) else {
      throw object.error(key, "'\(object.qualified(key))' must be a frame rate from 1 to 240, not \(fps)")
    }
    return Int(fps)
  }
}

extension JSONObjectReader {
  /// The reader of element `index` of the array `key` holds, which must be an object.
  fileprivate func element(_ value: OpaquePointer?, of key: String, _ index: Int) throws(JSONValueError)
    -> JSONObjectReader
  {
    let name = "\(key)[\(index)]"
    guard let value else { throw error(name, "'\(qualified(name))' must be an object, not null") }
    return try nested(value, key: name)
  }

  /// A number within `allowed`.
  fileprivate func bounded(_ value: OpaquePointer, key: String, _ allowed: ClosedRange<Double>)
    throws(JSONValueError) -> Double
  {
    let number = try number(value, key: key)
    guard allowed.contains(number) else {
      throw error(
        key,
        "'\(qualified(key))' must be from \(allowed.lowerBound.shortest) to \(allowed.upperBound.shortest), not \(number.shortest)"
      )
    }
    return number
  }

  /// A number, or a range `[low, high]` to draw from, within `allowed`.
  fileprivate func value(_ value: OpaquePointer, key: String, _ allowed: ClosedRange<Double>)
    throws(JSONValueError) -> ScenarioValue
  {
    guard json_object_get_type(value) == json_type_array else {
      return .fixed(try bounded(value, key: key, allowed))
    }
    let bounds = try array(value, key: key)
    guard bounds.count == 2, let low = bounds[0], let high = bounds[1] else {
      throw error(key, "'\(qualified(key))' must be a number or a range [low, high]")
    }
    let range = (try bounded(low, key: key, allowed), try bounded(high, key: key, allowed))
    guard range.0 <= range.1 else {
      throw error(key, "'\(qualified(key))' is a range [low, high] with low above high")
    }
    return .range(range.0...range.1)
  }
}

extension Double {
  /// The number as short as it reads back, without a needless `.0`.
  fileprivate var shortest: String {
    let text = description
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }
}
