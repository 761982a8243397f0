/// A table of text cells with a header row, rendered for people (aligned columns), for
/// spreadsheets (CSV) or for a pull request (Markdown): `compare` and `sweep` share it.
public struct TextTable: Sendable {
  /// The column names.
  public var header: [String]
  /// The rows, each as many cells as the header.
  public var rows: [[String]]
  /// How many leading columns hold words (left-aligned); the rest hold numbers (right-aligned).
  public var wordColumns: Int

  /// A table with `header`, `rows`, and its first `wordColumns` columns left-aligned.
  public init(header: [String], rows: [[String]], wordColumns: Int = 1) {
    precondition(rows.allSatisfy { $0.count == header.count }, "a cell per column in every row")
    self.header = header
    self.rows = rows
    self.wordColumns = wordColumns
  }

  /// Aligned columns, two spaces apart, no trailing spaces.
  public var text: String {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max()! }
    return all.map { row in
      var line = row.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column < wordColumns ? cell + padding : padding + cell
      }.joined(separator: "  ")
      while line.last == " " { line.removeLast() }
      return line + "\n"
    }.joined()
  }

  /// Comma-separated values with the header first (RFC 4180 quoting).
  public var csv: String {
    ([header] + rows).map { row in
      row.map { cell in
        cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
          ? "\"" + cell.replacing("\"", with: "\"\"") + "\"" : cell
      }.joined(separator: ",")
    }.joined(separator: "\n") + "\n"
  }

  /// A Markdown table, numbers right-aligned.
  public var markdown: String {
    var lines = ["| " + header.joined(separator: " | ") + " |"]
    lines.append("|" + header.indices.map { $0 < wordColumns ? " --- |" : " ---: |" }.joined())
    for row in rows {
      lines.append("| " + row.map { $0.replacing("|", with: "\\|") }.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
