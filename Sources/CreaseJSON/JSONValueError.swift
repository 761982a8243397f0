/// Why a value in a JSON text is not what its reader wants, and where it starts.
///
/// The readers of typed documents (a trace line, a configuration, a scenario) throw it as they
/// walk a document; each turns it into the error of its own job, with the file and line.
public struct JSONValueError: Error, Hashable, Sendable {
  /// The 1-based byte column of the value in the text, or of the object missing a key.
  public var column: Int
  /// What is wrong, in words a person can act on.
  public var message: String

  /// An error at the 1-based `column`.
  public init(column: Int, message: String) {
    self.column = column
    self.message = message
  }
}
