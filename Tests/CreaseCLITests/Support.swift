import CreaseCLI
import CreaseIO
import Foundation
import Glibc

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
