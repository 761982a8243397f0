import CJSONC

/// Typed, located access to the members of one json-c object.
///
/// Every accessor either returns a valid value or throws a ``JSONValueError`` naming the key,
/// the expected type and the column of the value on the line.
package struct JSONObjectReader {
  /// A member's presence: JSON tells an absent key from an explicit `null`.
  package enum Member {
    case absent
    case null
    case value(OpaquePointer)
  }

  package let object: OpaquePointer
  /// The text the object was parsed from, lent by the caller for as long as this reader is
  /// used (the reader does not escape the call that parses the text): read only to locate a
  /// column, within its count.
  private let line: UnsafeRawBufferPointer
  /// The keys leading to `object` from the line's top level (empty at the top).
  package var path: [String] = []

  /// A reader of `object`, a value parsed from `line`, where columns are counted.
  package init(object: OpaquePointer, line: UnsafeRawBufferPointer, path: [String] = []) {
    self.object = object
    self.line = line
    self.path = path
  }

  package func member(_ key: String) -> Member {
    var value: OpaquePointer?
    // withCString lends the string's own bytes; passing the String itself would copy them to the heap.
    let found = key.withCString { json_object_object_get_ex(object, $0, &value) }
    guard found != 0 else { return .absent }
    return value.map { .value($0) } ?? .null
  }

  package func error(_ key: String?, _ message: String) -> JSONValueError {
    JSONValueError(column: column(of: key), message: message)
  }

  package func required(_ key: String) throws(JSONValueError) -> OpaquePointer {
    switch member(key) {
    case .value(let value): return value
    case .absent: throw error(nil, "missing '\(qualified(key))'")
    case .null: throw error(key, "'\(qualified(key))' must not be null")
    }
  }

  package func optional(_ key: String) -> OpaquePointer? {
    if case .value(let value) = member(key) { return value }
    return nil
  }

  /// The 1-based column of `key`'s value in the line, or of the object when `key` is `nil`.
  package func column(of key: String?) -> Int {
    JSONLocator.column(of: path + (key.map { [$0] } ?? []), in: line)
  }

  /// Whether a member name of the object at `key` holds an escaped NUL, which json-c cuts short.
  package func memberNameHoldsNUL(under key: String) -> Bool {
    JSONLocator.memberNameHoldsNUL(at: path + [key], in: line)
  }

  package func qualified(_ key: String) -> String { (path + [key]).joined(separator: ".") }

  // MARK: Typed values

  package func integer(_ value: OpaquePointer, key: String) throws(JSONValueError) -> Int64 {
    guard json_object_get_type(value) == json_type_int else {
      throw error(key, "'\(qualified(key))' must be an integer, not \(Self.typeName(value))")
    }
    let integer = json_object_get_int64(value)
    // json-c saturates integers that do not fit, so only the ends need a second look.
    guard integer == .max || integer == .min else { return integer }
    guard let exact = Int64(literal(key)) else {
      throw error(key, "'\(qualified(key))' is out of range for a 64-bit integer")
    }
    return exact
  }

  /// The number `key` holds as written on the line. json-c saturates integer literals that do
  /// not fit in 64 bits, so those (a rare path) are read back from the text.
  package func literal(_ key: String) -> String {
    let start = JSONLocator.column(of: path + [key], in: line) - 1
    var end = start
    while end < line.count, Self.numberBytes.contains(line[end]) { end += 1 }
    return String(decoding: UnsafeRawBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
  }

  private static let numberBytes = Set("-+.eE0123456789".utf8)

  package func number(_ value: OpaquePointer, key: String) throws(JSONValueError) -> Double {
    switch json_object_get_type(value) {
    case json_type_int:
      // An integer literal beyond 64 bits is still a finite number, as `1e19` is.
      let integer = json_object_get_int64(value)
      guard integer == .max || integer == .min else { return Double(integer) }
      guard let exact = Double(literal(key)), exact.isFinite else {
        throw error(key, "'\(qualified(key))' must be a finite number")
      }
      return exact
    case json_type_double:
      let number = json_object_get_double(value)
      guard number.isFinite else { throw error(key, "'\(qualified(key))' must be a finite number") }
      return number
    default:
      throw error(key, "'\(qualified(key))' must be a number, not \(Self.typeName(value))")
    }
  }

  package func string(_ value: OpaquePointer, key: String) throws(JSONValueError) -> String {
    guard json_object_get_type(value) == json_type_string else {
      throw error(key, "'\(qualified(key))' must be a string, not \(Self.typeName(value))")
    }
    // Safe because json-c keeps a string's bytes, and their length, as long as the object,
    // which outlives this call.
    let length = Int(json_object_get_string_len(value))
    let bytes = UnsafeRawBufferPointer(start: json_object_get_string(value), count: length)
    return String(decoding: bytes, as: UTF8.self)
  }

  package func bool(_ value: OpaquePointer, key: String) throws(JSONValueError) -> Bool {
    guard json_object_get_type(value) == json_type_boolean else {
      throw error(key, "'\(qualified(key))' must be true or false, not \(Self.typeName(value))")
    }
    return json_object_get_boolean(value) != 0
  }

  /// A string that must name one case of a trace enum.
  package func name<T>(
    _ value: OpaquePointer, key: String, as parse: (String) -> T?, allowed: @autoclosure () -> [String]
  ) throws(JSONValueError) -> T {
    let text = try string(value, key: key)
    if let parsed = parse(text) { return parsed }
    let names = allowed()
    let expected = names.map { "'\($0)'" }.joined(separator: ", ")
    throw error(
      key,
      "unknown \(qualified(key)) '\(text)'; expected one of \(expected).\(Suggestion.didYouMean(text, in: names))"
    )
  }

  package func nested(_ value: OpaquePointer, key: String) throws(JSONValueError) -> JSONObjectReader {
    guard json_object_get_type(value) == json_type_object else {
      throw error(key, "'\(qualified(key))' must be an object, not \(Self.typeName(value))")
    }
    return JSONObjectReader(object: value, line: line, path: path + [key])
  }

  /// The elements of the array `value` that `key` holds.
  package func array(_ value: OpaquePointer, key: String) throws(JSONValueError) -> [OpaquePointer?] {
    guard json_object_get_type(value) == json_type_array else {
      throw error(key, "'\(qualified(key))' must be an array, not \(Self.typeName(value))")
    }
    return (0..<json_object_array_length(value)).map { json_object_array_get_idx(value, $0) }
  }

  /// Refuses a member not in `known`, naming it and the closest known one.
  package func rejectUnknownKeys(known: [String]) throws(JSONValueError) {
    guard let unknown = keys.first(where: { !known.contains($0) }) else { return }
    throw error(unknown, "unknown key '\(qualified(unknown))'.\(Suggestion.didYouMean(unknown, in: known))")
  }

  /// The members' names, in line order.
  package var keys: [String] {
    var names: [String] = []
    var iterator = json_object_iter_begin(object)
    var end = json_object_iter_end(object)
    while json_object_iter_equal(&iterator, &end) == 0 {
      names.append(String(cString: json_object_iter_peek_name(&iterator)))
      json_object_iter_next(&iterator)
    }
    return names
  }

  package static func typeName(_ value: OpaquePointer?) -> String {
    switch json_object_get_type(value) {
    case json_type_null: "null"
    case json_type_boolean: "a boolean"
    case json_type_double: "a fractional number"
    case json_type_int: "an integer"
    case json_type_object: "an object"
    case json_type_array: "an array"
    case json_type_string: "a string"
    default: "an unknown JSON type"
    }
  }
}
