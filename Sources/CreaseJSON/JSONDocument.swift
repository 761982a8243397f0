import CreaseRecording

/// A JSON document for Crease's own files (summaries, reports), written the same byte for byte
/// on every machine: members in the order given, two-space indentation, a newline at the end.
///
/// Arrays of scalars stay on one line so histograms and lists read compactly; objects, and
/// arrays holding objects or arrays, get a line per element.
public indirect enum JSONDocument: Hashable, Sendable {
  /// An object, its members in the order given.
  case object([Member])
  /// An array, its elements in order.
  case array([JSONDocument])
  /// An integer, written in full.
  case integer(Int64)
  /// A number written with at most 3 decimals, like every decimal in Crease's output.
  case decimal(Double)
  /// A number written in the shortest form that reads back as the same `Double`: a setting
  /// as a configuration file holds it, or a number read from a file, so it is written back
  /// unchanged.
  case exact(Double)
  /// A string, escaped as JSON requires.
  case string(String)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// One member of an object.
  public struct Member: Hashable, Sendable {
    /// The member's key.
    public var key: String
    /// The member's value.
    public var value: JSONDocument
    /// The member `key` with `value`.
    public init(_ key: String, _ value: JSONDocument) {
      self.key = key
      self.value = value
    }
  }

  /// An integer member from a count.
  public static func count(_ value: Int) -> JSONDocument { .integer(Int64(value)) }

  /// A value or `null`.
  public static func optional<T>(_ value: T?, _ transform: (T) -> JSONDocument) -> JSONDocument {
    value.map(transform) ?? .null
  }

  /// The document as UTF-8, ending with a newline.
  public var bytes: [UInt8] {
    var output: [UInt8] = []
    write(to: &output, indent: 0)
    output.append(UInt8(ascii: "\n"))
    return output
  }

  private var isScalar: Bool {
    switch self {
    case .object, .array: false
    default: true
    }
  }

  private func write(to output: inout [UInt8], indent: Int) {
    switch self {
    case .integer(let value): NumberFormatting.appendInteger(value, to: &output)
    case .decimal(let value): NumberFormatting.appendDecimal(value, to: &output)
    case .exact(let value): output.append(contentsOf: value.description.utf8)
    case .string(let value): JSONString.append(value, to: &output)
    case .bool(let value): output.append(value ? "true" : "false")
    case .null: output.append("null")
    case .array(let elements) where elements.allSatisfy(\.isScalar):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(", ") }
        element.write(to: &output, indent: indent)
      }
      output.append(UInt8(ascii: "]"))
    case .array(let elements):
      writeBlock(elements, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), to: &output, indent: indent) {
        element, output in
        element.write(to: &output, indent: indent + 1)
      }
    case .object(let members):
      writeBlock(members, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), to: &output, indent: indent) {
        member, output in
        JSONString.append(member.key, to: &output)
        output.append(": ")
        member.value.write(to: &output, indent: indent + 1)
      }
    }
  }

  private func writeBlock<Element>(
    _ elements: [Element], open: UInt8, close: UInt8, to output: inout [UInt8], indent: Int,
    _ writeElement: (Element, inout [UInt8]) -> Void
  ) {
    output.append(open)
    guard !elements.isEmpty else {
      output.append(close)
      return
    }
    for (index, element) in elements.enumerated() {
      output.append(index == 0 ? UInt8(ascii: "\n") : UInt8(ascii: ","))
      if index > 0 { output.append(UInt8(ascii: "\n")) }
      output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * (indent + 1)))
      writeElement(element, &output)
    }
    output.append(UInt8(ascii: "\n"))
    output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    output.append(close)
  }
}
