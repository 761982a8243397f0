import CreaseIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  ///
  /// A descriptor among 0, 1 and 2 that the process was started without is opened on
  /// `/dev/null` first: otherwise the next file opened would take its number, and cues meant for
  /// standard output would land in it. The signals that end a run are unblocked, should the
  /// parent have started the process with them blocked.
  public static func process() -> StandardStreams {
    InterruptCleanup.unblockSignals()
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      // `open` takes the lowest free number: this one, as the lower ones are open by now.
      _ = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
    }
    return StandardStreams(
      input: FileSource.standardInput(), output: FileSink.standardOutput(), error: FileSink.standardError())
  }
}
