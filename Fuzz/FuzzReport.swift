/// libFuzzer target: a summary or report file, as `crease report` reads it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzChecks.report(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
