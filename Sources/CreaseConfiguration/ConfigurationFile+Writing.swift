import Crease
import CreaseJSON
import CreaseSystem

extension ConfigurationFile {
  /// `configuration` as a configuration file holds it, every key given: what a summary records,
  /// and what `-c` reads back to the same configuration (durations in milliseconds, written in
  /// the shortest form that reads back to the same nanoseconds).
  public static func json(_ configuration: Configuration) -> JSONDocument {
    func milliseconds(_ duration: Nanoseconds) -> JSONDocument { .exact(Double(duration.rawValue) / 1e6) }
    let hinge = configuration.hinge
    let camera = configuration.camera
    return .object([
      .init("reorderWindowMs", milliseconds(configuration.reorderWindow)),
      .init("reorderBufferLimit", .count(configuration.reorderBufferLimit)),
      .init("reorderBufferBytes", .count(configuration.reorderBufferBytes)),
      .init(
        "hinge",
        .object([
          .init("statusDebounceMs", milliseconds(hinge.statusDebounce)),
          .init("statusMaxWaitMs", milliseconds(hinge.statusMaxWait)),
          .init(
            "boundaries",
            .array(
              hinge.boundaries.map { boundary in
                .object([
                  .init("name", .string(boundary.name.rawValue)), .init("below", .exact(boundary.below)),
                  .init("above", .exact(boundary.above)),
                ])
              })),
          .init("motionDeadbandDeg", .exact(hinge.motionDeadbandDegrees)),
          .init("fullyOpenZoneDeg", .exact(hinge.fullyOpenZoneDegrees)),
          .init("settleMs", milliseconds(hinge.settle)),
          .init("settleToleranceDeg", .exact(hinge.settleToleranceDegrees)),
          .init("progressFullDeg", .exact(hinge.progressFullDegrees)),
          .init("progressMaxRateHz", .exact(hinge.progressMaxRateHz)),
        ])),
      .init(
        "camera",
        .object([
          .init("gapFactor", .exact(camera.gapFactor)),
          .init("switchWindowMs", milliseconds(camera.switchWindow)),
          .init("stallFactor", .exact(camera.stallFactor)),
          .init("maskMaxMs", milliseconds(camera.maskMax)),
        ])),
    ])
  }
}
