/// libFuzzer target: the fast JSON path against json-c on every line of the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFastPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzChecks.fastPath(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
