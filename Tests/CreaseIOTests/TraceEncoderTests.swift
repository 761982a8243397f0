import Crease
import CreaseIO
import CreaseRecording
import Testing

@Suite("Trace encoder")
struct TraceEncoderTests {
  static let records: [TraceRecord] = [
    .header(TraceHeader(device: "iPhone Duo", os: "27.1", nominalFrameRates: [.video: 29.97, "aux": 60])),
    .header(TraceHeader()),
    .event(Event(t: 0, .hinge(HingeDelivery(angle: .degrees(0.1 + 0.2), status: .partiallyOpen)))),
    .event(Event(t: 1, .hinge(HingeDelivery(angle: .radians(1e-7), status: .unknown)))),
    .event(Event(t: 2, .hinge(nil))),
    .event(
      Event(t: 3, .frame(Frame(pts: PresentationTime(value: -1001, timescale: 30000)!, camera: .innerFront)))),
    .event(Event(t: 4, .frame(Frame(stream: "aux", pts: PresentationTime(nanoseconds: 5))))),
    .event(
      Event(t: 5, .drop(Drop(pts: PresentationTime(value: 7, timescale: 600)!, reason: .discontinuity)))),
    .event(Event(t: 5, .drop(Drop(pts: PresentationTime(nanoseconds: 8), reason: nil)))),
    .event(Event(t: 6, .input(stream: "aux", camera: .backTelephoto))),
    .event(
      Event(
        t: 7, .direction(DirectionUpdate(view: "pip", toward: CameraSet(), away: CameraSet(Camera.allCases))))
    ),
    // Both front cameras toward the person, in either order: the order decides (SPEC 4.7).
    .event(
      Event(
        t: 7,
        .direction(
          DirectionUpdate(
            toward: CameraSet([.innerFront, .outerFront, .backWide]), away: CameraSet(),
            innerFrontListedFirst: true)))),
    .event(
      Event(
        t: 7, .direction(DirectionUpdate(toward: CameraSet([.innerFront, .outerFront]), away: CameraSet())))),
    .event(Event(t: 8, .display(DisplayChange(display: .inner, fullScreen: false)))),
    .event(Event(t: 9, .app(.background))),
    .event(Event(t: 10, .session(SessionState(running: true, previewVisible: nil)))),
    .event(Event(t: 11, .session(SessionState(running: false, previewVisible: true)))),
    .event(Event(t: 12, .mark(label: "quote \" backslash \\ newline \n tab \t é"))),
    .event(Event(t: 13, .streamEnd(stream: "video2"))),
    .event(Event(t: .max, .end)),
    // At the longest each field can be, so a line that outgrew the bytes its encoder reserves
    // trips the debug build's check.
    .event(
      Event(
        t: .max, .hinge(HingeDelivery(angle: .degrees(-.greatestFiniteMagnitude), status: .partiallyOpen)))),
    .event(Event(t: .max, .hinge(HingeDelivery(angle: .radians(-.leastNonzeroMagnitude), status: .unknown)))),
    .event(
      Event(
        t: .max,
        .frame(
          Frame(
            stream: StreamName(rawValue: Self.escaped), pts: PresentationTime(value: .min, timescale: .max)!,
            camera: .backUltraWide)))),
    .event(
      Event(
        t: .max,
        .drop(
          Drop(
            stream: StreamName(rawValue: Self.escaped), pts: PresentationTime(nanoseconds: .min),
            reason: .outOfBuffers)))),
    .event(Event(t: .max, .input(stream: StreamName(rawValue: Self.escaped), camera: .virtualFront))),
    .event(
      Event(
        t: .max,
        .direction(
          DirectionUpdate(
            view: ViewName(rawValue: Self.escaped), toward: CameraSet(Camera.allCases),
            away: CameraSet())))),
    .event(Event(t: .max, .mark(label: Self.escaped))),
    .event(Event(t: .max, .streamEnd(stream: StreamName(rawValue: Self.escaped)))),
  ]

  /// A name each of whose bytes is escaped as `\u00XX`, six bytes for one.
  static let escaped = String(repeating: "\u{1}\u{1f}", count: 40)

  @Test(
    "every kind reads back as the same record, by json-c and by TraceDecoder, exact doubles and CMTime included",
    arguments: Self.records)
  func roundTrip(record: TraceRecord) throws {
    var bytes: [UInt8] = []
    TraceEncoder.encode(record, into: &bytes)
    #expect(bytes.last == 0x0A)
    #expect(bytes.dropLast().allSatisfy { $0 != 0x0A }, "one line")
    let line = String(decoding: bytes.dropLast(), as: UTF8.self)
    #expect(try parse(line) == record, "\(line)")
    // And by the reader an app's tests use, which reads only this spelling.
    #expect(try TraceDecoder.records(in: bytes) == [record], "\(line)")
  }

  @Test("t and kind come first")
  func keyOrder() {
    var bytes: [UInt8] = []
    TraceEncoder.encode(.event(Event(t: 5, .app(.foreground))), into: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == #"{"t":5,"kind":"app","state":"foreground"}"# + "\n")
  }
}
