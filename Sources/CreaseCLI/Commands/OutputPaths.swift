import CreaseIO
import Glibc

/// The files a command will write, checked against each other and its inputs before any is
/// opened (SPEC 7: nothing a user owns is destroyed).
enum OutputPaths {
  /// Refuses an output that is the same file (device and inode, or the same path once its folder
  /// is resolved) as an input or another output. `-`, devices and FIFOs are not files a run can
  /// destroy, so they may repeat.
  static func refuseOverlaps(_ outputs: [(option: String, path: String)], inputs: [String]) throws(UsageError)
  {
    var seen: [(what: String, identity: String)] = inputs.compactMap { path in
      identity(of: path).map { ("input '\(path)'", $0) }
    }
    for output in outputs {
      guard let identity = identity(of: output.path) else { continue }
      if let clash = seen.first(where: { $0.identity == identity }) {
        throw UsageError(
          "'\(output.option) \(output.path)' is the same file as \(clash.what); it would be destroyed.")
      }
      seen.append(("'\(output.option) \(output.path)'", identity))
    }
  }

  /// What makes two paths the same file, or `nil` for standard streams, devices and FIFOs.
  private static func identity(of path: String) -> String? {
    guard path != "-" else { return nil }
    var status = stat()
    if stat(path, &status) == 0 {
      guard (status.st_mode & S_IFMT) == S_IFREG else { return nil }
      return "\(status.st_dev):\(status.st_ino)"
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard let resolved = realpath(folder, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved) + "/" + name
  }
}

/// Where a command's `-o` goes: a file replaced when complete, or standard output for `-`.
struct OutputTarget {
  let sink: ByteSink
  private let file: ReplacedFile?

  /// Opens `path` (`-` is standard output); a file is written in place when `inPlace`.
  init(_ path: String, streams: StandardStreams, inPlace: Bool = false) throws {
    file = path == "-" ? nil : try ReplacedFile(path: path, inPlace: inPlace)
    sink = file?.sink ?? streams.output
  }

  /// Flushes what was written, and moves a file into place.
  func commit() throws {
    try sink.flush()
    try file?.commit()
  }
}
