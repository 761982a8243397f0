/// libFuzzer target: a scenario file; a valid one writes back to itself and generates a trace.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzChecks.scenario(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
