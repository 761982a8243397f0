// swift-tools-version:6.0
import PackageDescription

// An app's package that depends on Crease by a tagged version, as the README shows. `make example`
// tags a copy of this repository at ../crease beside this package, writes Sources/App/main.swift
// from the README's library snippet, runs it, and runs CaptureKit's tests: the capture model an
// app writes, in Swift 6 mode with strict concurrency, every warning an error.
let strict: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]

let package = Package(
  name: "AppIntegration",
  platforms: [.iOS(.v18), .macOS(.v15)],
  dependencies: [.package(url: "../crease", from: "4.1.0")],
  targets: [
    .target(
      name: "CaptureKit",
      dependencies: [
        .product(name: "Crease", package: "crease"), .product(name: "CreaseRecording", package: "crease"),
      ], swiftSettings: strict),
    .executableTarget(
      name: "App",
      dependencies: [
        .product(name: "Crease", package: "crease"), .product(name: "CreaseRecording", package: "crease"),
      ], swiftSettings: strict),
    .testTarget(
      name: "CaptureKitTests",
      dependencies: [
        "CaptureKit", .product(name: "Crease", package: "crease"),
        .product(name: "CreaseRecording", package: "crease"),
        .product(name: "CreaseTesting", package: "crease"),
      ], swiftSettings: strict),
  ]
)
