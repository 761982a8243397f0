import Crease
import CreaseIO

/// libFuzzer target: a JSON Lines trace through the replay, with its invariants checked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzChecks.jsonLines(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
