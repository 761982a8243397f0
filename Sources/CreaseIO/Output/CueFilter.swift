import Crease

/// Which cue kinds an output writes (`crease replay --cues`, `--except`): every format writes
/// the same kinds, and the summary counts every cue all the same.
///
/// A pattern is a cue kind's name, `*` standing for any run of characters (`hinge.*`,
/// `camera.*`, `*.status`); a list is comma-separated.
public struct CueFilter: Hashable, Sendable {
  /// A bit per ``CueKind/Tag/rawValue`` written.
  private var kinds: UInt64

  /// Every kind written.
  public static let everything = CueFilter(kinds: ~0)

  private init(kinds: UInt64) { self.kinds = kinds }

  /// A pattern that names no cue kind: a typo the user should hear of, not an empty output.
  public struct UnmatchedPattern: Error, Hashable, Sendable {
    /// The pattern as given.
    public var pattern: String
  }

  /// The kinds `including` names (every kind when `nil`) less those `excluding` names.
  /// - Throws: ``UnmatchedPattern`` for a pattern that names no kind.
  /// - Complexity: O(*p* × *k*) in the patterns and the kinds.
  public init(including: [String]? = nil, excluding: [String] = []) throws(UnmatchedPattern) {
    kinds =
      try including.map { patterns throws(UnmatchedPattern) in try Self.kinds(matching: patterns) } ?? ~0
    kinds &= ~(try Self.kinds(matching: excluding))
  }

  /// Whether cues of kind `tag` are written.
  /// - Complexity: O(1).
  @inline(__always)
  public func writes(_ tag: CueKind.Tag) -> Bool { kinds & (1 << UInt64(tag.rawValue)) != 0 }

  /// The kinds written, in declaration order.
  public var writtenKinds: [CueKind.Tag] { CueKind.Tag.allCases.filter(writes) }

  private static func kinds(matching patterns: [String]) throws(UnmatchedPattern) -> UInt64 {
    var kinds: UInt64 = 0
    for pattern in patterns {
      let matched = CueKind.Tag.allCases.filter { matches($0.name, pattern) }
      guard !matched.isEmpty else { throw UnmatchedPattern(pattern: pattern) }
      for tag in matched { kinds |= 1 << UInt64(tag.rawValue) }
    }
    return kinds
  }

  /// Whether `name` matches `pattern`, whose `*` stands for any run of characters.
  static func matches(_ name: String, _ pattern: String) -> Bool {
    let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
    guard parts.count > 1 else { return name == pattern }
    var rest = Substring(name)
    guard rest.hasPrefix(parts[0]) else { return false }
    rest = rest.dropFirst(parts[0].count)
    for part in parts.dropFirst().dropLast() {
      guard let found = rest.firstRange(of: part) else { return false }
      rest = rest[found.upperBound...]
    }
    return rest.hasSuffix(parts[parts.count - 1])
  }
}
