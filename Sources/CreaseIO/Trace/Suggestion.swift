/// "Did you mean" help for a mistyped name.
public enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a likely
  /// typo (at most a third of the word's length, and at least 1).
  /// - Complexity: O(*n* · *m*²) for *n* candidates of length about *m*.
  public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    let limit = Swift.max(1, word.count / 3)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(Array(word.utf8), Array(candidate.utf8))
      if distance <= limit, best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    return best?.candidate
  }

  /// The Levenshtein distance between two byte strings.
  static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...Swift.max(1, a.count) where !a.isEmpty {
      current[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return a.isEmpty ? b.count : previous[b.count]
  }

  /// " Did you mean 'x'?" when a candidate is close, otherwise "".
  public static func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String {
    closest(to: word, in: candidates).map { " Did you mean '\($0)'?" } ?? ""
  }
}
