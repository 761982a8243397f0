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
    output.append(contentsOf: #"{"kind":"header","format":"crease-trace","version":"#.utf8)
    NumberFormatting.appendInteger(Int64(header.version), to: &output)
    if let device = header.device { field("device", text: device, &output) }
    if let os = header.os { field("os", text: os, &output) }
    if !header.nominalFrameRates.isEmpty {
      output.append(contentsOf: #","streams":{"#.utf8)
      for (index, stream) in header.nominalFrameRates.keys.sorted(by: { $0.rawValue < $1.rawValue })
        .enumerated()
      {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        JSONString.append(stream.rawValue, to: &output)
        output.append(contentsOf: #":{"fps":"#.utf8)
        appendNumber(header.nominalFrameRates[stream]!, to: &output)
        output.append(UInt8(ascii: "}"))
      }
      output.append(UInt8(ascii: "}"))
    }
    output.append(contentsOf: "}\n".utf8)
  }

  private static func encode(_ event: Event, into output: inout [UInt8]) {
    output.append(contentsOf: #"{"t":"#.utf8)
    NumberFormatting.appendInteger(event.t.rawValue, to: &output)
    output.append(contentsOf: #","kind":""#.utf8)
    output.append(contentsOf: event.payload.kind.name.utf8)
    output.append(UInt8(ascii: "\""))
    switch event.payload {
    case .hinge(let delivery?):
      output.append(contentsOf: (delivery.angle.unit == .degrees ? #","angle":"# : #","angleRad":"#).utf8)
      appendNumber(delivery.angle.value, to: &output)
      field("status", text: delivery.status.name, &output)
    case .hinge(nil):
      output.append(contentsOf: #","hinge":null"#.utf8)
    case .frame(let frame):
      field("stream", text: frame.stream.rawValue, &output)
      pts(frame.pts, &output)
      if let camera = frame.camera { field("camera", text: camera.name, &output) }
    case .drop(let drop):
      field("stream", text: drop.stream.rawValue, &output)
      pts(drop.pts, &output)
      field("reason", text: drop.reason.name, &output)
    case .input(let stream, let camera):
      field("stream", text: stream.rawValue, &output)
      field("camera", text: camera.name, &output)
    case .direction(let update):
      field("view", text: update.view.rawValue, &output)
      cameras("toward", update.toward, &output)
      cameras("away", update.away, &output)
    case .display(let change):
      field("display", text: change.display.name, &output)
      output.append(contentsOf: #","fullScreen":"#.utf8)
      output.append(contentsOf: (change.fullScreen ? "true" : "false").utf8)
    case .app(let state):
      field("state", text: state.name, &output)
    case .session(let session):
      output.append(contentsOf: #","running":"#.utf8)
      output.append(contentsOf: (session.running ? "true" : "false").utf8)
      if let visible = session.previewVisible {
        output.append(contentsOf: #","previewVisible":"#.utf8)
        output.append(contentsOf: (visible ? "true" : "false").utf8)
      }
    case .mark(let label):
      field("label", text: label, &output)
    case .end:
      break
    }
    output.append(contentsOf: "}\n".utf8)
  }

  private static func field(_ key: String, text: String, _ output: inout [UInt8]) {
    output.append(UInt8(ascii: ","))
    JSONString.append(key, to: &output)
    output.append(UInt8(ascii: ":"))
    JSONString.append(text, to: &output)
  }

  private static func pts(_ pts: PresentationTime, _ output: inout [UInt8]) {
    output.append(contentsOf: #","pts":"#.utf8)
    if pts.timescale == PresentationTime.nanosecondTimescale {
      NumberFormatting.appendInteger(pts.value, to: &output)
    } else {
      output.append(contentsOf: #"{"value":"#.utf8)
      NumberFormatting.appendInteger(pts.value, to: &output)
      output.append(contentsOf: #","timescale":"#.utf8)
      NumberFormatting.appendInteger(Int64(pts.timescale), to: &output)
      output.append(UInt8(ascii: "}"))
    }
  }

  private static func cameras(_ key: String, _ set: CameraSet, _ output: inout [UInt8]) {
    output.append(UInt8(ascii: ","))
    JSONString.append(key, to: &output)
    output.append(contentsOf: ":[".utf8)
    var first = true
    set.forEachCamera { camera in
      if !first { output.append(UInt8(ascii: ",")) }
      first = false
      JSONString.append(camera.name, to: &output)
    }
    output.append(UInt8(ascii: "]"))
  }

  /// The shortest decimal that reads back as exactly `value` (Swift's own algorithm, the same
  /// on every machine, as `description` gives it); integral values keep a `.0`.
  ///
  /// Written through ``DigitStream``, so no `String` is made: a recorder writes an angle for
  /// every hinge delivery, and a `String` of more than 15 bytes is a heap allocation.
  private static func appendNumber(_ value: Double, to output: inout [UInt8]) {
    var stream = DigitStream()
    swap(&stream.bytes, &output)
    value.write(to: &stream)
    swap(&stream.bytes, &output)
  }
}

/// A text stream into bytes that takes a number's digits straight from the standard library's
/// stack buffer.
///
/// `Double.write(to:)` passes its digits to `_writeASCII`, whose default turns them into a
/// `String` for `write(_:)`; implementing it keeps them bytes. The underscored requirement is
/// public API of `TextOutputStream` (unchanged since Swift 5); were it ever dropped, `write(_:)`
/// still gives the same text, with the allocation back.
private struct DigitStream: TextOutputStream {
  var bytes: [UInt8] = []
  mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }
  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
}
