import CreaseRecording
import CreaseSystem

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
  /// An array of objects or arrays made one at a time as the document is written (a report's
  /// row per trace, a sweep's entry per setting), so that a long list is never held as
  /// documents all at once. Written as ``array(_:)`` writes the same elements.
  case generated(GeneratedElements)
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
    var writer = Writer(sink: nil)
    // Without a sink nothing is written out, so nothing can throw.
    try! write(to: &writer, indent: 0)
    writer.output.append(UInt8(ascii: "\n"))
    return writer.output
  }

  /// Writes ``bytes`` to `sink` a piece of about 64 KiB at a time, so that a long document is
  /// never held whole: with ``generated(_:)`` arrays, only the element being written is.
  /// - Throws: What `sink` throws.
  public func write(to sink: some ByteSink) throws {
    var writer = Writer(sink: sink)
    try write(to: &writer, indent: 0)
    writer.output.append(UInt8(ascii: "\n"))
    try sink.write(writer.output)
  }

  /// The bytes written so far and where they go once there are enough of them.
  private struct Writer {
    /// How many bytes are gathered before they go to the sink.
    static let piece = 1 << 16

    let sink: (any ByteSink)?
    var output: [UInt8] = []

    /// Hands the bytes gathered to the sink once they make a piece (asked between elements).
    mutating func passOnIfFull() throws {
      guard let sink, output.count >= Self.piece else { return }
      try sink.write(output)
      output.removeAll(keepingCapacity: true)
    }
  }

  private var isScalar: Bool {
    switch self {
    case .object, .array, .generated: false
    default: true
    }
  }

  private func write(to writer: inout Writer, indent: Int) throws {
    switch self {
    case .integer(let value): NumberFormatting.appendInteger(value, to: &writer.output)
    case .decimal(let value): NumberFormatting.appendDecimal(value, to: &writer.output)
    case .exact(let value): writer.output.append(contentsOf: value.description.utf8)
    case .string(let value): JSONString.append(value, to: &writer.output)
    case .bool(let value): writer.output.append(contentsOf: (value ? "true" : "false").utf8)
    case .null: writer.output.append(contentsOf: "null".utf8)
    case .array(let elements) where elements.allSatisfy(\.isScalar):
      writer.output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { writer.output.append(contentsOf: ", ".utf8) }
        try element.write(to: &writer, indent: indent)
      }
      writer.output.append(UInt8(ascii: "]"))
    case .array(let elements):
      try Self.writeBlock(
        elements, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), to: &writer, indent: indent
      ) {
        element, writer in
        try element.write(to: &writer, indent: indent + 1)
      }
    case .generated(let elements):
      try Self.writeBlock(
        elements, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), to: &writer, indent: indent
      ) {
        element, writer in
        assert(!element.isScalar, "a generated array holds objects or arrays: scalars would go on one line")
        try element.write(to: &writer, indent: indent + 1)
      }
    case .object(let members):
      try Self.writeBlock(
        members, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), to: &writer, indent: indent
      ) {
        member, writer in
        JSONString.append(member.key, to: &writer.output)
        writer.output.append(contentsOf: ": ".utf8)
        try member.value.write(to: &writer, indent: indent + 1)
      }
    }
  }

  /// An object's or array's elements a line each, the gathered bytes passed on between them.
  private static func writeBlock<Elements: Collection>(
    _ elements: Elements, open: UInt8, close: UInt8, to writer: inout Writer, indent: Int,
    _ writeElement: (Elements.Element, inout Writer) throws -> Void
  ) throws {
    writer.output.append(open)
    guard !elements.isEmpty else {
      writer.output.append(close)
      return
    }
    for (index, element) in elements.enumerated() {
      writer.output.append(index == 0 ? UInt8(ascii: "\n") : UInt8(ascii: ","))
      if index > 0 { writer.output.append(UInt8(ascii: "\n")) }
      writer.output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * (indent + 1)))
      try writeElement(element, &writer)
      try writer.passOnIfFull()
    }
    writer.output.append(UInt8(ascii: "\n"))
    writer.output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    writer.output.append(close)
  }
}
