import Crease
import CreaseCLI
import CreaseIO
import CreaseRecording
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The same acceptance and values as json-c, down to duplicate keys.

@Suite("The same acceptance and values as json-c")
struct DuplicateKeyTests {
  @Test(
    "of a key given twice the last counts, as json-c keeps it, even when it saturates",
    arguments: [
      #"{"t":5,"kind":"mark","label":"x","t":-9223372036854775808}"#,
      #"{"t":5,"kind":"mark","label":"x","\u0074":-9223372036854775808}"#,
      #"{"t":5,"kind":"mark","label":"x","t":9223372036854775808}"#,
    ])
  func lastOfTwice(line: String) {
    let run = CreaseRun("replay", "-", input: line + "\n")
    #expect(run.status == .dataError)
    #expect(run.output.isEmpty, "not accepted at t = 5")
    #expect(run.error.contains("'t'"), "\(run.error)")
  }

  @Test("a key given twice whose last value is good is taken with that value")
  func goodLast() {
    let run = CreaseRun("replay", "-", input: #"{"t":-1,"kind":"mark","label":"y","t":7}"# + "\n")
    #expect(run.status == .success)
    #expect(run.output == #"{"t":7,"since":7,"cue":"mark","label":"y"}"# + "\n")
  }

  @Test("a configuration key given twice: the last, and the error names its place")
  func configurationTwice() throws {
    let directory = temporaryDirectory()
    try write(#"{"reorderWindowMs":50,"reorderWindowMs":99999999999999999999}"#, to: "\(directory)/c.json")
    let run = CreaseRun("replay", "-c", "\(directory)/c.json", tracePath("every-kind.jsonl"))
    #expect(run.status == .configuration)
    #expect(run.error.contains("c.json:1:41:"), "\(run.error)")
  }
}
