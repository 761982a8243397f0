/// A table of text cells with a header row, rendered for people (aligned columns), for
/// spreadsheets (CSV) or for a pull request (Markdown): `compare` and `sweep` share it.
///
/// A cell's text may come from a summary anyone could have written (a trace's name), so each
/// rendering escapes it for its format: control characters are shown as escapes (`\n`,
/// `\u001B`) in aligned text and Markdown, where they would end a row or drive a terminal; a
/// word cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage
/// return first) is quoted with a leading `'` in CSV, as OWASP advises.
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
    let all = ([header] + rows).map { $0.map(\.escapingControlCharacters) }
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

  /// Comma-separated values with the header first (RFC 4180 quoting), word cells that would
  /// start a formula neutralised.
  public var csv: String {
    ([header] + rows).map { row in
      row.enumerated().map { column, cell in
        let formula = column < wordColumns && cell.first.map { "=+-@\t\r".contains($0) } == true
        let text = formula ? "'" + cell : cell
        return formula || text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
          ? "\"" + text.replacing("\"", with: "\"\"") + "\"" : text
      }.joined(separator: ",")
    }.joined(separator: "\n") + "\n"
  }

  /// A Markdown table, numbers right-aligned.
  public var markdown: String {
    var lines = ["| " + header.joined(separator: " | ") + " |"]
    lines.append("|" + header.indices.map { $0 < wordColumns ? " --- |" : " ---: |" }.joined())
    for row in rows {
      lines.append(
        "| " + row.map { $0.escapingControlCharacters.replacing("|", with: "\\|") }.joined(separator: " | ")
          + " |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
