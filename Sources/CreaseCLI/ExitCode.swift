import CreaseIO

/// The exit statuses of `crease` (SPEC 6), after BSD's sysexits.
public enum ExitCode: Int32, Sendable {
  case success = 0
  /// Anything not covered below.
  case failure = 1
  /// A usage error: `Error: …` then the usage on standard error.
  case usage = 64
  /// Bad input data: at least one line was rejected, or `--strict` stopped.
  case dataError = 65
  /// An input file is missing.
  case noInput = 66
  /// A read or write failed.
  case ioError = 74
  /// A bad configuration file (the key and the reason named).
  case configuration = 78
}

/// The streams a command reads and writes, so tests run commands in-process.
public struct StandardStreams {
  public var input: ByteSource
  public var output: ByteSink
  public var error: ByteSink

  public init(input: ByteSource, output: ByteSink, error: ByteSink) {
    self.input = input
    self.output = output
    self.error = error
  }

  /// The process's standard input, output and error.
  public static func process() -> StandardStreams {
    StandardStreams(
      input: FileSource.standardInput(), output: FileSink.standardOutput(), error: FileSink.standardError())
  }
}
