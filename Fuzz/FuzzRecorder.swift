import Crease
import CreaseIO

/// libFuzzer target: recorder calls spelled by the input; every line written must read back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecorder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzChecks.recorder(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
