/// libFuzzer target: a QuickTime or MP4 movie, as `crease import` reads it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMovie(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzChecks.movie(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
