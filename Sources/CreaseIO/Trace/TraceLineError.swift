/// Why one line of a trace is bad input, and where on the line.
public struct TraceLineError: Error, Hashable, Sendable {
  /// The 1-based byte column the problem starts at.
  public var column: Int
  /// What is wrong, in words a person can act on.
  public var message: String

  /// An error at the 1-based `column`.
  public init(column: Int, message: String) {
    self.column = column
    self.message = message
  }
}

/// A key the trace format does not define: ignored by `replay`, listed by `check`.
public struct UnknownKey: Hashable, Sendable {
  /// The key as spelled.
  public var name: String
  /// The 1-based byte column of the key's value.
  public var column: Int

  /// The key `name` at the 1-based `column`.
  public init(name: String, column: Int) {
    self.name = name
    self.column = column
  }
}
