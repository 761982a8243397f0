/// libFuzzer target: a binary trace through the replay and conversions, invariants checked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinary(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzChecks.binary(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
