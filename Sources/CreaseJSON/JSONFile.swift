import CJSONC
import Crease
import CreaseSystem

/// A whole JSON file read and parsed with json-c (strict, UTF-8 checked), for the files Crease
/// reads besides traces: configurations, summaries and reports.
public enum JSONFile {
  /// A JSON file that cannot be used: where, and why (any input's located error).
  public typealias Error = InputError

  /// Reads all of `source`, refusing more than `limit` bytes with `what` it should have been.
  public static func readAll(_ source: ByteSource, limit: Int, what: String) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = try source.read(into: &chunk, 0..<chunk.count)
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[..<count])
      guard bytes.count <= limit else {
        throw Error(path: source.name, message: "larger than \(limit) bytes; is this \(what)?")
      }
    }
  }

  /// Parses `text` and hands the root value to `body`, which must not keep it.
  package static func withRoot<T>(
    _ text: UnsafeRawBufferPointer, path: String, _ body: (OpaquePointer) throws -> T
  ) throws -> T {
    let tokener = json_tokener_new_ex(JSONNesting.maximumDepth)!
    defer { json_tokener_free(tokener) }
    json_tokener_set_flags(tokener, Int32(JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8))
    // Safe because json-c reads at most `text.count` bytes of the lent text and keeps no pointer
    // into it; an empty text's dangling base is never read. A text over 2 GiB is cut, never
    // overrun, by the clamped count.
    let base = text.baseAddress?.assumingMemoryBound(to: CChar.self) ?? UnsafePointer(bitPattern: 1)!
    guard let root = json_tokener_parse_ex(tokener, base, Int32(clamping: text.count)) else {
      let reason = String(cString: json_tokener_error_desc(json_tokener_get_error(tokener)))
      throw Error(
        path: path, text: text, offset: json_tokener_get_parse_end(tokener),
        message: "invalid JSON: \(reason)")
    }
    defer { json_object_put(root) }
    if let offset = UTF8Check.firstInvalidOffset(in: text) {
      throw Error(path: path, text: text, offset: offset, message: "invalid JSON: invalid utf-8 string")
    }
    return try body(root)
  }
}

extension JSONFile {
  /// Parses `bytes`, read from `path`, and hands its root object to `body` as a typed member
  /// reader; a root that is not an object is an error saying `what` the file should be ("a
  /// configuration"), and `body`'s own errors come back located in the file.
  package static func withObject<T>(
    _ bytes: [UInt8], path: String, what: String, _ body: (JSONObjectReader) throws(JSONValueError) -> T
  ) throws -> T {
    // Safe because the reader, which points into `text`, lives only in this call: `body` is
    // not escaping and gets the reader for its length.
    try bytes.withUnsafeBytes { text in
      try withRoot(text, path: path) { root in
        do throws(JSONValueError) {
          guard json_object_get_type(root) == json_type_object else {
            throw JSONValueError(column: 1, message: "\(what) must be a JSON object")
          }
          return try body(JSONObjectReader(object: root, line: text))
        } catch {
          throw Error(path: path, text: text, offset: error.column - 1, message: error.message)
        }
      }
    }
  }
}

extension JSONDocument {
  /// The document in `bytes`, read from `path` (for messages).
  public static func parse(_ bytes: [UInt8], path: String) throws -> JSONDocument {
    try bytes.withUnsafeBytes { text in try JSONFile.withRoot(text, path: path) { document($0) } }
  }

  /// A json-c value as a document; members keep the file's order.
  private static func document(_ value: OpaquePointer?) -> JSONDocument {
    switch json_object_get_type(value) {
    case json_type_boolean: return .bool(json_object_get_boolean(value) != 0)
    case json_type_int: return .integer(json_object_get_int64(value))
    case json_type_double: return .decimal(json_object_get_double(value))
    case json_type_string:
      // Safe because json-c keeps a string's bytes and length as long as the object.
      let length = Int(json_object_get_string_len(value))
      return .string(
        String(
          decoding: UnsafeRawBufferPointer(start: json_object_get_string(value), count: length), as: UTF8.self
        ))
    case json_type_array:
      return .array(
        (0..<json_object_array_length(value)).map { document(json_object_array_get_idx(value, $0)) })
    case json_type_object:
      var members: [Member] = []
      var iterator = json_object_iter_begin(value)
      var end = json_object_iter_end(value)
      while json_object_iter_equal(&iterator, &end) == 0 {
        members.append(
          Member(
            String(cString: json_object_iter_peek_name(&iterator)),
            document(json_object_iter_peek_value(&iterator))))
        json_object_iter_next(&iterator)
      }
      return .object(members)
    default: return .null
    }
  }
}
