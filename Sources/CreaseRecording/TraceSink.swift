/// Where a ``TraceRecorder`` writes: the app's file, buffer or upload, one whole line at a time.
public protocol TraceSink {
  /// What a write can fail with: `Never` for memory, the app's own error for a file or an
  /// upload; `any Error` when not said.
  associatedtype Failure: Error = any Error

  /// Takes one trace line, newline included. The bytes are valid only during the call.
  mutating func write(_ line: UnsafeRawBufferPointer) throws(Failure)
}
