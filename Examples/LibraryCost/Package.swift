// swift-tools-version:6.0
import PackageDescription

// What an app pays for the library: a package that depends on a tagged copy of Crease, built
// the way an app is (`swift build -c release`, no flag), feeding events through `CreaseSession`,
// through `Engine<Pipeline>` directly, and through a `TraceRecorder`. `make bench` tags the copy at ../crease, builds this,
// and counts its instructions and heap allocations per event under valgrind.
let package = Package(
  name: "LibraryCost",
  dependencies: [.package(url: "../crease", from: "4.1.0")],
  targets: [
    .executableTarget(
      name: "LibraryCost",
      dependencies: [
        .product(name: "Crease", package: "crease"), .product(name: "CreaseRecording", package: "crease"),
      ])
  ]
)
