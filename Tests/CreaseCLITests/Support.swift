import CreaseCLI
import CreaseIO
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one in-process run of `crease` produced.
struct CreaseRun {
  var status: ExitCode
  var output: String
  var error: String

  init(_ arguments: [String], input: [UInt8] = []) {
    let output = MemorySink()
    let error = MemorySink()
    let streams = StandardStreams(input: MemorySource(input, name: "<stdin>"), output: output, error: error)
    status = CreaseCommand.run(arguments, streams: streams)
    self.output = output.text
    self.error = error.text
  }

  init(_ arguments: String..., input: String = "") {
    self.init(arguments, input: Array(input.utf8))
  }
}

/// The repository's root, found from this file's path.
let repositoryRoot: String = {
  var path = #filePath
  for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
  return path
}()

/// The `crease` that `swift build` put beside the tests (in the build path in use, so
/// `--build-path` works too).
let creaseExecutable: String = {
  var path = CommandLine.arguments[0]
  while !path.isEmpty {
    path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    if access(path + "/crease", X_OK) == 0 { return path + "/crease" }
  }
  return "\(repositoryRoot)/.build/debug/crease"
}()

/// A path in the bundled `Traces/` folder.
func tracePath(_ name: String) -> String { "\(repositoryRoot)/Traces/\(name)" }

/// A fresh, empty temporary directory for files a test writes, removed when the test process
/// exits (tests run in parallel, so each gets its own).
func temporaryDirectory() -> String {
  var template = Array("/tmp/crease-test-XXXXXX".utf8CString)
  let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
  TemporaryDirectories.shared.add(path)
  return path
}

/// The directories tests made, removed at exit.
final class TemporaryDirectories: @unchecked Sendable {
  static let shared = TemporaryDirectories()
  private let lock = NSLock()
  private var paths: [String] = []

  private init() {
    atexit { TemporaryDirectories.shared.removeAll() }
  }

  func add(_ path: String) {
    lock.withLock { paths.append(path) }
  }

  func removeAll() {
    for path in lock.withLock({ paths }) { removeDirectory(path) }
  }
}

/// Removes a directory `temporaryDirectory()` made, with what is in it.
func removeDirectory(_ path: String) {
  try? FileManager.default.removeItem(atPath: path)
}

/// The contents of a file as text, or nil.
func contents(of path: String) -> String? {
  bytes(of: path).map { String(decoding: $0, as: UTF8.self) }
}

/// The bytes of a file, or nil.
func bytes(of path: String) -> [UInt8]? {
  guard let source = try? FileSource(path: path) else { return nil }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while let count = try? chunk.withUnsafeMutableBytes({ try source.read(into: $0) }), count > 0 {
    bytes += chunk[..<count]
  }
  return bytes
}

/// Writes `text` to `path`.
func write(_ text: String, to path: String) throws {
  let sink = try FileSink(creatingFileAt: path)
  try sink.write(text)
  try sink.flush()
}

extension CreaseRun {
  /// A run with the given standard input and output (a file, a pipe), its error in memory.
  init(_ arguments: [String], input: ByteSource, output: ByteSink) {
    let error = MemorySink()
    status = CreaseCommand.run(
      arguments, streams: StandardStreams(input: input, output: output, error: error))
    self.output = (output as? MemorySink)?.text ?? ""
    self.error = error.text
  }
}

/// Runs `script` with `/bin/sh -c` in `directory`, `$CREASE` naming the built `crease`: for what
/// only a process shows (signals, closed descriptors, resource limits). Its output and error
/// are returned together; a script that needs more bounds its own run time with `timeout`.
func shell(_ script: String, in directory: String) throws -> (
  status: Int32, reason: Process.TerminationReason, output: String
) {
  try runProcess("/bin/sh", ["-c", script], in: directory, environment: ["CREASE": creaseExecutable])
}

/// Runs `crease` with `arguments` in `directory` as a child of a small Python parent, which
/// reports its exit status and its peak resident memory in KB as the parent sees it
/// (`RUSAGE_CHILDREN`): memory measured from outside, as a user's `time -v` would.
func peakOfCrease(_ arguments: [String], in directory: String) throws -> (status: Int, peakKB: Int) {
  let parent = """
    import os, resource, subprocess
    arguments = os.environ["CREASE_ARGUMENTS"].split("\\x1f")
    status = subprocess.run([os.environ["CREASE"]] + arguments, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL).returncode
    print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    """
  let run = try runProcess(
    "/usr/bin/env", ["python3", "-c", parent], in: directory,
    environment: ["CREASE": creaseExecutable, "CREASE_ARGUMENTS": arguments.joined(separator: "\u{1f}")])
  let fields = run.output.split(separator: " ").compactMap {
    Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
  }
  guard fields.count == 2 else { throw CocoaError(.fileReadCorruptFile, userInfo: ["output": run.output]) }
  return (fields[0], fields[1])
}

/// Runs the program at `path` to its end, its output and error read together.
func runProcess(
  _ path: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
) throws -> (status: Int32, reason: Process.TerminationReason, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  let output = Pipe()
  process.standardOutput = output
  process.standardError = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, process.terminationReason, String(decoding: data, as: UTF8.self))
}

/// The names in `directory`, sorted.
func listing(_ directory: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
}

/// `write(2)` of all of `bytes` to `descriptor`, by its C name in either C library: a test whose
/// own helper is called `write` cannot call the system's unqualified.
func writeDescriptor(_ descriptor: Int32, _ bytes: [UInt8]) -> Int {
  write(descriptor, bytes, bytes.count)
}

/// `pipe(2)`: the read and write ends, or `nil`.
func makePipe() -> (read: Int32, write: Int32)? {
  var ends: [Int32] = [0, 0]
  return pipe(&ends) == 0 ? (ends[0], ends[1]) : nil
}

/// Standard input that is a terminal: a person at the keyboard, typing nothing.
final class TerminalInput: ByteSource {
  let name = "<stdin>"
  var isTerminal: Bool { true }
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { 0 }
}
