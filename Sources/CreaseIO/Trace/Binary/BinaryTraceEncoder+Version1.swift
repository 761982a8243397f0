import Crease

/// Version 1 record bodies: a kind byte, `t` for events as 8 bytes, the fields at fixed widths,
/// names spelled out (the 4-byte length before them is written by `encode`). Written for a
/// reader that predates version 2, and by the tests that keep reading version 1.
extension BinaryTraceEncoder {
  /// Throws for a record version 1 cannot hold: a header of more than 65,535 streams, or a
  /// `streamEnd`, a kind that came after it.
  static func checkVersion1(_ record: TraceRecord) throws(Unwritable) {
    switch record {
    case .header(let header) where header.nominalFrameRates.count > Int(UInt16.max):
      throw Unwritable(
        description:
          "a header of \(header.nominalFrameRates.count) streams; binary version 1 holds at most 65535")
    case .event(let event) where event.payload.kind == .streamEnd:
      throw Unwritable(description: "a streamEnd event; binary version 1 has no kind for it (version 2 has)")
    default:
      break
    }
  }

  /// - Precondition: ``checkVersion1(_:)`` took `record`.
  static func encodeVersion1(_ record: TraceRecord, into output: inout [UInt8]) {
    switch record {
    case .header(let header):
      output.append(BinaryTraceFormat.headerCode)
      put(UInt16(truncatingIfNeeded: header.version), &output)
      putVersion1Optional(header.device, &output)
      putVersion1Optional(header.os, &output)
      let streams = header.nominalFrameRates.keys.sorted { $0.rawValue < $1.rawValue }
      put(UInt16(streams.count), &output)
      for stream in streams {
        putVersion1(stream.rawValue, &output)
        put(header.nominalFrameRates[stream]!.bitPattern, &output)
      }
    case .event(let event):
      encodeVersion1(event, into: &output)
    }
  }

  private static func encodeVersion1(_ event: Event, into output: inout [UInt8]) {
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
      putVersion1(frame.stream.rawValue, &output)
      putVersion1(frame.pts, &output)
      output.append(frame.camera.map { BinaryTraceFormat.code($0) + 1 } ?? 0)
    case .drop(let drop):
      start(.drop)
      putVersion1(drop.stream.rawValue, &output)
      putVersion1(drop.pts, &output)
      output.append(BinaryTraceFormat.code(drop.reason))
    case .input(let stream, let camera):
      start(.input)
      putVersion1(stream.rawValue, &output)
      output.append(BinaryTraceFormat.code(camera))
    case .direction(let update):
      start(.direction)
      putVersion1(update.view.rawValue, &output)
      output.append(BinaryTraceFormat.towardByte(update))
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
      putVersion1(label, &output)
    case .end:
      start(.end)
    case .streamEnd:
      preconditionFailure("checkVersion1 refuses a streamEnd")
    }
  }

  static func put(_ value: UInt16, _ output: inout [UInt8]) {
    output.append(UInt8(truncatingIfNeeded: value))
    output.append(UInt8(truncatingIfNeeded: value >> 8))
  }

  /// A string: its UTF-8 length (4 bytes) and bytes.
  private static func putVersion1(_ text: String, _ output: inout [UInt8]) {
    let count = UInt32(text.utf8.count)
    for index in 0..<4 { output.append(UInt8(truncatingIfNeeded: count >> (8 * index))) }
    output.append(contentsOf: text.utf8)
  }

  private static func putVersion1Optional(_ text: String?, _ output: inout [UInt8]) {
    guard let text else {
      output.append(0)
      return
    }
    output.append(1)
    putVersion1(text, &output)
  }

  private static func putVersion1(_ pts: PresentationTime, _ output: inout [UInt8]) {
    put(UInt64(bitPattern: pts.value), &output)
    for index in 0..<4 {
      output.append(UInt8(truncatingIfNeeded: UInt32(bitPattern: pts.timescale) >> (8 * index)))
    }
  }
}
