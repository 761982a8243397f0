import Crease

/// Writes trace records as JSON Lines (SPEC 2): `t` and `kind` first, then the fields, numbers in
/// their shortest exact form, so `TraceParser` reads back the same events.
public enum TraceEncoder {
  /// Appends `record` and a newline to `output`.
  public static func encode(_ record: TraceRecord, into output: inout [UInt8]) {
    switch record {
    case .header(let header): encode(header, into: &output)
    case .event(let event): encode(event, into: &output)
    }
  }

  private static func encode(_ header: TraceHeader, into output: inout [UInt8]) {
    output.append(#"{"kind":"header","format":"crease-trace","version":"#)
    NumberFormatting.appendInteger(Int64(header.version), to: &output)
    for (key, text) in [(#","device":"# as StaticString, header.device), (#","os":"#, header.os)] {
      guard let text else { continue }
      output.append(key)
      JSONString.append(text, to: &output)
    }
    if !header.nominalFrameRates.isEmpty {
      output.append(#","streams":{"#)
      for (index, stream) in header.nominalFrameRates.keys.sorted(by: { $0.rawValue < $1.rawValue })
        .enumerated()
      {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        JSONString.append(stream.rawValue, to: &output)
        output.append(#":{"fps":"#)
        appendNumber(header.nominalFrameRates[stream]!, to: &output)
        output.append(UInt8(ascii: "}"))
      }
      output.append(UInt8(ascii: "}"))
    }
    output.append("}\n")
  }

  /// An event's line, written at once: each `Array` append checks capacity and uniqueness, and a
  /// string's UTF-8 view goes in through a generic path (callgrind: `crease convert` to JSON
  /// Lines cost 2,900 instructions a line, most of them in appends).
  private static func encode(_ event: Event, into output: inout [UInt8]) {
    output.append(writingAtMost: lineCapacity(event)) { write(event, to: &$0) }
  }

  /// The most bytes ``write(_:to:)`` writes for `event`.
  static func lineCapacity(_ event: Event) -> Int {
    // `{"t":`, the time, `,"kind":`, the kind, and `}\n`; a field's key, separators and, for
    // a string, its quotes and escapes; numbers at their longest.
    let fixed = 32 + UnsafeByteWriter.integerCapacity
    let key = 16
    func text(_ text: String) -> Int { key + UnsafeByteWriter.jsonStringCapacity(utf8Count: text.utf8.count) }
    let pts = key + 32 + 2 * UnsafeByteWriter.integerCapacity
    switch event.payload {
    case .hinge(let delivery?):
      return fixed + key + UnsafeByteWriter.decimalCapacity + text(delivery.status.name)
    case .hinge(nil), .display, .app, .session, .end: return fixed + 4 * key
    case .frame(let frame): return fixed + text(frame.stream.rawValue) + pts + key
    case .drop(let drop): return fixed + text(drop.stream.rawValue) + pts + key
    case .input(let stream, _): return fixed + text(stream.rawValue) + key
    case .streamEnd(let stream): return fixed + text(stream.rawValue)
    case .direction(let update):
      var capacity = fixed + text(update.view.rawValue) + 2 * key
      update.toward.union(update.away).forEachCamera { capacity += 2 * text($0.name) }
      return capacity
    case .mark(let label): return fixed + text(label)
    }
  }

  /// Writes `event` as one JSON line, at most ``lineCapacity(_:)`` bytes.
  static func write(_ event: Event, to writer: inout UnsafeByteWriter) {
    writer.write(#"{"t":"#)
    writer.writeInteger(event.t.rawValue)
    writer.write(#","kind":"#)
    writer.writeJSONString(event.payload.kind.name)
    switch event.payload {
    case .hinge(let delivery?):
      writer.write(delivery.angle.unit == .degrees ? #","angle":"# : #","angleRad":"#)
      writeNumber(delivery.angle.value, to: &writer)
      field(#","status":"#, text: delivery.status.name, &writer)
    case .hinge(nil):
      writer.write(#","hinge":null"#)
    case .frame(let frame):
      field(#","stream":"#, text: frame.stream.rawValue, &writer)
      pts(frame.pts, &writer)
      if let camera = frame.camera { field(#","camera":"#, text: camera.name, &writer) }
    case .drop(let drop):
      field(#","stream":"#, text: drop.stream.rawValue, &writer)
      pts(drop.pts, &writer)
      if let reason = drop.reason { field(#","reason":"#, text: reason.name, &writer) }
    case .input(let stream, let camera):
      field(#","stream":"#, text: stream.rawValue, &writer)
      field(#","camera":"#, text: camera.name, &writer)
    case .streamEnd(let stream):
      field(#","stream":"#, text: stream.rawValue, &writer)
    case .direction(let update):
      field(#","view":"#, text: update.view.rawValue, &writer)
      cameras(#","toward":["#, update.toward, innerFrontFirst: update.innerFrontListedFirst, &writer)
      cameras(#","away":["#, update.away, &writer)
    case .display(let change):
      field(#","display":"#, text: change.display.name, &writer)
      writer.write(change.fullScreen ? #","fullScreen":true"# : #","fullScreen":false"#)
    case .app(let state):
      field(#","state":"#, text: state.name, &writer)
    case .session(let session):
      writer.write(session.running ? #","running":true"# : #","running":false"#)
      if let visible = session.previewVisible {
        writer.write(visible ? #","previewVisible":true"# : #","previewVisible":false"#)
      }
    case .mark(let label):
      field(#","label":"#, text: label, &writer)
    case .end:
      break
    }
    writer.write("}\n")
  }

  /// A string field: `prefix` is its comma, key and colon.
  private static func field(_ prefix: StaticString, text: String, _ writer: inout UnsafeByteWriter) {
    writer.write(prefix)
    writer.writeJSONString(text)
  }

  private static func pts(_ pts: PresentationTime, _ writer: inout UnsafeByteWriter) {
    writer.write(#","pts":"#)
    if pts.timescale == PresentationTime.nanosecondTimescale {
      writer.writeInteger(pts.value)
    } else {
      writer.write(#"{"value":"#)
      writer.writeInteger(pts.value)
      writer.write(#","timescale":"#)
      writer.writeInteger(Int64(pts.timescale))
      writer.write(UInt8(ascii: "}"))
    }
  }

  /// A list of cameras: `prefix` is its comma, key, colon and opening bracket. The cameras come
  /// in declaration order, `innerFront` first when `innerFrontFirst` (the order a direction
  /// update listed both front cameras in decides which a `virtualFront` input takes).
  private static func cameras(
    _ prefix: StaticString, _ set: CameraSet, innerFrontFirst: Bool = false, _ writer: inout UnsafeByteWriter
  ) {
    writer.write(prefix)
    var first = true
    if innerFrontFirst {
      writer.writeJSONString(Camera.innerFront.name)
      first = false
    }
    set.forEachCamera { camera in
      if innerFrontFirst && camera == .innerFront { return }
      if !first { writer.write(UInt8(ascii: ",")) }
      first = false
      writer.writeJSONString(camera.name)
    }
    writer.write(UInt8(ascii: "]"))
  }

  /// The shortest decimal that reads back as exactly `value` (Swift's own algorithm, the same
  /// on every machine, as `description` gives it); integral values keep a `.0`. At most
  /// `UnsafeByteWriter.decimalCapacity` bytes (`-1.7976931348623157e+308`).
  ///
  /// Written through ``DigitStream``, so no `String` is made: a recorder writes an angle for
  /// every hinge delivery, and a `String` of more than 15 bytes is a heap allocation.
  private static func writeNumber(_ value: Double, to writer: inout UnsafeByteWriter) {
    var stream = DigitStream(writer: writer)
    value.write(to: &stream)
    writer = stream.writer
  }

  /// `writeNumber` for the header's rates, appended.
  private static func appendNumber(_ value: Double, to output: inout [UInt8]) {
    output.append(writingAtMost: UnsafeByteWriter.decimalCapacity) { writeNumber(value, to: &$0) }
  }
}

/// A text stream into a byte writer that takes a number's digits straight from the standard
/// library's stack buffer.
///
/// `Double.write(to:)` passes its digits to `_writeASCII`, whose default turns them into a
/// `String` for `write(_:)`; implementing it keeps them bytes. The underscored requirement is
/// public API of `TextOutputStream` (unchanged since Swift 5); were it ever dropped, `write(_:)`
/// still gives the same text, with the allocation back.
private struct DigitStream: TextOutputStream {
  var writer: UnsafeByteWriter
  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { writer.write(UnsafeRawBufferPointer($0)) }
  }
  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    writer.write(UnsafeRawBufferPointer(buffer))
  }
}
