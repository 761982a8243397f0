import Crease

/// Version 1 records (`Docs/BinaryTraceFormat.md`): fixed-width fields, names spelled out.
extension BodyReader {
  mutating func version1Record(streamNames: RecentStrings) throws(Failure) -> TraceRecord {
    let tag = try byte()
    if tag == BinaryTraceFormat.headerCode { return .header(try version1Header()) }
    // `streamEnd` came with version 2: version 1 has no kind 11.
    guard let kind = BinaryTraceFormat.eventKind(tag), kind != .streamEnd else {
      throw Failure("unknown record kind \(tag)")
    }
    let raw = Int64(bitPattern: try uint64())
    guard raw >= 0 else { throw Failure("'t' must not be negative (\(raw))") }
    let t = Nanoseconds(raw)
    switch kind {
    case .hinge:
      let form = try byte()
      if form == 0 { return .event(Event(t: t, .hinge(nil))) }
      guard form <= 2 else { throw Failure("unknown angle unit \(form)") }
      let angle = try angle(form: form)
      let status = try decode("status", try byte(), BinaryTraceFormat.status)
      return .event(
        Event(
          t: t, .hinge(HingeDelivery(angle: angle, status: status))))
    case .frame:
      let stream = try version1StreamName(streamNames)
      let pts = try version1PresentationTime()
      let code = try byte()
      let camera = code == 0 ? nil : BinaryTraceFormat.camera(code - 1)
      guard code == 0 || camera != nil else { throw Failure("unknown camera \(code - 1)") }
      return .event(Event(t: t, .frame(Frame(stream: stream, pts: pts, camera: camera))))
    case .drop:
      let stream = try version1StreamName(streamNames)
      let pts = try version1PresentationTime()
      let reason = try decode("reason", try byte(), BinaryTraceFormat.reason)
      return .event(Event(t: t, .drop(Drop(stream: stream, pts: pts, reason: reason))))
    case .input:
      let stream = try version1StreamName(streamNames)
      guard let camera = BinaryTraceFormat.camera(try byte()) else { throw Failure("unknown camera") }
      return .event(Event(t: t, .input(stream: stream, camera: camera)))
    case .direction:
      let view = ViewName(rawValue: try version1String())
      return .event(
        Event(t: t, .direction(try directionUpdate(view: view, toward: try byte(), away: try byte()))))
    case .display:
      let display = try decode("display", try byte(), BinaryTraceFormat.display)
      return .event(Event(t: t, .display(DisplayChange(display: display, fullScreen: try flag()))))
    case .app:
      return .event(Event(t: t, .app(try decode("state", try byte(), BinaryTraceFormat.appState))))
    case .session:
      let running = try flag()
      let preview = try byte()
      guard preview <= 2 else { throw Failure("bad previewVisible \(preview)") }
      return .event(
        Event(
          t: t, .session(SessionState(running: running, previewVisible: preview == 0 ? nil : preview == 2))))
    case .mark:
      return .event(Event(t: t, .mark(label: try version1String())))
    case .end:
      return .event(Event(t: t, .end))
    case .streamEnd:
      preconditionFailure("refused with its kind above")
    }
  }

  private mutating func version1Header() throws(Failure) -> TraceHeader {
    var header = TraceHeader(version: Int(try little(UInt16.self)))
    guard header.version == TraceHeader.currentVersion else {
      throw Failure("unsupported trace version \(header.version)")
    }
    header.device = try version1OptionalString()
    header.os = try version1OptionalString()
    for _ in 0..<(try little(UInt16.self)) {
      let text = try version1String()
      let (name, fps) = try headerStream(text, fps: Double(bitPattern: try uint64()))
      header.nominalFrameRates[name] = fps
    }
    return header
  }

  private mutating func version1String() throws(Failure) -> String {
    try string(count: Int(try little(UInt32.self)))
  }

  private mutating func version1OptionalString() throws(Failure) -> String? {
    try flag() ? try version1String() : nil
  }

  /// A stream's name, spelled out in every record: found by `recent` by its bytes, however many
  /// streams the trace has (with more than it remembered lately, each name was made again at
  /// every frame: at 1,000 streams a frame cost 1,549 instructions against 1,079 with one).
  private mutating func version1StreamName(_ recent: RecentStrings) throws(Failure) -> StreamName {
    let count = Int(try little(UInt32.self))
    try need(count)
    defer { position &+= count }
    let slice = UnsafeRawBufferPointer(start: bytes + position, count: count)
    // A short one remembered lately, looked for inline: the usual name, at every frame.
    guard let name = recent.rememberedShortStreamName(slice) ?? recent.streamName(slice) else {
      throw Failure("a string is not valid UTF-8")
    }
    guard !name.isEmpty else { throw Failure("'stream' must not be empty") }
    return StreamName(rawValue: name)
  }

  private mutating func version1PresentationTime() throws(Failure) -> PresentationTime {
    let value = Int64(bitPattern: try uint64())
    return try presentationTime(value: value, timescale: Int32(bitPattern: try little(UInt32.self)))
  }
}
