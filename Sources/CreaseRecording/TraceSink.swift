/// Where a ``TraceRecorder`` writes: the app's file, buffer or upload, one whole line at a time.
public protocol TraceSink {
  /// Takes one trace line, newline included. The bytes are valid only during the call.
  mutating func write(_ line: UnsafeRawBufferPointer) throws
}
