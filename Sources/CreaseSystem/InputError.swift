/// Input that cannot be used (a JSON file, a timestamp list, a movie), where, and why: the file,
/// and the line and column when the problem has a place in it.
public struct InputError: Swift.Error, Hashable, Sendable, CustomStringConvertible {
  /// The file.
  public var path: String
  /// 1-based line and column, when the problem has a place in the file.
  public var line: Int?
  /// The 1-based column, when known.
  public var column: Int?
  /// What is wrong.
  public var message: String

  /// An error in `path`, at `line` and `column` when known.
  public init(path: String, line: Int? = nil, column: Int? = nil, message: String) {
    self.path = path
    self.line = line
    self.column = column
    self.message = message
  }

  /// The error at byte `offset` of `text`, with its line and column.
  package init(path: String, text: UnsafeRawBufferPointer, offset: Int, message: String) {
    let before = text[..<Swift.min(Swift.max(offset, 0), text.count)]
    let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    self.init(
      path: path, line: before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }, column: before.count - lineStart + 1,
      message: message)
  }

  /// `PATH:LINE:COL: MESSAGE`, as the command prints it.
  public var description: String {
    let (path, message) = (path.escapingControlCharacters, message.escapingControlCharacters)
    if let line, let column { return "\(path):\(line):\(column): error: \(message)" }
    return "\(path): error: \(message)"
  }
}
