import Crease
import CreaseJSON
import CreaseSystem

/// What a summary or report was made by and under: the crease version and the whole
/// configuration, with a digest to tell configurations apart at a glance (SPEC 5).
///
/// Two summaries merge into one report only when their provenance is equal: latencies under
/// different debounce settings are different measurements.
public struct Provenance: Hashable, Sendable {
  /// The version `crease --version` prints and every summary records.
  public static let creaseVersion = "4.1.0"

  /// The crease version that made the file.
  public var version: String
  /// The configuration as a configuration file holds it (``ConfigurationFile/json(_:)``).
  public var configuration: JSONDocument
  /// The configuration's digest: `xxh64:` and the digest of ``configuration``'s bytes.
  public var digest: String { "xxh64:" + Self.digest(of: configuration).hexadecimal }

  /// The provenance of a replay by this build under `configuration`.
  public init(configuration: Configuration) {
    self.init(version: Self.creaseVersion, configuration: configuration)
  }

  /// The provenance of a replay by crease `version` under `configuration`.
  public init(version: String, configuration: Configuration) {
    self.version = version
    self.configuration = ConfigurationFile.json(configuration)
  }

  /// The digest's first 12 hex digits, enough to tell configurations apart in a table.
  public var shortDigest: String { String(digest.dropFirst("xxh64:".count).prefix(12)) }

  /// A provenance as people read it: `crease 2.0.0, configuration xxh64:…`; a report of failed
  /// traces alone has none.
  public static func describe(_ provenance: Provenance?) -> String {
    guard let provenance else { return "no configuration (every trace failed)" }
    // Both as a summary's file says, so escaped: a line of a report stays one line.
    return "crease \(provenance.version.escapingControlCharacters), configuration "
      + provenance.digest.escapingControlCharacters
  }

  /// The configuration itself, read back as `-c` would read it.
  public func parsedConfiguration() throws -> Configuration {
    try ConfigurationFile.parse(configuration.bytes, path: "the recorded configuration")
  }

  /// The members a summary or report starts with: `crease` (the version) and `configuration`
  /// (its digest and the configuration itself).
  package var members: [JSONDocument.Member] {
    [
      .init("crease", .object([.init("version", .string(version))])),
      .init("configuration", configurationJSON),
    ]
  }

  /// The `configuration` member: the digest, and the configuration as a file holds it.
  package var configurationJSON: JSONDocument {
    .object([.init("digest", .string(digest)), .init("file", configuration)])
  }

  private static func digest(of configuration: JSONDocument) -> ContentDigest {
    var digest = ContentDigest()
    digest.add(configuration.bytes)
    return digest
  }
}
