// swift-tools-version:6.0
import PackageDescription

/// Lets the release build specialize the generic engine across modules (the replay loop runs
/// `Engine<Pipeline>` from CreaseIO); without it every event pays for generic metadata look-ups.
let crossModuleOptimization: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"])]

/// The release build of the readers and the engine skips the runtime exclusivity checks on class
/// properties (about a seventh of binary replay time); the compile-time checks and the debug
/// build, which the tests run, keep them.
let releaseSpeed: [SwiftSetting] =
  crossModuleOptimization + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
  name: "Crease",
  products: [
    .library(name: "Crease", targets: ["Crease"]),
    .library(name: "CreaseIO", targets: ["CreaseIO"]),
    .executable(name: "crease", targets: ["crease"]),
    .executable(name: "crease-bench", targets: ["crease-bench"]),
  ],
  targets: [
    // The core: events, configuration, stages, engine, cues. No Foundation, no json-c, no I/O.
    .target(name: "Crease", swiftSettings: releaseSpeed),
    .systemLibrary(
      name: "CJSONC",
      pkgConfig: "json-c",
      providers: [.apt(["libjson-c-dev"])]
    ),
    // Trace reading (json-c), configuration files, cue writers.
    .target(name: "CreaseIO", dependencies: ["Crease", "CJSONC"], swiftSettings: releaseSpeed),
    // Synthetic traces: seeded models of hands, hinges and cameras. Pure Swift, no I/O.
    .target(name: "CreaseSynth", dependencies: ["Crease"], swiftSettings: crossModuleOptimization),
    // The command line as a library, so tests run it without spawning a process.
    .target(name: "CreaseCLI", dependencies: ["Crease", "CreaseIO", "CreaseSynth"]),
    .executableTarget(name: "crease", dependencies: ["CreaseCLI"]),
    .target(name: "CJSONCLoop", dependencies: ["CJSONC"], path: "Benchmarks/CJSONCLoop"),
    .executableTarget(
      name: "crease-bench",
      dependencies: ["Crease", "CreaseIO", "CreaseSynth", "CJSONCLoop"],
      path: "Benchmarks/crease-bench"
    ),
    .testTarget(name: "CreaseTests", dependencies: ["Crease"]),
    .testTarget(name: "CreaseIOTests", dependencies: ["Crease", "CreaseIO"]),
    .testTarget(name: "CreaseSynthTests", dependencies: ["Crease", "CreaseSynth"]),
    .testTarget(
      name: "CreaseCLITests",
      dependencies: ["CreaseCLI", "CreaseIO", "Crease"],
      resources: []
    ),
  ]
)
