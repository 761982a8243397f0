import Crease

/// Writes trace records in the binary format: a 4-byte little-endian body length, then the
/// body (kind byte, `t` for events, the fields).
public enum BinaryTraceEncoder {
  /// Appends `record`, length prefix included, to `output`.
  public static func encode(_ record: TraceRecord, into output: inout [UInt8]) {
    let lengthAt = output.count
    output.append(contentsOf: [0, 0, 0, 0])
    switch record {
    case .header(let header):
      output.append(BinaryTraceFormat.headerCode)
      put(UInt16(truncatingIfNeeded: header.version), &output)
      putOptional(header.device, &output)
      putOptional(header.os, &output)
      let streams = header.nominalFrameRates.keys.sorted { $0.rawValue < $1.rawValue }
      put(UInt16(streams.count), &output)
      for stream in streams {
        put(stream.rawValue, &output)
        put(header.nominalFrameRates[stream]!.bitPattern, &output)
      }
    case .event(let event):
      encode(event, into: &output)
    }
    let length = UInt32(output.count - lengthAt - 4)
    for index in 0..<4 { output[lengthAt + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
  }

  private static func encode(_ event: Event, into output: inout [UInt8]) {
    func start(_ kind: EventKind) {
      output.append(BinaryTraceFormat.code(kind))
      put(UInt64(bitPattern: event.t.rawValue), &output)
    }
    switch event.payload {
    case .hinge(let delivery):
      start(.hinge)
      guard let delivery else {
        output.append(0)
        return
      }
      output.append(delivery.angle.unit == .degrees ? 1 : 2)
      put(delivery.angle.value.bitPattern, &output)
      output.append(BinaryTraceFormat.code(delivery.status))
    case .frame(let frame):
      start(.frame)
      put(frame.stream.rawValue, &output)
      put(frame.pts, &output)
      output.append(frame.camera.map { BinaryTraceFormat.code($0) + 1 } ?? 0)
    case .drop(let drop):
      start(.drop)
      put(drop.stream.rawValue, &output)
      put(drop.pts, &output)
      output.append(BinaryTraceFormat.code(drop.reason))
    case .input(let stream, let camera):
      start(.input)
      put(stream.rawValue, &output)
      output.append(BinaryTraceFormat.code(camera))
    case .direction(let update):
      start(.direction)
      put(update.view.rawValue, &output)
      output.append(update.toward.rawValue)
      output.append(update.away.rawValue)
    case .display(let change):
      start(.display)
      output.append(BinaryTraceFormat.code(change.display))
      output.append(change.fullScreen ? 1 : 0)
    case .app(let state):
      start(.app)
      output.append(BinaryTraceFormat.code(state))
    case .session(let session):
      start(.session)
      output.append(session.running ? 1 : 0)
      output.append(session.previewVisible.map { $0 ? 2 : 1 } ?? 0)
    case .mark(let label):
      start(.mark)
      put(label, &output)
    case .end:
      start(.end)
    }
  }

  static func put(_ value: UInt16, _ output: inout [UInt8]) {
    output.append(UInt8(truncatingIfNeeded: value))
    output.append(UInt8(truncatingIfNeeded: value >> 8))
  }

  static func put(_ value: UInt32, _ output: inout [UInt8]) {
    for index in 0..<4 { output.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
  }

  static func put(_ value: UInt64, _ output: inout [UInt8]) {
    for index in 0..<8 { output.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
  }

  /// A string: its UTF-8 length (4 bytes) and bytes.
  static func put(_ text: String, _ output: inout [UInt8]) {
    put(UInt32(text.utf8.count), &output)
    output.append(contentsOf: text.utf8)
  }

  static func putOptional(_ text: String?, _ output: inout [UInt8]) {
    guard let text else {
      output.append(0)
      return
    }
    output.append(1)
    put(text, &output)
  }

  static func put(_ pts: PresentationTime, _ output: inout [UInt8]) {
    put(UInt64(bitPattern: pts.value), &output)
    put(UInt32(bitPattern: pts.timescale), &output)
  }
}
