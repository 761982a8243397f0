import Crease
import CreaseJSON
import CreaseSystem

extension Provenance {
  /// One configuration value that differs between two runs, by its dotted path.
  public struct ConfigurationChange: Hashable, Sendable, CustomStringConvertible {
    /// The key's dotted path, as `hinge.statusDebounceMs`.
    public var key: String
    /// The value in the base run, as its file writes it; `nil` where it has no such key.
    public var base: String?
    /// The value in the new run; `nil` where it has no such key.
    public var new: String?

    /// `hinge.statusDebounceMs 50 → 80`, a missing side as `-`.
    public var description: String { "\(key) \(base ?? "-") → \(new ?? "-")" }
  }

  /// The configuration values that differ from `base` to `new`, key by key, in the base's
  /// order and then the new run's keys the base lacks; a list (the boundaries) is one value.
  /// Empty when either run has no provenance (every trace failed).
  /// - Complexity: O(*k*) in the keys of both configurations.
  public static func configurationChanges(from base: Provenance?, to new: Provenance?)
    -> [ConfigurationChange]
  {
    guard let base, let new else { return [] }
    let (before, after) = (leaves(of: base.configuration), leaves(of: new.configuration))
    let newValues = Dictionary(after, uniquingKeysWith: { first, _ in first })
    let baseKeys = Set(before.map(\.key))
    return before.compactMap { key, value in
      newValues[key] == value ? nil : ConfigurationChange(key: key, base: value, new: newValues[key])
    }
      + after.filter { !baseKeys.contains($0.key) }.map {
        ConfigurationChange(key: $0.key, base: nil, new: $0.value)
      }
  }

  /// Every value of `document` that is not an object, by its dotted path, in order.
  private static func leaves(of document: JSONDocument, under path: String = "") -> [(
    key: String, value: String
  )] {
    guard case .object(let members) = document else {
      // On one line: a list written over several is joined, its indentation dropped.
      let lines = String(decoding: document.bytes, as: UTF8.self).split(separator: "\n")
      return [(path, lines.map { $0.drop { $0 == " " } }.joined(separator: " "))]
    }
    return members.flatMap { member in
      leaves(of: member.value, under: path.isEmpty ? member.key : "\(path).\(member.key)")
    }
  }
}
