import CreaseCLI
import Foundation
import Testing

/// The peers (`Benchmarks/peers/`) write crease's cue lines byte for byte: the C peer, SPEC 9's
/// anchor, and the same program in Swift. A ratio against a program that does less work than
/// Crease says nothing. `make bench` checks the same on the bench trace each run; these keep
/// the peers honest between benchmarks, on every bundled trace, on each synthetic scenario at
/// several seeds and rates, and on `Benchmarks/peers/peer-edges.jsonl` (what no scenario
/// writes: a status learnt from `unknown`, angles in radians and past 64-bit thousandths, CMTime
/// and negative pts, escaped names and labels, a second view, a hinge lost and found, a late
/// line, a stream's end, repeated session stops).
@Suite("the peers write crease's cues")
struct PeerParityTests {
  /// The peers, each built once at the benchmark's optimization (`Peer.Program`, without its
  /// debug information); a peer that does not build fails the tests that need it.
  static let peers: [(name: String, executable: String?)] = {
    let directory = temporaryDirectory()
    let peers = "\(repositoryRoot)/Benchmarks/peers"
    return [
      // `cc` as the benchmark builds it, or the toolchain's own clang where no C compiler
      // was installed (a fresh machine has Swift's).
      (
        "C", "$(command -v cc || command -v clang) -O2 -o \(directory)/c \(peers)/crease-peer.c -lm",
        "\(directory)/c"
      ),
      ("Swift", "swiftc -O -o \(directory)/swift \(peers)/crease-peer.swift", "\(directory)/swift"),
    ].map { name, build, executable in
      let built = try? runProcess("/bin/sh", ["-c", build])
      return (name, built?.status == 0 ? executable : nil)
    }
  }()

  static let bundledTraces: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(repositoryRoot)/Traces")) ?? []
    return names.filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".cues.jsonl") }.sorted()
  }()

  /// Converts `trace` to binary, and checks that each peer writes crease's cue lines for it;
  /// returns crease's.
  @discardableResult
  private func checkPeers(on trace: String, _ comment: Comment? = nil) throws -> String {
    let directory = temporaryDirectory()
    let binary = "\(directory)/t.crtrace"
    // A trace with bad lines converts the rest (exit 65): its good records are what all read.
    let convert = CreaseRun("convert", trace, "-o", binary)
    #expect(convert.status == .success || convert.status == .dataError, "\(convert.error)")
    let crease = CreaseRun("replay", binary)
    #expect(crease.status == .success, "\(crease.error)")
    for peer in Self.peers {
      let executable = try #require(peer.executable, "the \(peer.name) peer builds")
      let run = try runProcess(executable, [binary])
      #expect(run.status == 0, "\(peer.name): \(run.output)")
      #expect(run.output == crease.output, "the \(peer.name) peer, \(comment?.rawValue ?? trace)")
    }
    return crease.output
  }

  @Test("on every bundled trace", arguments: Self.bundledTraces)
  func bundled(name: String) throws {
    #expect(!(try checkPeers(on: tracePath(name))).isEmpty)
  }

  @Test("on the edge cases no scenario writes")
  func edges() throws {
    let cues = try checkPeers(on: "\(repositoryRoot)/Benchmarks/peers/peer-edges.jsonl")
    // The cues its lines are there to reach: a file that lost lines would pass by writing less.
    for kind in [
      "hinge.unavailable", "hinge.available", "camera.gap", "camera.mask", "camera.stall",
      "accessory.eligible",
      "camera.direction", "mark",
    ] {
      #expect(cues.contains("\"cue\":\"\(kind)\""), "\(kind)")
    }
    #expect(cues.contains("e+300"), "an angle past 64-bit thousandths, in exponent form")
  }

  @Test(
    "on every scenario, at several seeds and frame rates",
    arguments: [
      "open-close", "wobble", "tabletop", "fold-while-recording", "flip-around", "dropped-frames",
      "accessory",
    ])
  func scenarios(name: String) throws {
    let directory = temporaryDirectory()
    for seed in 1...4 {
      for fps in [30, 60] {
        let trace = "\(directory)/\(seed)-\(fps).jsonl"
        let synth = CreaseRun(
          "synth", name, "--seed", "\(seed)", "--fps", "\(fps)", "--hinge-hz", "120", "-o", trace)
        try #require(synth.status == .success, "\(synth.error)")
        try checkPeers(on: trace, "\(name), seed \(seed), \(fps) fps")
      }
    }
  }
}
