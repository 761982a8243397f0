/// How deep a JSON text Crease reads may nest.
public enum JSONNesting {
  /// The most levels of arrays and objects in one document: 32, far more than any trace line,
  /// configuration, scenario or summary has, and few enough that a hostile document cannot
  /// exhaust the stack of a recursive reader.
  public static let maximumDepth: Int32 = 32
}
