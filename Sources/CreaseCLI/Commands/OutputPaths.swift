import CreaseIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files a command will write, checked against each other and its inputs before any is
/// opened (SPEC 7: nothing a user owns is destroyed).
enum OutputPaths {
  /// Refuses an output that is the same file (device and inode, or the same path once its folder
  /// is resolved) as an input or another output. `-` is the file standard input or output is
  /// redirected from or to, if any; devices, FIFOs and pipes are not files a run can destroy,
  /// so they may repeat.
  static func refuseOverlaps(
    _ outputs: [(option: String, path: String)], inputs: [String], streams: StandardStreams
  ) throws(UsageError) {
    for output in outputs { try checkAddress(output.path, option: output.option) }
    var seen: [(what: String, identity: Identity)] = inputs.compactMap { path in
      let identity = path == "-" ? streams.input.fileIdentity.map(Identity.file) : Identity(path: path)
      return identity.map { (path == "-" ? "standard input" : "input '\(path)'", $0) }
    }
    for output in outputs {
      let identity =
        output.path == "-" ? streams.output.fileIdentity.map(Identity.file) : Identity(path: output.path)
      guard let identity else { continue }
      let what = output.path == "-" ? "standard output" : "'\(output.option) \(output.path)'"
      if let clash = seen.first(where: { $0.identity == identity }) {
        throw UsageError(
          "\(what.prefix(1).uppercased())\(what.dropFirst()) is the same file as \(clash.what); it would be destroyed."
        )
      }
      seen.append((what, identity))
    }
  }

  /// Refuses an output that is an address spelled wrong (`tcp://host:0`, `unix:`, `http://…`):
  /// such a name is never a file's.
  static func checkAddress(_ path: String, option: String) throws(UsageError) {
    if case .invalid(let reason) = SocketAddress.parse(path) {
      throw UsageError("'\(option) \(path)': \(reason).")
    }
  }

  /// What makes two paths the same file.
  private enum Identity: Equatable {
    /// An existing regular file.
    case file(FileIdentity)
    /// A path that does not exist yet, with its folder resolved.
    case path(String)

    /// The identity of `path`, or `nil` for devices and FIFOs.
    init?(path: String) {
      if let file = FileIdentity(path: path) {
        self = .file(file)
        return
      }
      var status = stat()
      guard stat(path, &status) != 0 else { return nil }
      let slash = path.lastIndex(of: "/")
      let folder = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
      let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
      guard let resolved = realpath(folder, nil) else {
        self = .path(path)
        return
      }
      defer { free(resolved) }
      self = .path(String(cString: resolved) + "/" + name)
    }
  }
}

/// Where a command's `-o` goes: a file replaced when complete, standard output for `-`, or a
/// socket (`tcp://`, `udp://`, `unix:`).
struct OutputTarget {
  let sink: ByteSink
  private let file: ReplacedFile?

  /// Opens `path` (`-` is standard output); a file is written in place when `inPlace`.
  init(_ path: String, streams: StandardStreams, inPlace: Bool = false) throws {
    if let address = SocketAddress(path) {
      file = nil
      sink = try SocketSink(connectingTo: address)
      return
    }
    file = path == "-" ? nil : try ReplacedFile(path: path, inPlace: inPlace)
    sink = file?.sink ?? streams.output
  }

  /// Flushes what was written, and moves a file into place.
  func commit() throws {
    try sink.flush()
    try file?.commit()
  }
}
