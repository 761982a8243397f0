import Crease

extension FleetComparison {
  /// The table every line format shares: a header, then per cue kind its verdict, each count and
  /// latency (ms, three decimals) of the base and the new run, and their change (%).
  public var table: [[String]] {
    var header = ["cue", "verdict", "base count", "new count", "count change %"]
    for name in Self.latencyNames { header += ["base \(name) ms", "new \(name) ms", "\(name) change %"] }
    return [header]
      + rows.map { row in
        var cells = [row.name, row.verdict.rawValue]
        cells += Self.cells(row.base.map { Double($0.count) }, row.new.map { Double($0.count) }, decimals: 0)
        for index in Self.latencyNames.indices {
          cells += Self.cells(
            row.base.map { Double($0.latencies[index].rawValue) / 1e6 },
            row.new.map { Double($0.latencies[index].rawValue) / 1e6 }, decimals: 3)
        }
        return cells
      }
  }

  private static func cells(_ base: Double?, _ new: Double?, decimals: Int) -> [String] {
    let change = base.flatMap { base in new.map { Self.change(base, $0) } }
    return [
      base.map { fixed($0, decimals) } ?? "-", new.map { fixed($0, decimals) } ?? "-",
      change.map { $0.isFinite ? (($0 >= 0 ? "+" : "") + fixed($0 * 100, 1)) : "new" } ?? "-",
    ]
  }

  /// `value` with `decimals` decimals, rounded half away from zero.
  private static func fixed(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded(.toNearestOrAwayFromZero))
    let whole = String(scaled / Int64(scale))
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return sign + whole }
    let fraction = String(scaled % Int64(scale))
    return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
  }

  /// Aligned columns for people, with the verdict line last.
  public var text: String {
    let table = self.table
    let widths = table[0].indices.map { column in table.map { $0[column].count }.max()! }
    var text = ""
    for row in table {
      let cells = row.enumerated().map { column, cell in
        column < 2 ? cell.padding(toLength: widths[column]) : cell.padded(toLength: widths[column])
      }
      text += cells.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
    }
    let regressions = rows.filter { $0.verdict == .regressed || $0.verdict == .added }.map(\.name)
    let percent = Self.fixed(threshold * 100, 1)
    text +=
      regressions.isEmpty
      ? "compare: no cue kind regressed past \(percent) %\n"
      : "compare: REGRESSED past \(percent) %: \(regressions.joined(separator: ", "))\n"
    return text
  }

  /// Comma-separated values with a header row, for spreadsheets (RFC 4180 quoting).
  public var csv: String {
    table.map { row in
      row.map { cell in
        cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
          ? "\"" + cell.replacing("\"", with: "\"\"") + "\"" : cell
      }.joined(separator: ",")
    }.joined(separator: "\n") + "\n"
  }

  /// A Markdown table, for a pull request or a wiki.
  public var markdown: String {
    let table = self.table
    var lines = ["| " + table[0].joined(separator: " | ") + " |"]
    lines.append("|" + table[0].indices.map { $0 < 2 ? " --- |" : " ---: |" }.joined())
    for row in table.dropFirst() {
      lines.append("| " + row.map { $0.replacing("|", with: "\\|") }.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The comparison as JSON: the threshold, whether anything regressed, and per cue kind the
  /// verdict and each run's count and latencies in nanoseconds.
  public var json: JSONDocument {
    func figures(_ figures: Figures?) -> JSONDocument {
      .optional(figures) { figures in
        .object(
          [.init("count", .count(figures.count))]
            + zip(Self.latencyNames, figures.latencies).map { .init("\($0)Ns", .integer($1.rawValue)) })
      }
    }
    return .object([
      .init("threshold", .decimal(threshold)),
      .init("regressed", .bool(regressed)),
      .init(
        "cues",
        .array(
          rows.map { row in
            .object([
              .init("cue", .string(row.name)), .init("verdict", .string(row.verdict.rawValue)),
              .init("base", figures(row.base)), .init("new", figures(row.new)),
            ])
          })),
    ])
  }
}

extension String {
  /// Left-aligned in `width` columns.
  fileprivate func padding(toLength width: Int) -> String {
    self + String(repeating: " ", count: Swift.max(0, width - count))
  }

  /// Right-aligned in `width` columns.
  fileprivate func padded(toLength width: Int) -> String {
    String(repeating: " ", count: Swift.max(0, width - count)) + self
  }

  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
