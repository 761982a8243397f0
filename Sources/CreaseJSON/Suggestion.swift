/// "Did you mean" help for a mistyped name.
public enum Suggestion {
  /// The candidate closest to `word`: a dotted path whose last part `word` is
  /// (`statusDebounceMs` for `hinge.statusDebounceMs`), else the closest by edit distance if it
  /// is close enough to be a likely typo (at most a third of the word's length, and at least 2
  /// edits).
  /// - Complexity: O(*n* · *m*²) for *n* candidates of length about *m*.
  public static func closest(to word: String, in candidates: some Collection<String>) -> String? {
    if !word.isEmpty, let path = candidates.first(where: { $0.hasSuffix("." + word) }) { return path }
    let limit = Swift.max(2, word.count / 3)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(Array(word.utf8), Array(candidate.utf8))
      if distance <= limit, best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    return best?.candidate
  }

  /// The edit distance between two byte strings, counting a swap of neighbours as one edit
  /// (optimal string alignment), since `frmae` is one slip from `frame`.
  static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = Swift.min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = Swift.min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }

  /// " Did you mean 'x'?" when a candidate is close, otherwise "".
  public static func didYouMean(_ word: String, in candidates: some Collection<String>) -> String {
    closest(to: word, in: candidates).map { " Did you mean '\($0)'?" } ?? ""
  }
}
