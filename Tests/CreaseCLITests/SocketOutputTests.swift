import CreaseCLI
import CreaseIO
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A listener on loopback (127.0.0.1, ::1 or a Unix path) that takes one connection, or
/// datagrams, and keeps what arrives until the sender is done or it has `closingAfter` bytes.
final class LoopbackListener: @unchecked Sendable {
  enum Kind { case tcp4, tcp6, udp, unix(String) }

  let descriptor: Int32
  let address: String
  private let inbox = Inbox()
  private let thread: Thread

  init(_ kind: Kind, closingAfter limit: Int? = nil) throws {
    var port: UInt16 = 0
    let listening: Int32
    switch kind {
    case .tcp4, .udp:
      listening = socket(AF_INET, Self.type(kind), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      try Self.bind(listening, &address)
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
      }
      port = UInt16(bigEndian: address.sin_port)
    case .tcp6:
      listening = socket(AF_INET6, Self.type(kind), 0)
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_addr = in6addr_loopback
      try Self.bind(listening, &address)
      var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
      _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
      }
      port = UInt16(bigEndian: address.sin6_port)
    case .unix(let path):
      listening = socket(AF_UNIX, Self.type(kind), 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
      try Self.bind(listening, &address)
    }
    switch kind {
    case .tcp4: address = "tcp://127.0.0.1:\(port)"
    case .tcp6: address = "tcp://[::1]:\(port)"
    case .udp: address = "udp://127.0.0.1:\(port)"
    case .unix(let path): address = "unix:\(path)"
    }
    let isDatagram: Bool
    if case .udp = kind { isDatagram = true } else { isDatagram = false }
    descriptor = listening
    var size: Int32 = 8 << 20
    setsockopt(listening, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    if !isDatagram { listen(listening, 1) }
    let inbox = inbox
    thread = Thread { inbox.receive(from: listening, isDatagram: isDatagram, limit: limit) }
    thread.start()
  }

  private static func type(_ kind: Kind) -> Int32 {
    #if canImport(Glibc)
      if case .udp = kind { return Int32(SOCK_DGRAM.rawValue) }
      return Int32(SOCK_STREAM.rawValue)
    #else
      if case .udp = kind { return SOCK_DGRAM }
      return SOCK_STREAM
    #endif
  }

  private static func bind<Address>(_ descriptor: Int32, _ address: inout Address) throws {
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bindSocket(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
      }
    }
    guard result == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
  }

  /// What arrives, filled by the listener's thread and read once it is done.
  private final class Inbox: @unchecked Sendable {
    var received: [UInt8] = []
    var datagrams = 0
    let done = DispatchSemaphore(value: 0)

    func receive(from descriptor: Int32, isDatagram: Bool, limit: Int?) {
      defer { done.signal() }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      if isDatagram {
        // Datagrams until none comes for a second: the sender has finished.
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while case let count = recv(descriptor, &chunk, chunk.count, 0), count > 0 {
          received += chunk[..<count]
          datagrams += 1
        }
        return
      }
      let connection = accept(descriptor, nil, nil)
      guard connection >= 0 else { return }
      defer { close(connection) }
      while limit.map({ received.count < $0 }) ?? true,
        case let count = recv(connection, &chunk, chunk.count, 0),
        count > 0
      {
        received += chunk[..<count]
      }
    }

  }

  /// What arrived, once the sender is done (or the listener closed); and how many datagrams.
  func result() -> (bytes: [UInt8], datagrams: Int) {
    inbox.done.wait()
    close(descriptor)
    return (inbox.received, inbox.datagrams)
  }
}

@Suite("Socket outputs, endless and bounded runs")
struct SocketOutputTests {
  static let synth = ["synth", "open-close", "--duration", "3"]

  @Test("tcp (IPv4 and IPv6) and unix listeners receive exactly what -o FILE gets")
  func streams() throws {
    let expected = Array(CreaseRun(Self.synth).output.utf8)
    let socketPath = temporaryDirectory() + "/crease.sock"
    for kind in [LoopbackListener.Kind.tcp4, .tcp6, .unix(socketPath)] {
      let listener = try LoopbackListener(kind)
      let run = CreaseRun(Self.synth + ["-o", listener.address])
      #expect(run.status == .success, "\(listener.address): \(run.error)")
      #expect(listener.result().bytes == expected, "\(listener.address)")
    }
  }

  @Test("a paced replay sends its cues over tcp as they come, the lines -o FILE gets")
  func pacedReplay() throws {
    let trace = tracePath("open-close.jsonl")
    let listener = try LoopbackListener(.tcp4)
    let run = CreaseRun("replay", trace, "--speed", "1000", "-o", listener.address)
    #expect(run.status == .success, "\(run.error)")
    #expect(listener.result().bytes == Array(CreaseRun("replay", trace).output.utf8))
  }

  @Test("udp: a datagram a line, none lost on loopback")
  func datagrams() throws {
    let expected = CreaseRun(Self.synth).output
    let listener = try LoopbackListener(.udp)
    let run = CreaseRun(Self.synth + ["--speed", "50", "-o", listener.address])
    #expect(run.status == .success, "\(run.error)")
    let (bytes, datagrams) = listener.result()
    #expect(String(decoding: bytes, as: UTF8.self) == expected)
    #expect(datagrams == expected.split(separator: "\n").count)
  }

  @Test("a reader that closes mid-run ends it with exit 0; nothing listening is exit 74, named")
  func readerGoneAndNobodyThere() throws {
    let listener = try LoopbackListener(.tcp4, closingAfter: 10_000)
    let run = CreaseRun("synth", "day", "-o", listener.address)
    #expect(run.status == .success, "\(run.error)")
    #expect(run.error.isEmpty)
    #expect(listener.result().bytes.count >= 10_000)
    // The listener is gone now: its port refuses.
    let refused = CreaseRun(Self.synth + ["-o", listener.address])
    #expect(refused.status == .ioError)
    #expect(refused.error.contains("crease: \(listener.address): nothing listens there"))
  }

  @Test("synth --duration 0 runs pass after pass, time going on, until --limit")
  func endlessSynth() throws {
    let run = CreaseRun("synth", "open-close", "--duration", "0", "--limit", "2000")
    #expect(run.status == .success, "\(run.error)")
    let lines = run.output.split(separator: "\n")
    #expect(lines.count == 2001, "the header and 2,000 events")
    #expect(!run.output.contains(#""kind":"end""#), "no pass ends the run")
    let times = try lines.dropFirst().map { line in
      try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["t"] as? Int)
    }
    #expect(times == times.sorted())
    #expect(times.last! > 10_000_000_000, "past the first 10 s pass")
    // The first pass is the scenario itself.
    #expect(
      run.output.hasPrefix(
        CreaseRun("synth", "open-close").output.split(separator: "\n").prefix(100)
          .joined(separator: "\n")))
  }

  @Test("--stats reports events sent and their rate on standard error, the output unchanged")
  func stats() throws {
    // An interval of a microsecond: the first check, at 1,024 events, reports.
    let run = CreaseRun("synth", "day", "--limit", "3000", "--stats", "0.000001")
    #expect(run.status == .success)
    #expect(run.error.contains("crease synth: 1024 events in ") && run.error.contains("/s"), "\(run.error)")
    #expect(run.output == CreaseRun("synth", "day", "--limit", "3000").output)
  }

  @Test("replay --loop 0 stopped by SIGTERM leaves complete lines only")
  func endlessReplayStopped() throws {
    let output = temporaryDirectory() + "/loop.jsonl"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: creaseExecutable)
    process.arguments = ["replay", "--loop", "0", tracePath("open-close.jsonl"), "-o", output]
    try process.run()
    // Until a few loops are out, at most 30 s: the loops, not the clock, decide.
    func size() -> Int { ((try? FileManager.default.attributesOfItem(atPath: output))?[.size] as? Int) ?? 0 }
    let deadline = Date().addingTimeInterval(30)
    while size() < 200_000 && Date() < deadline { usleep(20_000) }
    process.terminate()
    // SIGTERM must end it; should it not, the test still ends, and says so.
    let stopBy = Date().addingTimeInterval(10)
    while process.isRunning && Date() < stopBy { usleep(20_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      Issue.record("SIGTERM did not stop replay --loop 0")
    }
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    let text = try #require(contents(of: output))
    #expect(text.utf8.count >= 200_000)
    #expect(text.hasSuffix("\n"))
    for line in text.split(separator: "\n") {
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
    }
  }
}

/// The C library's `bind`, which the listener's own `bind` hides inside the class.
private func bindSocket(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32
{
  bind(descriptor, address, length)
}

@Suite("Socket addresses: an address or a usage error, never a file")
struct SocketAddressTests {
  @Test(
    "an address spelled wrong is exit 64 naming what is wrong, and no file is written, whatever folders exist",
    arguments: [
      ("tcp://127.0.0.1:0", "the port '0'"), ("tcp://h:65536", "the port '65536'"),
      ("udp://h:-1", "the port '-1'"),
      ("tcp://:9000", "no host"), ("tcp://host", "no port"), ("unix:", "needs the socket's path"),
      ("http://example.com/x", "'http' is not an output's scheme"), ("udp://[::1:5", "in brackets"),
    ])
  func malformed(address: String, reason: String) throws {
    let directory = temporaryDirectory()
    // A folder named like the scheme, so that a file path would have been writable.
    try FileManager.default.createDirectory(atPath: "\(directory)/tcp:", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: "\(directory)/udp:", withIntermediateDirectories: true)
    for arguments in [
      ["synth", "open-close", "--limit", "1", "-o", address],
      ["replay", tracePath("open-close.jsonl"), "-o", address],
    ] {
      let run = try shell(
        "cd '\(directory)' && $CREASE \(arguments.map { "'\($0)'" }.joined(separator: " ")) 2>&1; echo \"status $?\"",
        in: directory)
      #expect(run.output.contains("status 64"), "\(arguments): \(run.output)")
      #expect(run.output.contains(reason), "\(arguments): \(run.output)")
    }
    let written = try FileManager.default.subpathsOfDirectory(atPath: directory).filter {
      !["tcp:", "udp:"].contains($0)
    }
    #expect(written.isEmpty, "files written: \(written)")
  }

  @Test("a unix: path past the platform's limit is a usage error, not a failed connection")
  func unixPathTooLong() {
    let path = "/tmp/" + String(repeating: "s", count: SocketAddress.longestUnixPath)
    let run = CreaseRun("synth", "open-close", "--limit", "1", "-o", "unix:\(path)")
    #expect(run.status == .usage)
    #expect(
      run.error.contains("more than a Unix socket address holds (\(SocketAddress.longestUnixPath))"),
      "\(run.error)")
  }

  @Test("a line longer than a UDP datagram carries is exit 74 naming the line")
  func udpLineTooLong() throws {
    let directory = temporaryDirectory()
    let label = String(repeating: "x", count: 70_000)
    try write(
      #"{"t":0,"kind":"mark","label":"short"}"# + "\n" + #"{"t":1,"kind":"mark","label":"\#(label)"}"# + "\n",
      to: "\(directory)/long.jsonl")
    // Nothing need listen: the line is refused before it is sent.
    let run = CreaseRun("replay", "\(directory)/long.jsonl", "-o", "udp://127.0.0.1:9")
    #expect(run.status == .ioError)
    #expect(
      run.error.contains("line 2 is 70042 bytes, more than a UDP datagram carries (65507)"), "\(run.error)")
  }
}
