import Crease
import Testing

@Suite("Direction and mirroring (SPEC 4.7)")
struct CameraDirectionTests {
  static let outerToward = DirectionUpdate(
    toward: CameraSet(.outerFront), away: CameraSet([.innerFront, .backWide]))
  static let innerToward = DirectionUpdate(
    toward: CameraSet(.innerFront), away: CameraSet([.outerFront, .backWide]))

  @Test("a virtual front camera decides from its constituent, before any cue about its first frame")
  func foldWhileRecording() throws {
    var script = CaptureScript()
    script.at(0, .direction(Self.outerToward))
    script.at(0, .input(stream: .video, camera: .virtualFront))
    script.frames(1...10, camera: .outerFront)
    script.frames(20...25, camera: .innerFront)
    // The coordinator's update comes after the first inner frame: the decision does not wait for it.
    script.at(700_000_000, .direction(Self.innerToward))
    let cues = try script.cues().filter { $0.kind.name.hasPrefix("camera.") && $0.kind.tag != .cameraStall }
    #expect(
      cues.prefix(2).map(\.kind) == [
        .cameraDirection(stream: .video, camera: .outerFront, facing: .user),
        .cameraMirroring(stream: .video, camera: .outerFront, mirrored: true, basis: .direction),
      ])
    #expect(cues.dropFirst(2).map(\.kind.name) == ["camera.direction", "camera.mirroring", "camera.gap"])
    #expect(cues[2].kind == .cameraDirection(stream: .video, camera: .innerFront, facing: .user))
    #expect(cues[2].t == cues[4].t, "the decision comes at the first inner frame, with the gap")
    #expect(try script.pipeline().staleFrames == 0)
  }

  @Test("before any frame, a virtual front input takes the front camera facing the person")
  func virtualFrontBeforeFrames() throws {
    var script = CaptureScript()
    script.at(0, .direction(Self.innerToward))
    script.at(5, .input(stream: .video, camera: .virtualFront))
    #expect(
      try script.cues().last?.kind
        == .cameraMirroring(stream: .video, camera: .innerFront, mirrored: true, basis: .direction))
  }

  @Test("a rear camera that comes to face the person is mirrored; frames before the update count as stale")
  func flipAround() throws {
    var script = CaptureScript()
    script.at(0, .direction(Self.outerToward))
    script.at(0, .input(stream: .video, camera: .backWide))
    script.frames(1...30, camera: .backWide)
    script.at(
      1_100_000_000,
      .direction(DirectionUpdate(toward: CameraSet(.backWide), away: CameraSet([.outerFront, .innerFront]))))
    script.frames(34...40, camera: .backWide)
    let decisions = try script.cues().filter {
      $0.kind.tag == .cameraMirroring || $0.kind.tag == .cameraDirection
    }
    #expect(
      decisions.map(\.kind) == [
        .cameraDirection(stream: .video, camera: .backWide, facing: .away),
        .cameraMirroring(stream: .video, camera: .backWide, mirrored: false, basis: .direction),
        .cameraDirection(stream: .video, camera: .backWide, facing: .user),
        .cameraMirroring(stream: .video, camera: .backWide, mirrored: true, basis: .direction),
      ])
    #expect(try script.pipeline().staleFrames == 30)
  }

  @Test("with no direction information, front cameras are mirrored by device type")
  func deviceTypeFallback() throws {
    var front = CaptureScript()
    front.frames(1...2, camera: .outerFront)
    #expect(
      try front.cues().map(\.kind) == [
        .cameraMirroring(stream: .video, camera: .outerFront, mirrored: true, basis: .deviceType)
      ])
    var rear = CaptureScript()
    rear.at(0, .input(stream: .video, camera: .backTelephoto))
    #expect(
      try rear.cues().map(\.kind) == [
        .cameraMirroring(stream: .video, camera: .backTelephoto, mirrored: false, basis: .deviceType)
      ])
  }

  @Test("only the main view's map decides, or the only view seen")
  func views() throws {
    var script = CaptureScript()
    script.at(0, .direction(DirectionUpdate(view: "pip", toward: CameraSet(.backWide), away: CameraSet())))
    script.at(0, .input(stream: .video, camera: .backWide))
    script.at(1, .direction(DirectionUpdate(view: "main", toward: CameraSet(), away: CameraSet(.backWide))))
    script.at(2, .direction(DirectionUpdate(view: "pip", toward: CameraSet(.backWide), away: CameraSet())))
    #expect(
      try script.cues().tagged(.cameraDirection).map(\.kind) == [
        .cameraDirection(stream: .video, camera: .backWide, facing: .user),
        .cameraDirection(stream: .video, camera: .backWide, facing: .away),
      ])
  }
}

@Suite("Preview mask (SPEC 4.8)")
struct CameraMaskTests {
  @Test("an input switch masks; the first frame from the new camera unmasks")
  func inputSwitch() throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .backWide))
    script.frames(1...10, camera: .backWide)
    script.at(340_000_000, .input(stream: .video, camera: .backUltraWide))
    script.frames(11...12, camera: .backWide)
    script.frames(15...16, camera: .backUltraWide)
    let masks = try script.cues().tagged(.cameraMask)
    #expect(
      masks.map(\.kind) == [
        .cameraMask(stream: .video, on: true, reason: .input),
        .cameraMask(stream: .video, on: false, reason: nil),
      ])
    #expect(masks[1].t == Nanoseconds(15 * 33_333_333 + 1_000_000))
  }

  @Test("the first input and the first display only set the state")
  func firstEventsSetState() throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .virtualFront))
    script.at(0, .display(DisplayChange(display: .outer, fullScreen: true)))
    script.at(10, .display(DisplayChange(display: .outer, fullScreen: false)))
    #expect(try script.cues().tagged(.cameraMask).isEmpty)
  }

  @Test("the mask lifts by maskMaxMs at the latest, and a second trigger does not extend it")
  func maskBound() throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .virtualFront))
    script.at(0, .display(DisplayChange(display: .outer, fullScreen: true)))
    script.at(100_000_000, .display(DisplayChange(display: .inner, fullScreen: true)))
    script.at(300_000_000, .display(DisplayChange(display: .outer, fullScreen: true)))
    let masks = try script.cues().tagged(.cameraMask)
    #expect(
      masks == [
        Cue(
          t: .milliseconds(100), since: .milliseconds(100),
          .cameraMask(stream: .video, on: true, reason: .display)),
        Cue(
          t: .milliseconds(600), since: .milliseconds(100),
          .cameraMask(stream: .video, on: false, reason: nil)),
      ])
  }

  @Test("a hinge commit to or from closed masks a virtual front stream, with the commit's since")
  func hingeTrigger() throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .virtualFront))
    script.at(0, .hinge(HingeDelivery(angle: .degrees(0), status: .closed)))
    script.at(100_000_000, .hinge(HingeDelivery(angle: .degrees(30), status: .partiallyOpen)))
    #expect(
      try script.cues().tagged(.cameraMask).first
        == Cue(
          t: .milliseconds(150), since: .milliseconds(100),
          .cameraMask(stream: .video, on: true, reason: .hinge)))
  }
}

@Suite("Accessory eligibility (SPEC 4.9)")
struct AccessoryTests {
  static func eligibility(_ events: [Event.Payload]) throws -> [CueKind] {
    var script = CaptureScript()
    for (index, payload) in events.enumerated() { script.at(Int64(index) * 1_000_000, payload) }
    return try script.cues(configuration: .default).tagged(.accessoryEligible).map(\.kind)
  }

  static let all: [Event.Payload] = [
    .app(.foreground), .session(SessionState(running: true, previewVisible: true)),
    .display(DisplayChange(display: .inner, fullScreen: true)),
    .hinge(HingeDelivery(angle: .degrees(170), status: .fullyOpen)),
  ]

  @Test("eligible when every condition holds; the first cue comes with the first event")
  func eligible() throws {
    #expect(
      try Self.eligibility(Self.all) == [
        .accessoryEligible(eligible: false, missing: [.session, .preview, .open, .innerFullScreen]),
        .accessoryEligible(eligible: true, missing: []),
      ])
  }

  @Test(
    "each condition, taken away, makes the accessory ineligible and is named",
    arguments: [
      (Event.Payload.app(.background), AccessoryConditions.foreground),
      (.session(SessionState(running: false, previewVisible: true)), .session),
      (.session(SessionState(running: true, previewVisible: false)), .preview),
      (.display(DisplayChange(display: .outer, fullScreen: true)), .innerFullScreen),
      (.display(DisplayChange(display: .inner, fullScreen: false)), .innerFullScreen),
    ])
  func conditions(removal: Event.Payload, condition: AccessoryConditions) throws {
    #expect(
      try Self.eligibility(Self.all + [removal]).last
        == .accessoryEligible(eligible: false, missing: condition)
    )
  }

  @Test("every set of conditions names its members in the cue's fixed order, whatever its other bits")
  func conditionNames() {
    let order: [(AccessoryConditions, String)] = [
      (.foreground, "foreground"), (.session, "session"), (.preview, "preview"), (.open, "open"),
      (.innerFullScreen, "innerFullScreen"),
    ]
    for bits in 0...UInt8.max {
      let conditions = AccessoryConditions(rawValue: bits)
      #expect(conditions.names == order.filter { conditions.contains($0.0) }.map(\.1), "bits \(bits)")
    }
  }

  @Test("open needs a committed status other than closed: a commit to closed, or a lost hinge, takes it away")
  func open() throws {
    let closing = Self.all + [.hinge(HingeDelivery(angle: .degrees(2), status: .closed))]
    #expect(try Self.eligibility(closing).last == .accessoryEligible(eligible: false, missing: [.open]))
    #expect(
      try Self.eligibility(Self.all + [.hinge(nil)]).last
        == .accessoryEligible(eligible: false, missing: [.open])
    )
    var unknown = Self.all
    unknown[3] = .hinge(HingeDelivery(angle: .degrees(90), status: .unknown))
    #expect(try Self.eligibility(unknown).count == 1, "an unknown status never counts as open")
  }

  @Test("at a commit to closed, the camera stage's mask comes before the accessory (SPEC 4.1)")
  func commitOrder() throws {
    var script = CaptureScript()
    script.at(0, .input(stream: .video, camera: .virtualFront))
    for (index, payload) in Self.all.enumerated() { script.at(Int64(index + 1) * 1_000_000, payload) }
    script.at(100_000_000, .hinge(HingeDelivery(angle: .degrees(2), status: .closed)))
    let commit = try script.cues().filter { $0.t == .milliseconds(150) }.map(\.kind.tag)
    #expect(commit == [.hingeStatus, .regionsChanged, .hingeSettled, .cameraMask, .accessoryEligible])
  }

  @Test("a trace with only hinge events gets no accessory cues")
  func hingeOnly() throws {
    #expect(
      try Self.eligibility([.hinge(HingeDelivery(angle: .degrees(90), status: .partiallyOpen))]).isEmpty)
  }
}
