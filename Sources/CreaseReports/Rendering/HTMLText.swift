/// Text made safe for HTML and SVG: the five characters with a meaning in markup escaped, so a
/// trace named `<script>` is shown, not run, and control characters (which XML 1.0 does not
/// allow even escaped) shown as `\u0001`.
package enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` as character references, control characters spelled.
  package static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text.escapingControlCharacters {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
    return result
  }
}

extension TextTable {
  /// The table as an HTML `<table>`: the same cells as ``csv``, numbers right-aligned, and each
  /// row's class from `rowClasses` (a comparison's verdicts), when given.
  func html(id: String, rowClasses: [String]? = nil) -> String {
    func cells(_ row: [String], tag: String) -> String {
      row.enumerated().map { column, cell in
        let alignment = column < wordColumns ? "" : " class=\"number\""
        return "<\(tag)\(alignment)>\(HTMLText.escaped(cell))</\(tag)>"
      }.joined()
    }
    let body = rows.enumerated().map { index, row in
      let rowClass = rowClasses.map { " class=\"\(HTMLText.escaped($0[index]))\"" } ?? ""
      return "<tr\(rowClass)>\(cells(row, tag: "td"))</tr>"
    }.joined(separator: "\n")
    return
      "<table id=\"\(id)\">\n<thead><tr>\(cells(header, tag: "th"))</tr></thead>\n<tbody>\n\(body)\n</tbody>\n</table>\n"
  }
}
