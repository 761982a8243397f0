#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A sink that sends to a connected socket: TCP and Unix streams as written (a slow reader
/// holds the writer back), UDP a datagram per line. A reader that goes away ends the output
/// with ``IOError/Kind-swift.enum/readerClosed``; nothing listening is an ``IOError`` naming the
/// address.
public final class SocketSink: ByteSink {
  /// The address, as given.
  public let address: SocketAddress
  private let descriptor: Int32
  private let isDatagram: Bool
  private var buffer: [UInt8] = []
  /// Datagrams sent, so that a line too long for one is named by its number.
  private var datagrams = 0
  /// The most a UDP datagram carries over IPv4 (65,535 less the IP and UDP headers).
  public static let largestDatagram = 65_507

  /// Connects to `address`.
  /// - Throws: ``IOError`` naming the address when nothing listens there or it cannot be reached.
  public init(connectingTo address: SocketAddress) throws {
    self.address = address
    switch address {
    case .unix(let path):
      isDatagram = false
      descriptor = try Self.connectUnix(path, name: address.description)
    case .tcp(let host, let port):
      isDatagram = false
      descriptor = try Self.connect(host: host, port: port, datagram: false, name: address.description)
    case .udp(let host, let port):
      isDatagram = true
      descriptor = try Self.connect(host: host, port: port, datagram: true, name: address.description)
    }
    #if canImport(Darwin)
      var on: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  /// Buffers `bytes`; whole lines go out at each ``flush()`` (the pacer flushes every line).
  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { try flush() }
  }

  /// Sends what is buffered: a stream as it is, datagrams a line each (up to the last newline).
  public func flush() throws {
    guard !buffer.isEmpty else { return }
    guard isDatagram else {
      try buffer.withUnsafeBytes { try send($0) }
      buffer.removeAll(keepingCapacity: true)
      return
    }
    var start = 0
    while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
      let count = newline + 1 - start
      guard count <= Self.largestDatagram else {
        throw IOError(
          path: address.description,
          reason:
            "line \(datagrams + 1) is \(count) bytes, more than a UDP datagram carries (\(Self.largestDatagram))"
        )
      }
      try buffer.withUnsafeBytes { try send(UnsafeRawBufferPointer(rebasing: $0[start...newline])) }
      datagrams += 1
      start = newline + 1
    }
    buffer.removeFirst(start)
  }

  private func send(_ bytes: UnsafeRawBufferPointer) throws {
    var offset = 0
    repeat {
      #if canImport(Glibc)
        let sent = Glibc.send(
          descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      #else
        let sent = Darwin.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, 0)
      #endif
      if sent < 0 {
        if errno == EINTR {
          // Stopped between chunks, the output ends with whole lines; within one, the rest of
          // the chunk is written first (a second signal ends the process at once).
          if offset == 0 { try InterruptCleanup.checkStop() }
          continue
        }
        if errno == EPIPE || errno == ECONNRESET {
          throw IOError(
            kind: .readerClosed, path: address.description, reason: "the reader closed the connection")
        }
        if errno == ECONNREFUSED { throw IOError(path: address.description, reason: "nothing listens there") }
        throw IOError.fromErrno(address.description)
      }
      offset += sent
    } while offset < bytes.count
  }

  private static func connect(host: String, port: String, datagram: Bool, name: String) throws -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32((datagram ? SOCK_DGRAM : SOCK_STREAM).rawValue)
    #else
      hints.ai_socktype = datagram ? SOCK_DGRAM : SOCK_STREAM
    #endif
    var found: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, port, &hints, &found)
    guard status == 0, let first = found else {
      throw IOError(path: name, reason: "cannot resolve the host: \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(first) }
    var reason = "no address"
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let info = candidate {
      candidate = info.pointee.ai_next
      let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
      guard descriptor >= 0 else { continue }
      if connectSocket(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return descriptor }
      reason = errno == ECONNREFUSED ? "nothing listens there" : String(cString: strerror(errno))
      close(descriptor)
    }
    throw IOError(path: name, reason: reason)
  }

  private static func connectUnix(_ path: String, name: String) throws -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      throw IOError(
        path: name, reason: "the path is longer than a socket address holds (\(capacity - 1) bytes)")
    }
    // Safe because the path and its NUL fit: `bytes.count < capacity` is checked above.
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    #if canImport(Glibc)
      let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw IOError.fromErrno(name) }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connectSocket(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let reason =
        errno == ECONNREFUSED || errno == ENOENT ? "nothing listens there" : String(cString: strerror(errno))
      close(descriptor)
      throw IOError(path: name, reason: reason)
    }
    return descriptor
  }

  deinit {
    try? flush()
    close(descriptor)
  }
}

/// The C library's `connect`, which the class's own names would hide.
private func connectSocket(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t)
  -> Int32
{
  connect(descriptor, address, length)
}
