// swift-tools-version:6.0
import PackageDescription

// An app's package that depends on Crease by a tagged version, as the README shows. `make example`
// tags a copy of this repository as 1.0.0 at ../crease beside this package, writes
// Sources/App/main.swift from the README's library snippet, and runs it.
let package = Package(
  name: "AppIntegration",
  dependencies: [.package(url: "../crease", from: "1.0.0")],
  targets: [
    .executableTarget(
      name: "App",
      dependencies: [
        .product(name: "Crease", package: "crease"), .product(name: "CreaseRecording", package: "crease"),
      ])
  ]
)
