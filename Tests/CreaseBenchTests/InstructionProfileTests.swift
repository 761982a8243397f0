import Testing

@testable import crease_bench

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("The benchmark's instruction profile")
struct InstructionProfileTests {
  /// A callgrind profile in the shapes `--separate-threads=yes` writes: compressed names,
  /// inlined files, calls, a library and a function with no source file of its own.
  static let profile = """
    # callgrind format
    version: 1
    positions: line
    events: Ir
    summary: 1111

    ob=(1) /work/.build/release/crease
    fl=(1) /work/main/Sources/Crease/Engine/Engine.swift
    fn=(1) $s6Crease6EngineV5admit_4from5isEndyAA5EventVn_SiSbtF
    10 100
    fi=(2) /work/main/Sources/Crease/Pipeline/Pipeline.swift
    +2 20
    fi=(3) /work/main/Sources/Crease/Events/Nanoseconds.swift
    * 3
    fe=(1)
    -1 4
    cfi=(4) /work/main/Sources/Crease/Camera/CameraStage.swift
    cfn=(2) $s6Crease11CameraStageV7process_7contextyF
    calls=5 0
    12 900
    fl=(4)
    fn=(2)
    0 50
    fl=(5) //<compiler-generated>
    fn=(3) $s6Crease6EngineV7processyyAA5EventVF
    0 7
    fn=(4) $s8CreaseIO10BodyReaderV6decodeyyF
    0 11
    ob=(2) /lib/x86_64-linux-gnu/libjson-c.so.5
    fl=(6) ???
    fn=(5) json_tokener_parse_ex
    0 200
    ob=(3) /opt/swift/usr/lib/swift/linux/libswiftCore.so
    fn=(6) swift_retain
    0 700
    totals: 1095
    """

  @Test("each line goes to its file's part, inlined vocabulary and generated code to their function's")
  func parts() {
    let profile = InstructionProfile(
      lines: Self.profile.split(separator: "\n", omittingEmptySubsequences: false))
    // 100 + 3 (Nanoseconds, inlined: the engine's) + 4 back in Engine.swift + 7 generated in an
    // Engine function, whose type another function placed; the call's 900 is the callee's.
    #expect(profile[.engine] == 114)
    #expect(profile[.stages] == 20 + 50)
    #expect(profile[.decoding] == 200, "json-c is decoding; BodyReader's type was never placed")
    #expect(profile[.runtime] == 700)
    #expect(profile[.other] == 11)
    #expect(profile.total == 1095, "every cost line but the call's, as callgrind's totals")
  }

  @Test(
    "a C source's lines go to the parts their MARK sections name, positions followed as callgrind writes them"
  )
  func sections() throws {
    let path = "/tmp/crease-bench-test-peer.c"
    let source = [
      "#include <stdio.h>", "// MARK: Decoding the records", "int a;", "// MARK: Engine: timers",
      "int b;", "// MARK: Stages: hinge", "int c;", "// MARK: Cues: writing", "int d;", "// MARK: Notes",
      "int e;",
    ]
    let file = try #require(fopen(path, "w"))
    fputs(source.joined(separator: "\n") + "\n", file)
    fclose(file)
    defer { unlink(path) }
    let sections = try #require(SourceSections(path: path))
    #expect(
      (1...11).map { sections.part(ofLine: $0) } == [
        .other, .decoding, .decoding, .engine, .engine, .stages, .stages, .cues, .cues, .other, .other,
      ])
    #expect(sections.part(ofLine: 12) == nil)
    let profile = InstructionProfile(
      lines: [
        "positions: line", "ob=(1) /tmp/peer", "fl=(1) /tmp/crease-bench-test-peer.c", "fn=(1) main",
        "3 100", "+2 20", "* 3", "cfn=(2) put", "calls=4 9", "+2 900", "+2 40", "0 50",
        "fi=(3) /usr/include/x.h", "12 5", "fe=(1)", "fn=(4) flush", "0 6", "ob=(2) /lib/libc.so.6",
        "fl=(2) ???", "fn=(3) memcpy", "0 7",
      ], sections: sections)
    // Line 3 decoding; 5 engine, twice; the call from line 7 is its callee's; 9 cues; libc.
    // Without a line of the peer's own (line 0, a header's inlined code), `main`'s go to the
    // part most of its lines are in, decoding; `flush`, with none at all, to other.
    #expect(profile[.decoding] == 100 + 50 + 5)
    #expect(profile[.other] == 6)
    #expect(profile[.engine] == 23)
    #expect(profile[.stages] == 0)
    #expect(profile[.cues] == 40)
    #expect(profile[.runtime] == 7)
  }

  @Test("a second run less the first, part by part, and threads added")
  func arithmetic() {
    let lines = Self.profile.split(separator: "\n", omittingEmptySubsequences: false)
    let once = InstructionProfile(lines: lines)
    let twice = once + once
    #expect(twice[.engine] == 228)
    #expect((twice - once)[.runtime] == 700)
    #expect((twice - once).total == once.total)
    #expect(InstructionProfile().total == 0)
  }

  @Test(
    "the module and type a mangled name starts with",
    arguments: [
      ("$s6Crease6EngineV5admit_4from", "6Crease6Engine"),
      ("$s8CreaseIO11TraceReplayV3Run33_5C46AE", "8CreaseIO11TraceReplay"),
      ("$sSS27unsafeUninitializedCapacity", nil),
      ("$s6Crease", nil),
      ("$s6Crease99Engine", nil),
      ("memcpy", nil),
    ] as [(String, String?)])
  func typeKeys(name: String, key: String?) {
    #expect(ReplayPart.typeKey(ofFunction: Substring(name)).map(String.init) == key)
  }

  @Test("sources by directory, single files before their directories, others left to the caller")
  func sources() {
    #expect(ReplayPart.part(ofSource: "/w/Sources/CreaseIO/Threading/ReadAheadReader.swift") == .reading)
    #expect(ReplayPart.part(ofSource: "/w/Sources/CreaseIO/Replay/ReplayRun.swift") == .reading)
    #expect(ReplayPart.part(ofSource: "/w/Sources/CreaseIO/Threading/CueBatch.swift") == .cues)
    #expect(ReplayPart.part(ofSource: "/w/Sources/CreaseIO/Trace/Binary/BodyReader.swift") == .decoding)
    #expect(ReplayPart.part(ofSource: "/w/Sources/CreaseIO/Replay/TraceReplay.swift") == .reading)
    #expect(ReplayPart.part(ofSource: "/w/Sources/CreaseIO/Threading/CueWriter.swift") == .cues)
    #expect(ReplayPart.part(ofSource: "/w/Sources/CreaseIO/Replay/ReplaySummary.swift") == .cues)
    #expect(ReplayPart.part(ofSource: "/w/Sources/CreaseRecording/UnsafeByteWriter.swift") == .cues)
    #expect(ReplayPart.part(ofSource: "/w/Sources/Crease/Hinge/HingeStage.swift") == .stages)
    #expect(ReplayPart.part(ofSource: "/w/Sources/Crease/Events/Event.swift") == nil)
    #expect(ReplayPart.part(ofSource: "//<compiler-generated>") == nil)
    #expect(ReplayPart.part(ofObject: "/lib/x86_64-linux-gnu/libc.so.6") == .runtime)
    #expect(ReplayPart.part(ofObject: "/work/main/.build/release/crease") == .other)
  }

  @Test("the table: per line, replay thread, the others and both, with a total")
  func table() {
    let lines = Self.profile.split(separator: "\n", omittingEmptySubsequences: false)
    let profile = InstructionProfile(lines: lines)
    let table = InstructionProfile.table([("binary", profile, profile + profile)], lines: 10)
    #expect(table.count == 2 + ReplayPart.allCases.count + 1)
    #expect(table[0].hasSuffix("binary"))
    let engine = table.first { $0.hasPrefix("engine") }!.split(separator: " ").suffix(3)
    #expect(engine.map(String.init) == ["11", "22", "34"])
    #expect(table.last!.split(separator: " ").suffix(3).map(String.init) == ["109", "219", "328"])
  }
}
