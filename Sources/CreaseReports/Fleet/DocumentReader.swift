import Crease
import CreaseIO

/// Typed, located access to a parsed JSON file: every accessor returns a value of the type
/// asked for or throws a ``JSONFile/Error`` naming the file and the member's path.
struct DocumentReader {
  let document: JSONDocument
  let file: String
  /// The members leading here, as `cues[2].histogram`.
  let path: String

  init(_ document: JSONDocument, file: String, path: String = "") {
    self.document = document
    self.file = file
    self.path = path
  }

  func error(_ message: String) -> JSONFile.Error { JSONFile.Error(path: file, message: message) }

  /// The member `key`, which must be present.
  func member(_ key: String) throws -> DocumentReader {
    let qualified = path.isEmpty ? key : "\(path).\(key)"
    guard case .object(let members) = document else { throw error("'\(path)' must be an object") }
    guard let member = members.first(where: { $0.key == key }) else { throw error("missing '\(qualified)'") }
    return DocumentReader(member.value, file: file, path: qualified)
  }

  /// Whether the object has `key`.
  func has(_ key: String) -> Bool {
    if case .object(let members) = document { return members.contains { $0.key == key } }
    return false
  }

  var isNull: Bool { document == .null }

  func integer(atLeast minimum: Int = 0) throws -> Int {
    guard case .integer(let value) = document, value >= minimum, let whole = Int(exactly: value) else {
      throw error("'\(path)' must be an integer, \(minimum) or more")
    }
    return whole
  }

  func string() throws -> String {
    guard case .string(let value) = document else { throw error("'\(path)' must be a string") }
    return value
  }

  func elements() throws -> [DocumentReader] {
    guard case .array(let elements) = document else { throw error("'\(path)' must be an array") }
    return elements.enumerated().map { DocumentReader($1, file: file, path: "\(path)[\($0)]") }
  }

  func integer(_ key: String, atLeast minimum: Int = 0) throws -> Int {
    try member(key).integer(atLeast: minimum)
  }

  func string(_ key: String) throws -> String { try member(key).string() }

  /// A latency histogram from `[bucket, count, largest]` triples.
  ///
  /// Read straight from the document when it is well formed, the usual case: a reader for each
  /// triple and each number spelled out its path, which made reading a report's summaries the
  /// part of `crease batch` no second core could share (about 6,000 instructions a triple).
  /// Anything else is read again by ``checkedHistogram()``, which names what is wrong.
  func histogram() throws -> LatencyHistogram {
    guard case .array(let triples) = document else { return try checkedHistogram() }
    var histogram = LatencyHistogram()
    for triple in triples {
      guard case .array(let values) = triple, values.count == 3,
        case .integer(let bucket) = values[0], bucket >= 0, bucket < LatencyHistogram.bucketCount,
        case .integer(let count) = values[1], count >= 1, let count = Int(exactly: count),
        case .integer(let largest) = values[2], largest >= 0, LatencyHistogram.bucket(of: largest) == bucket
      else { return try checkedHistogram() }
      histogram.add(
        LatencyHistogram.Bucket(count: count, maximum: Nanoseconds(largest)), toBucket: Int(bucket))
    }
    return histogram
  }

  /// ``histogram()`` member by member, throwing where the file is wrong.
  private func checkedHistogram() throws -> LatencyHistogram {
    var histogram = LatencyHistogram()
    for triple in try elements() {
      let values = try triple.elements()
      guard values.count == 3 else { throw triple.error("'\(triple.path)' must be [bucket, count, largest]") }
      let bucket = try values[0].integer()
      guard bucket < LatencyHistogram.bucketCount else {
        throw values[0].error("'\(values[0].path)' must be a bucket below \(LatencyHistogram.bucketCount)")
      }
      let count = try values[1].integer(atLeast: 1)
      let largest = try values[2].integer()
      // A bucket's largest latency lies in the bucket: percentiles then rise with the percent.
      guard LatencyHistogram.bucket(of: Int64(largest)) == bucket else {
        throw values[2].error("'\(values[2].path)' (\(largest) ns) does not fall in bucket \(bucket)")
      }
      histogram.add(
        LatencyHistogram.Bucket(count: count, maximum: Nanoseconds(Int64(largest))), toBucket: bucket)
    }
    return histogram
  }
}
