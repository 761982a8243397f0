/// libFuzzer target: a configuration file; a valid one must replay a trace of every kind.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzChecks.configuration(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
