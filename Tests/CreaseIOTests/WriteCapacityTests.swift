import Crease
import Testing

@testable import CreaseIO
@testable import CreaseRecording

/// Every encoder that writes through an ``UnsafeByteWriter`` computes its capacity apart from
/// its writing: these tests write each cue kind and each event kind with every field at its
/// longest and check the bytes written against the capacity reserved.
@Suite("bytes written within the capacity reserved")
struct WriteCapacityTests {
  /// Text of control bytes: six bytes each once escaped (`\u0001`), the most a byte of text
  /// can take. (A quote or a backslash takes two.)
  static let longestText = String(repeating: "\u{01}\u{1F}", count: 128)
  static let longestName = StreamName(rawValue: longestText)
  /// The numbers that take the most digits in each path of the decimal writer.
  static let extremeDoubles: [Double] = [
    -Double.greatestFiniteMagnitude, -9_007_199_254_740.993, -1.0005, -.leastNonzeroMagnitude, .nan,
    -.infinity, -1e-300,
  ]
  static let extremeTimes: [Nanoseconds] = [.min, .max, Nanoseconds(-1)]

  /// One cue of every kind for each extreme value; a switch over every kind, so a new kind
  /// does not compile until it is here.
  static func longestCues() -> [Cue] {
    var cues: [Cue] = []
    for tag in CueKind.Tag.allCases {
      for (index, number) in extremeDoubles.enumerated() {
        let t = extremeTimes[index % extremeTimes.count]
        let other = extremeTimes[(index + 1) % extremeTimes.count]
        let kind: CueKind =
          switch tag {
          case .hingeInitial: .hingeInitial(status: .partiallyOpen, angle: .degrees(number))
          case .hingeUnavailable: .hingeUnavailable
          case .hingeAvailable: .hingeAvailable(status: .partiallyOpen, angle: .degrees(number))
          case .hingeStatus: .hingeStatus(from: .partiallyOpen, to: .partiallyOpen)
          case .regionsChanged: .regionsChanged(divisionActive: false)
          case .hingeThreshold:
            .hingeThreshold(
              boundary: BoundaryName(rawValue: longestText), side: .above, angle: .degrees(number),
              initial: false)
          case .hingeMotion: .hingeMotion(phase: .opening, angle: .degrees(number))
          case .hingeSettled: .hingeSettled(angle: .degrees(number), zone: .fullyOpen)
          case .hingeProgress: .hingeProgress(value: number)
          case .cameraGap:
            .cameraGap(
              stream: longestName, from: t, to: other, missing: .min, cause: .unexplained,
              reason: .discontinuity)
          case .cameraStall: .cameraStall(stream: longestName)
          case .cameraPTSRegression: .cameraPTSRegression(stream: longestName, from: t, to: other)
          case .cameraDirection: .cameraDirection(stream: longestName, camera: .innerFront, facing: .user)
          case .cameraMirroring:
            .cameraMirroring(stream: longestName, camera: .innerFront, mirrored: false, basis: .deviceType)
          case .cameraMask: .cameraMask(stream: longestName, on: false, reason: .display)
          case .accessoryEligible:
            .accessoryEligible(eligible: false, missing: AccessoryConditions(rawValue: .max))
          case .mark: .mark(label: longestText)
          }
        cues.append(Cue(t: t, since: other, kind))
      }
    }
    return cues
  }

  /// One event of every kind for each extreme value.
  static func longestEvents() -> [Event] {
    var events: [Event] = []
    let everyCamera = CameraSet(Camera.allCases)
    for kind in EventKind.allCases {
      for (index, number) in extremeDoubles.enumerated() {
        let t = extremeTimes[index % extremeTimes.count]
        let pts = [
          PresentationTime(nanoseconds: .min), PresentationTime(value: .min, timescale: .max)!,
          PresentationTime(value: -1, timescale: 1)!,
        ][index % 3]
        let payloads: [Event.Payload] =
          switch kind {
          case .hinge:
            [.hinge(nil)]
              + HingeStatus.allCases.flatMap { status in
                [HingeAngle.degrees(number), .radians(number)].map {
                  .hinge(HingeDelivery(angle: $0, status: status))
                }
              }
          case .frame:
            [
              .frame(Frame(stream: longestName, pts: pts)),
              .frame(Frame(stream: longestName, pts: pts, camera: .innerFront)),
            ]
          case .drop: DropReason.allCases.map { .drop(Drop(stream: longestName, pts: pts, reason: $0)) }
          case .input: Camera.allCases.map { .input(stream: longestName, camera: $0) }
          case .direction:
            [
              .direction(
                DirectionUpdate(view: ViewName(rawValue: longestText), toward: everyCamera, away: everyCamera)
              )
            ]
          case .display: Display.allCases.map { .display(DisplayChange(display: $0, fullScreen: false)) }
          case .app: AppState.allCases.map { .app($0) }
          case .session: [.session(SessionState(running: false, previewVisible: false))]
          case .mark: [.mark(label: longestText)]
          case .streamEnd: [.streamEnd(stream: longestName)]
          case .end: [.end]
          }
        events += payloads.map { Event(t: t, $0) }
      }
    }
    return events
  }

  /// The bytes `write` writes, into memory far larger than any capacity here.
  static func bytesWritten(_ write: (inout UnsafeByteWriter) -> Void) -> Int {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 16) { memory in
      var writer = UnsafeByteWriter(at: memory.baseAddress!, capacity: memory.count)
      write(&writer)
      return writer.cursor - memory.baseAddress!
    }
  }

  @Test("a cue's JSON line and its fields")
  func cueLines() {
    let cues = Self.longestCues()
    #expect(Set(cues.map(\.kind.tag)).count == CueKind.Tag.allCases.count)
    for cue in cues {
      let line = Self.bytesWritten { CueFormat.encodeJSONLine(cue, to: &$0) }
      #expect(line <= CueFormat.jsonLineCapacity(cue), "\(cue.kind.name): \(line) bytes")
      let fields = Self.bytesWritten { cue.kind.writeFields(CueFormat.JSONFields.self, to: &$0) }
      #expect(fields <= CueFormat.jsonFieldsCapacity(cue.kind), "\(cue.kind.name): \(fields) bytes")
    }
  }

  @Test("an event's JSON line")
  func eventLines() {
    let events = Self.longestEvents()
    #expect(Set(events.map(\.payload.kind)).count == EventKind.allCases.count)
    for event in events {
      let line = Self.bytesWritten { TraceEncoder.write(event, to: &$0) }
      #expect(line <= TraceEncoder.lineCapacity(event), "\(event.payload.kind): \(line) bytes")
    }
  }

  @Test("every format writes the longest cues and events whole")
  func everyFormat() throws {
    // Through the checked writers end to end: a capacity too small stops the process.
    for cue in Self.longestCues() {
      for format in CueFormat.allCases {
        var line: [UInt8] = []
        format.encode(cue, into: &line)
        #expect(line.last == UInt8(ascii: "\n") || format == .chrome)
      }
    }
    for event in Self.longestEvents() {
      var line: [UInt8] = []
      TraceEncoder.encode(.event(event), into: &line)
      #expect(line.last == UInt8(ascii: "\n"))
    }
  }

  @Test("a write past the capacity stops the program, in a release build too")
  func overflowStops() async {
    await #expect(processExitsWith: .failure) {
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8) { memory in
        var writer = UnsafeByteWriter(at: memory.baseAddress!, capacity: 4)
        writer.write("12345")
      }
    }
  }
}
