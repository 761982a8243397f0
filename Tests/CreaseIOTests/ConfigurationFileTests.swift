import Crease
import CreaseIO
import Testing

@Suite("Configuration files")
struct ConfigurationFileTests {
  func read(_ text: String) throws -> Configuration {
    try ConfigurationFile.parse(Array(text.utf8), path: "crease.json")
  }

  func failure(_ text: String) -> String? {
    do {
      _ = try read(text)
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test("an empty object gives the SPEC's defaults")
  func defaults() throws {
    let configuration = try read("{}")
    #expect(configuration == .default)
    #expect(configuration.reorderWindow == .milliseconds(50))
    #expect(configuration.hinge.statusMaxWait == .milliseconds(150))
    #expect(configuration.hinge.boundaries == [Boundary(name: "flat", below: 135, above: 145)])
    #expect(configuration.camera.maskMax == .milliseconds(500))
  }

  @Test("the sample configuration in Examples/ states exactly the defaults")
  func sampleStatesDefaults() throws {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    let sample = try ConfigurationFile.read(try FileSource(path: path + "/Examples/configuration.json"))
    #expect(sample == .default)
  }

  @Test("every key is read, durations in ms (fractions allowed) and angles in degrees")
  func everyKey() throws {
    let configuration = try read(
      """
      {"reorderWindowMs": 20, "reorderBufferLimit": 500,
       "hinge": {"statusDebounceMs": 40, "statusMaxWaitMs": 0, "settleMs": 250.5, "motionDeadbandDeg": 5,
                 "fullyOpenZoneDeg": 10, "settleToleranceDeg": 0.5, "progressFullDeg": 170, "progressMaxRateHz": 30,
                 "boundaries": [{"name": "tent", "below": 60, "above": 70}]},
       "camera": {"gapFactor": 1.8, "switchWindowMs": 300, "stallFactor": 4, "maskMaxMs": 400}}
      """)
    #expect(configuration.reorderWindow == .milliseconds(20))
    #expect(configuration.reorderBufferLimit == 500)
    #expect(configuration.hinge.statusMaxWait == .zero)
    #expect(configuration.hinge.settle == Nanoseconds(250_500_000))
    #expect(configuration.hinge.boundaries == [Boundary(name: "tent", below: 60, above: 70)])
    #expect(configuration.hinge.progressMaxRateHz == 30)
    #expect(configuration.camera.gapFactor == 1.8)
    #expect(configuration.camera.switchWindow == .milliseconds(300))
  }

  @Test(
    "bad files name the key, the reason and the place",
    arguments: [
      (
        #"{"hinge": {"setleMs": 10}}"#,
        "crease.json:1:23: error: unknown key 'hinge.setleMs'. Did you mean 'settleMs'?"
      ),
      (
        #"{"reorderWindow": 10}"#,
        "crease.json:1:19: error: unknown key 'reorderWindow'. Did you mean 'reorderWindowMs'?"
      ),
      (
        #"{"camera": {"maskMaxMs": "x"}}"#,
        "crease.json:1:26: error: 'camera.maskMaxMs' must be a number, not a string"
      ),
      ("{\n  \"hinge\": [1]\n}", "crease.json:2:12: error: 'hinge' must be an object, not an array"),
      (
        #"{"hinge": {"statusDebounceMs": -5}}"#,
        "crease.json: error: hinge.statusDebounceMs: must not be negative"
      ),
      (
        #"{"hinge": {"boundaries": [{"name": "a", "below": 10, "above": 5}]}}"#,
        "crease.json: error: hinge.boundaries[0].below: must be less than above (10.0 is not less than 5.0)"
      ),
      (
        #"{"reorderBufferLimit": 0}"#,
        "crease.json: error: reorderBufferLimit: must be a whole number, 1 or more"
      ),
      (
        #"{"reorderBufferLimit": 1.5}"#,
        "crease.json:1:24: error: 'reorderBufferLimit' must be an integer, not a fractional number"
      ),
      (
        #"{"camera": {"gapFactor": NaN}}"#,
        "crease.json:1:26: error: 'camera.gapFactor' must be a finite number"
      ),
      (
        "{\n  \"hinge\": {,}\n}",
        "crease.json:2:13: error: invalid JSON: quoted object property name expected"
      ),
      (#"[]"#, "crease.json:1:1: error: a configuration must be a JSON object"),
    ] as [(String, String)])
  func badFiles(text: String, message: String) {
    #expect(failure(text) == message)
  }
}
