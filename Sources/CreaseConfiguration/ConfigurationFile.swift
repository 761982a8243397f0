import CJSONC
import Crease
import CreaseJSON
import CreaseSystem

/// Reads a configuration file: JSON with the groups `hinge` and `camera` and a top-level
/// `reorderWindowMs`, durations in milliseconds and angles in degrees (SPEC 6).
///
/// Missing keys keep their defaults; unknown keys are errors that name them, so a typo never
/// silently leaves a default in force.
public enum ConfigurationFile {
  /// A configuration file that cannot be used: where, which key, and why (its own type, so a
  /// bad configuration exits 78 where another bad file exits 65).
  public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in the file, and what is wrong.
    public var file: JSONFile.Error
    /// The file's position and message, as the command prints them.
    public var description: String { file.description }
  }

  /// The largest configuration file read, in bytes.
  static let maximumSize = 1 << 20

  /// Reads and validates the configuration in `source`.
  public static func read(_ source: ByteSource) throws -> Configuration {
    do {
      return try parse(
        JSONFile.readAll(source, limit: maximumSize, what: "a configuration file"), path: source.name)
    } catch let error as JSONFile.Error {
      throw Error(file: error)
    }
  }

  /// Parses and validates configuration JSON, its keys set over `base` (the defaults unless
  /// told): a sweep's settings over a base configuration.
  public static func parse(_ bytes: [UInt8], path: String, over base: Configuration = Configuration()) throws
    -> Configuration
  {
    let configuration: Configuration
    do {
      configuration = try JSONFile.withObject(bytes, path: path, what: "a configuration") {
        (root) throws(JSONValueError) in try self.configuration(root, over: base)
      }
    } catch let error as JSONFile.Error {
      throw Error(file: error)
    }
    do {
      try configuration.validate()
    } catch {
      throw Error(file: JSONFile.Error(path: path, message: "\(error.key): \(error.reason)"))
    }
    return configuration
  }

  // MARK: Keys

  /// Every key a configuration file may hold, by its dotted path, with what it sets and its
  /// default: the manual page lists them, and each group's check for unknown keys takes its
  /// names from here, so the two cannot differ.
  public static let keys: [(path: String, meaning: String)] = [
    (
      "reorderWindowMs",
      "How far behind its trace's latest event an event may come and still be put in order (50)."
    ),
    (
      "reorderBufferLimit",
      "The most events held for reordering; past it the earliest is processed at once (100000)."
    ),
    ("reorderBufferBytes", "The most bytes of text (labels, names) the held events may carry (67108864)."),
    ("hinge.statusDebounceMs", "How long a new hinge status must hold before it commits (50)."),
    (
      "hinge.statusMaxWaitMs",
      "The longest a changing status waits to commit; 0 for a pure trailing debounce (150)."
    ),
    (
      "hinge.boundaries",
      "Hysteresis boundaries, a list of {name, below, above} in degrees (flat: 135 to 145)."
    ),
    ("hinge.motionDeadbandDeg", "How far the angle must move to start or reverse a motion (7.5)."),
    ("hinge.fullyOpenZoneDeg", "Within this of 180 degrees the hinge counts as fully open (15)."),
    ("hinge.settleMs", "How long the angle must stay within the tolerance to settle (300)."),
    ("hinge.settleToleranceDeg", "How far the angle may drift while settling (1.0)."),
    ("hinge.progressFullDeg", "The angle at which effect progress reaches 1 (165)."),
    ("hinge.progressMaxRateHz", "The most progress cues a second (60)."),
    ("camera.gapFactor", "A pts delta over this many nominal frame durations is a gap (1.5)."),
    ("camera.switchWindowMs", "How far before a gap a switch trigger still explains it (250)."),
    ("camera.stallFactor", "No frame for this many nominal durations is a stall (3)."),
    ("camera.maskMaxMs", "The longest the preview stays masked around a switch (500)."),
  ]

  /// The keys of one group (`""` for the top level), its nested groups included.
  private static func keys(in group: String) -> [String] {
    let prefix = group.isEmpty ? "" : group + "."
    let names = keys.map(\.path).filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    return Array(Set(names.map { $0.split(separator: ".")[0] }.map(String.init))).sorted()
  }

  private static func configuration(_ top: JSONObjectReader, over base: Configuration) throws(JSONValueError)
    -> Configuration
  {
    var configuration = base
    try top.rejectUnknownKeys(known: keys(in: ""))
    try duration(top, "reorderWindowMs", &configuration.reorderWindow)
    try count(top, "reorderBufferLimit", &configuration.reorderBufferLimit)
    try count(top, "reorderBufferBytes", &configuration.reorderBufferBytes)
    if let value = top.optional("hinge") {
      let hinge = try top.nested(value, key: "hinge")
      try hinge.rejectUnknownKeys(known: keys(in: "hinge"))
      try duration(hinge, "statusDebounceMs", &configuration.hinge.statusDebounce)
      try duration(hinge, "statusMaxWaitMs", &configuration.hinge.statusMaxWait)
      try duration(hinge, "settleMs", &configuration.hinge.settle)
      try number(hinge, "motionDeadbandDeg", &configuration.hinge.motionDeadbandDegrees)
      try number(hinge, "fullyOpenZoneDeg", &configuration.hinge.fullyOpenZoneDegrees)
      try number(hinge, "settleToleranceDeg", &configuration.hinge.settleToleranceDegrees)
      try number(hinge, "progressFullDeg", &configuration.hinge.progressFullDegrees)
      try number(hinge, "progressMaxRateHz", &configuration.hinge.progressMaxRateHz)
      if let list = hinge.optional("boundaries") {
        configuration.hinge.boundaries = try boundaries(hinge, list)
      }
    }
    if let value = top.optional("camera") {
      let camera = try top.nested(value, key: "camera")
      try camera.rejectUnknownKeys(known: keys(in: "camera"))
      try number(camera, "gapFactor", &configuration.camera.gapFactor)
      try duration(camera, "switchWindowMs", &configuration.camera.switchWindow)
      try number(camera, "stallFactor", &configuration.camera.stallFactor)
      try duration(camera, "maskMaxMs", &configuration.camera.maskMax)
    }
    return configuration
  }

  private static func number(_ group: JSONObjectReader, _ key: String, _ target: inout Double)
    throws(JSONValueError)
  {
    guard let value = group.optional(key) else { return }
    target = try group.number(value, key: key)
  }

  /// A whole count (an integer that fits `Int`).
  private static func count(_ group: JSONObjectReader, _ key: String, _ target: inout Int)
    throws(JSONValueError)
  {
    guard let value = group.optional(key) else { return }
    target = Int(try group.integer(value, key: key))
  }

  /// A duration in milliseconds (fractions allowed), stored as whole nanoseconds.
  private static func duration(
    _ group: JSONObjectReader, _ key: String, _ target: inout Nanoseconds
  ) throws(JSONValueError) {
    guard let value = group.optional(key) else { return }
    let nanoseconds = (try group.number(value, key: key) * 1_000_000).rounded()
    guard let whole = Int64(exactly: nanoseconds) else {
      throw group.error(key, "'\(group.qualified(key))' is out of range")
    }
    target = Nanoseconds(whole)
  }

  private static func boundaries(_ hinge: JSONObjectReader, _ list: OpaquePointer) throws(JSONValueError)
    -> [Boundary]
  {
    guard json_object_get_type(list) == json_type_array else {
      throw hinge.error(
        "boundaries", "'hinge.boundaries' must be an array, not \(JSONObjectReader.typeName(list))")
    }
    var result: [Boundary] = []
    for index in 0..<json_object_array_length(list) {
      let key = "boundaries[\(index)]"
      guard let element = json_object_array_get_idx(list, index) else {
        throw hinge.error("boundaries", "'hinge.\(key)' must be an object, not null")
      }
      let boundary = try hinge.nested(element, key: key)
      try boundary.rejectUnknownKeys(known: ["name", "below", "above"])
      result.append(
        Boundary(
          name: BoundaryName(rawValue: try boundary.string(try boundary.required("name"), key: "name")),
          below: try boundary.number(try boundary.required("below"), key: "below"),
          above: try boundary.number(try boundary.required("above"), key: "above")))
    }
    return result
  }
}
