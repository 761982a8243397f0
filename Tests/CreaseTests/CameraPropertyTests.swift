import Crease
import CreaseSynth
import Testing

@Suite("Camera properties over seeded random capture")
struct CameraPropertyTests {
  /// A random capture session at a declared 30 fps: gaps, drops, constituent and input
  /// switches, direction updates, display moves, hinge folds and session pauses.
  static func script(seed: UInt64) -> CaptureScript {
    var random = SplitMix64(seed: seed)
    var script = CaptureScript()
    script.header.nominalFrameRates[.video] = 30
    script.at(0, .input(stream: .video, camera: .virtualFront))
    script.at(0, .display(DisplayChange(display: .outer, fullScreen: true)))
    var index = 1
    var camera = Camera.outerFront
    for _ in 0..<400 {
      let roll = random.next() % 100
      let t = Int64(index) * 33_333_333 + 2_000_000
      switch roll {
      case 0..<5: index += Int(random.next() % 12) + 1
      case 5..<8:
        script.at(
          t, .drop(Drop(pts: PresentationTime(nanoseconds: Int64(index) * 33_333_333), reason: .outOfBuffers))
        )
        index += 1
      case 8..<10: camera = camera == .outerFront ? .innerFront : .outerFront
      case 10..<12:
        script.at(
          t, .display(DisplayChange(display: random.next() % 2 == 0 ? .inner : .outer, fullScreen: true)))
      case 12..<14:
        let cameras: [Camera] = [.outerFront, .innerFront, .backWide]
        let toward = cameras[Int(random.next() % 3)]
        script.at(
          t,
          .direction(
            DirectionUpdate(toward: CameraSet(toward), away: CameraSet(cameras.filter { $0 != toward }))))
      case 14..<16:
        let closed = random.next() % 2 == 0
        script.at(
          t,
          .hinge(HingeDelivery(angle: .degrees(closed ? 0 : 120), status: closed ? .closed : .partiallyOpen)))
      case 16:
        script.at(t, .input(stream: .video, camera: [.virtualFront, .backWide][Int(random.next() % 2)]))
      case 17: script.at(t, .session(SessionState(running: random.next() % 3 != 0, previewVisible: true)))
      default: break
      }
      script.frames(index...index, camera: camera)
      index += 1
    }
    return script
  }

  @Test("every camera cue keeps its stage's bound, and a mask never outlasts maskMaxMs", arguments: 0..<25)
  func bounds(seed: UInt64) throws {
    let configuration = Configuration.default
    let cues = try Self.script(seed: seed).cues(configuration: configuration)
    #expect(cues.map(\.t) == cues.map(\.t).sorted(), "seed \(seed)")
    #expect(!cues.tagged(.cameraGap).isEmpty && !cues.tagged(.cameraMask).isEmpty, "seed \(seed)")
    var maskedSince: Nanoseconds?
    for cue in cues {
      if let bound = configuration.latencyBound(for: cue.kind.latencyStage).bound() {
        #expect(cue.latency <= bound, "seed \(seed): \(cue)")
      }
      if case .cameraMask(_, let on, _) = cue.kind {
        if on {
          #expect(maskedSince == nil, "seed \(seed): masked twice at \(cue.t)")
          maskedSince = cue.t
        } else {
          #expect(cue.t - maskedSince! <= configuration.camera.maskMax, "seed \(seed)")
          maskedSince = nil
        }
      }
    }
  }

  @Test("the same capture twice gives the same cues", arguments: 0..<5)
  func deterministic(seed: UInt64) throws {
    #expect(try Self.script(seed: seed).cues() == Self.script(seed: seed).cues(), "seed \(seed)")
  }
}
