// swift-tools-version:6.0
import PackageDescription

/// No target here carries `unsafeFlags`: SwiftPM refuses them in a package that an app depends
/// on by version. Nor does the Makefile pass any: a plain `swift build -c release` is the build,
/// fast by attributes in the sources (Docs/Decisions.md, "Speed"; Docs/Performance.md).
///
/// `Double.rounded()` calls libm's `round`, `rint`, `trunc` and `ceil`, which Glibc does not
/// link by itself.
let linksMath: [LinkerSetting] = [.linkedLibrary("m", .when(platforms: [.linux, .android]))]

/// The lowest floors every product builds for: `Duration` and `Clock` (the core's time) need
/// iOS 16 and macOS 13. Nothing else needs more: atomics are C's (CAtomicCell), not
/// Synchronization's (macOS 15, iOS 18). `make availability` type-checks every module against
/// these floors (Docs/Decisions.md, "Platforms").
let package = Package(
  name: "Crease",
  platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "Crease", targets: ["Crease"]),
    // The recorder, and its sink to a file (POSIX calls, apart so the recorder does no I/O).
    .library(name: "CreaseRecording", targets: ["CreaseRecording", "CreaseRecordingFile"]),
    // The replay path with the two layers below it, which it re-exports: what `import CreaseIO`
    // gave in 2.0.0 (Docs/Decisions.md, "The house in layers").
    .library(name: "CreaseIO", targets: ["CreaseIO", "CreaseConfiguration", "CreaseJSON", "CreaseSystem"]),
    .library(name: "CreaseTesting", targets: ["CreaseTesting"]),
    .executable(name: "crease", targets: ["crease"]),
    .executable(name: "crease-bench", targets: ["crease-bench"]),
  ],
  targets: [
    // The core: events, configuration, stages, engine, cues. No Foundation, no json-c, no I/O.
    .target(name: "Crease", linkerSettings: linksMath),
    .systemLibrary(
      name: "CJSONC",
      pkgConfig: "json-c",
      providers: [.apt(["libjson-c-dev"]), .brew(["json-c"])]
    ),
    // Recording traces in an app: the trace line writer. No Foundation, no json-c, no I/O.
    .target(name: "CreaseRecording", dependencies: ["Crease"]),
    // A recorder's sink to a file with POSIX calls: no Foundation, the C library only.
    .target(name: "CreaseRecordingFile", dependencies: ["CreaseRecording"]),
    // A value behind a pthread lock, which ThreadSanitizer sees (Synchronization's Mutex it
    // does not); no product of its own.
    .target(name: "CreaseLocking", dependencies: ["CAtomicCell"]),
    // C11 atomics for CreaseLocking's AtomicCell (Synchronization's Atomic needs macOS 15): a
    // header of inline functions behind a module map, nothing to compile on its own.
    .systemLibrary(name: "CAtomicCell"),
    // Two files swapped in one step (`renameat2`, `renamex_np`), for replacing an output
    // without ext4's write-out on a rename over a file: a header of one inline function.
    .systemLibrary(name: "CRenameExchange"),
    // For apps' tests: a clock that moves only when the test moves it. No I/O.
    .target(name: "CreaseTesting", dependencies: ["Crease", "CreaseRecording", "CreaseLocking"]),
    // The layers of the command's house, each depending only on those above it in this list
    // (Docs/Architecture.md). Bytes, files, sockets, signals and the wall clock.
    .target(
      name: "CreaseSystem", dependencies: ["Crease", "CreaseRecording", "CreaseLocking", "CRenameExchange"]),
    // JSON documents: the streaming reader, json-c's documents, locations, the writer.
    .target(name: "CreaseJSON", dependencies: ["Crease", "CreaseRecording", "CreaseSystem", "CJSONC"]),
    // Configuration files, read and written, and the provenance (version and configuration) a
    // summary records.
    .target(name: "CreaseConfiguration", dependencies: ["Crease", "CreaseSystem", "CreaseJSON", "CJSONC"]),
    // The replay path: trace formats, read-ahead, the replay, cue output, summaries. The hot
    // path lives here whole, for inlining.
    .target(
      name: "CreaseIO",
      dependencies: [
        "Crease", "CreaseRecording", "CreaseSystem", "CreaseJSON", "CreaseConfiguration", "CJSONC",
      ],
      linkerSettings: linksMath),
    // Reports over replay summaries: fleet, compare, sweep, HTML, SVG and text tables.
    .target(name: "CreaseReports", dependencies: ["Crease", "CreaseSystem", "CreaseJSON", "CreaseIO"]),
    // Real recordings as traces: movies and timestamp lists.
    .target(
      name: "CreaseImport",
      dependencies: ["Crease", "CreaseRecording", "CreaseSystem", "CreaseJSON", "CreaseIO"]),
    // Scenario files: what `crease synth --scenario` reads and `crease scenarios --json` writes.
    .target(
      name: "CreaseScenarioFiles",
      dependencies: ["Crease", "CreaseSynth", "CreaseSystem", "CreaseJSON", "CreaseIO", "CJSONC"]),
    // Synthetic traces: seeded models of hands, hinges and cameras. Pure Swift, no I/O.
    .target(name: "CreaseSynth", dependencies: ["Crease"]),
    // The command line as a library, so tests run it without spawning a process.
    .target(
      name: "CreaseCLI",
      dependencies: [
        "Crease", "CreaseRecording", "CreaseSynth", "CreaseLocking", "CreaseSystem", "CreaseJSON", "CreaseIO",
        "CreaseReports", "CreaseImport", "CreaseScenarioFiles",
      ]),
    .executableTarget(name: "crease", dependencies: ["CreaseCLI"]),
    .target(name: "CJSONCLoop", dependencies: ["CJSONC"], path: "Benchmarks/CJSONCLoop"),
    .executableTarget(
      name: "crease-bench",
      dependencies: ["Crease", "CreaseIO", "CreaseImport", "CreaseRecording", "CreaseSynth", "CJSONCLoop"],
      path: "Benchmarks/crease-bench"
    ),
    .testTarget(
      name: "CreaseTests", dependencies: ["Crease", "CreaseSynth", "CreaseTesting", "CreaseLocking"]),
    .testTarget(
      name: "CreaseIOTests",
      dependencies: ["Crease", "CreaseIO", "CreaseSystem", "CreaseJSON", "CreaseRecording", "CreaseSynth"]),
    .testTarget(name: "CreaseSynthTests", dependencies: ["Crease", "CreaseSynth"]),
    // The benchmark's own pieces: reading callgrind profiles into the parts of a replay.
    .testTarget(name: "CreaseBenchTests", dependencies: ["crease-bench"]),
    .testTarget(
      name: "CreaseCLITests",
      dependencies: [
        "CreaseCLI", "CreaseIO", "CreaseSystem", "CreaseJSON", "CreaseReports", "CreaseImport",
        "CreaseScenarioFiles", "CreaseRecording", "CreaseRecordingFile", "CreaseTesting", "Crease",
        "CreaseSynth",
      ],
      resources: []
    ),
  ]
)
