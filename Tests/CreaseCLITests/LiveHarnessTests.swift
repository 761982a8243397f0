import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `crease` child whose standard input a test writes on a wall-clock schedule, and whose
/// standard output it reads as it comes, each line with the wall time it arrived.
final class LiveChild: @unchecked Sendable {
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let lock = NSLock()
  private var lines: [(text: String, at: Double)] = []
  private var pending = Data()
  private let finished = DispatchSemaphore(value: 0)
  /// The wall clock the schedule and the arrivals are measured on, in seconds from the start.
  let start = DispatchTime.now()

  init(_ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: creaseExecutable)
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let handle = output.fileHandleForReading
    Thread { [self] in
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        received(chunk)
      }
      finished.signal()
    }.start()
  }

  /// Seconds since the child started, on the monotonic clock.
  var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }

  private func received(_ chunk: Data) {
    let now = elapsed
    lock.withLock {
      pending.append(chunk)
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append((String(decoding: pending[pending.startIndex..<newline], as: UTF8.self), now))
        pending.removeSubrange(pending.startIndex...newline)
      }
    }
  }

  /// Writes `line` and a newline once `seconds` have passed since the start.
  func write(_ line: String, at seconds: Double) {
    let wait = seconds - elapsed
    if wait > 0 { usleep(UInt32(wait * 1e6)) }
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
  }

  /// The lines read so far, with the second each arrived.
  var received: [(text: String, at: Double)] { lock.withLock { lines } }

  /// The bytes read after the last newline: a line cut short.
  var unfinished: Int { lock.withLock { pending.count } }

  /// Closes the child's input and waits for it to end and its output to be read.
  func finish() -> Int32 {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    finished.wait()
    return process.terminationStatus
  }
}

/// A process that keeps a core busy while a live test runs: the ordinary scheduling delay.
final class BusyNeighbour {
  private let process = Process()

  init() throws {
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "while :; do :; done"]
    try process.run()
  }

  deinit {
    // SIGKILL: a shell started from a test runner's thread may inherit SIGTERM blocked.
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}

@Suite("Live input, tested live: a child fed on a wall-clock schedule", .serialized)
struct LiveHarnessTests {
  /// 1.4 s of an opening hinge at 100 Hz and frames at 30 fps, stamped on the schedule, with
  /// the camera stopped at 0.6 s and everything quiet from then until 1.2 s: the settle cue
  /// (0.8 s) is due in the quiet, where only idle advance can bring it.
  static func schedule() -> [(line: String, at: Double)] {
    var lines: [(String, Double)] = [
      (#"{"kind":"header","format":"crease-trace","version":1,"streams":{"video":{"fps":30}}}"#, 0)
    ]
    var events: [(t: Int64, line: String)] = []
    for step in 0...50 {
      let t = Int64(step) * 10_000_000
      let angle = Double(min(step, 45)) * 2
      let status = step < 10 ? "closed" : "partiallyOpen"
      events.append((t, #"{"t":\#(t),"kind":"hinge","angle":\#(angle),"status":"\#(status)"}"#))
    }
    for frame in 0..<18 {
      let t = Int64(frame) * 33_333_333
      events.append((t, #"{"t":\#(t),"kind":"frame","pts":\#(t),"camera":"backWide"}"#))
    }
    events.append((600_000_000, #"{"t":600000000,"kind":"session","running":false}"#))
    events.append((1_200_000_000, #"{"t":1200000000,"kind":"mark","label":"back"}"#))
    events.append((1_400_000_000, #"{"t":1400000000,"kind":"mark","label":"last"}"#))
    for event in events.sorted(by: { $0.t < $1.t }) { lines.append((event.line, Double(event.t) / 1e9)) }
    return lines
  }

  @Test(
    "under a busy neighbour, idle advance refuses nothing on time, finds no false gap, and brings the settle cue in the quiet"
  )
  func pacedFeed() throws {
    let directory = temporaryDirectory()
    try write(#"{"reorderWindowMs": 8}"#, to: "\(directory)/crease.json")
    let neighbour = try BusyNeighbour()
    let child = try LiveChild([
      "replay", "-", "--idle-advance", "10", "-c", "\(directory)/crease.json", "--summary-json",
      "\(directory)/summary.json",
    ])
    let schedule = Self.schedule()
    for (line, at) in schedule { child.write(line, at: at) }
    #expect(child.finish() == 0)
    _ = neighbour
    let live = child.received
    let summary = try #require(contents(of: "\(directory)/summary.json"))
    #expect(summary.contains(#""late": 0"#), "no event sent on schedule is late: \(summary)")

    // The same lines, replayed offline, give the same cues.
    try write(schedule.map(\.line).joined(separator: "\n") + "\n", to: "\(directory)/sent.jsonl")
    let offline = CreaseRun("replay", "-c", "\(directory)/crease.json", "\(directory)/sent.jsonl")
    #expect(live.map(\.text) == offline.output.split(separator: "\n").map(String.init))
    #expect(!live.contains { $0.text.contains("camera.gap") }, "no false gap")
    let settled = try #require(live.first { $0.text.contains("hinge.settled") })
    #expect(settled.at < 1.1, "the settle cue (0.8 s) came in the quiet, at \(settled.at) s")
  }

  @Test("an end line releases its cues at once, with the pipe held open")
  func endReleasesAtOnce() throws {
    let child = try LiveChild(["replay", "-"])
    child.write(#"{"t":0,"kind":"hinge","angle":0,"status":"closed"}"#, at: 0)
    child.write(#"{"t":400000000,"kind":"hinge","angle":40,"status":"partiallyOpen"}"#, at: 0)
    child.write(#"{"t":1000000000,"kind":"end"}"#, at: 0)
    let sent = child.elapsed
    // Held open for 2 s; the cues are due at once.
    while child.elapsed < sent + 2 && child.received.count < 3 { usleep(10_000) }
    let early = child.received
    usleep(UInt32(max(0, sent + 2 - child.elapsed) * 1e6))
    #expect(child.finish() == 0)
    let initial = try #require(early.first, "cues came while the pipe was open")
    #expect(initial.text.contains("hinge.initial"))
    #expect(initial.at - sent < 0.5, "within 0.5 s of the end line: \(initial.at - sent) s")
    #expect(early.contains { $0.text.contains("hinge.status") }, "the debounce due before the end came too")
  }

  /// A TCP listener on 127.0.0.1 and its port; the caller closes it.
  static func loopbackListener() throws -> (descriptor: Int32, port: UInt16) {
    let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    try withUnsafeMutablePointer(to: &address) { pointer in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        try #require(bind(listening, address, length) == 0)
        getsockname(listening, address, &length)
      }
    }
    listen(listening, 1)
    return (listening, UInt16(bigEndian: address.sin_port))
  }

  /// Runs `crease arguments`, accepts its connection to `listener`, and hands both to `body`;
  /// the child is killed after.
  static func withConnectedChild<Result>(
    _ arguments: [String], to listener: Int32, stderr: Pipe? = nil, _ body: (Int32) throws -> Result
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: creaseExecutable)
    process.arguments = arguments
    process.standardError = stderr ?? FileHandle.nullDevice
    try process.run()
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    var request = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
    try #require(poll(&request, 1, 10_000) == 1, "crease connected")
    let connection = accept(listener, nil, nil)
    defer { close(connection) }
    return try body(connection)
  }

  @Test("replay --loop 0 to a loopback TCP reader: the cues arrive while it runs")
  func endlessLoopToTCP() throws {
    let (listening, port) = try Self.loopbackListener()
    defer { close(listening) }
    // A hinge that never moves: its cues all come in the first pass, far fewer bytes than a
    // buffer holds, and no later pass adds any. They must reach the reader as the pass ends.
    let trace = temporaryDirectory() + "/still.jsonl"
    try write(
      #"{"t":0,"kind":"hinge","angle":10,"status":"closed"}"# + "\n"
        + #"{"t":1000000,"kind":"hinge","angle":10,"status":"closed"}"# + "\n", to: trace)
    let arguments = ["replay", "--loop", "0", trace, "-o", "tcp://127.0.0.1:\(port)"]
    let text = try Self.withConnectedChild(arguments, to: listening) { connection in
      var reply = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
      var buffer = [UInt8](repeating: 0, count: 4096)
      var received = 0
      let deadline = Date().addingTimeInterval(5)
      while received == 0 && Date() < deadline {
        guard poll(&reply, 1, 100) == 1 else { continue }
        received += max(0, read(connection, &buffer, buffer.count))
      }
      return String(decoding: buffer[..<received], as: UTF8.self)
    }
    #expect(
      text.hasPrefix(#"{"t":0,"since":0,"cue":"hinge.initial""#), "cues within 5 s of a run without end")
  }

  @Test("synth --stats keeps reporting while its reader does not read, and says the output is blocked")
  func statsWhileBlocked() throws {
    let (listening, port) = try Self.loopbackListener()
    defer { close(listening) }
    let errors = Pipe()
    let arguments = [
      "synth", "open-close", "--duration", "0", "--stats", "0.2", "-o", "tcp://127.0.0.1:\(port)",
    ]
    try Self.withConnectedChild(arguments, to: listening, stderr: errors) { _ in
      // The connection is never read: the socket's buffers fill and the writer blocks.
      let handle = errors.fileHandleForReading
      var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
      var text = ""
      let deadline = Date().addingTimeInterval(10)
      while !text.contains("taken nothing") && Date() < deadline {
        guard poll(&ready, 1, 100) == 1 else { continue }
        text += String(decoding: handle.availableData, as: UTF8.self)
      }
      #expect(text.contains("the output has taken nothing for"), "\(text)")
    }
  }

  @Test(
    "SIGTERM stops an endless run after its last whole line: what it wrote is a prefix of the stream, line for line"
  )
  func signalStopsAfterWholeLines() throws {
    let child = try LiveChild(["synth", "open-close", "--duration", "0"])
    while child.received.count < 20_000 && child.elapsed < 10 { usleep(10_000) }
    kill(child.process.processIdentifier, SIGTERM)
    child.process.waitUntilExit()
    _ = child.finish()
    #expect(child.process.terminationReason == .uncaughtSignal)
    #expect(child.process.terminationStatus == SIGTERM)
    #expect(child.unfinished == 0, "no line cut short")
    let lines = child.received.map(\.text)
    #expect(lines.count >= 20_000)
    let expected = CreaseRun("synth", "open-close", "--duration", "0", "--limit", "\(lines.count - 1)")
    #expect(expected.output.split(separator: "\n").map(String.init) == lines)
  }
}
