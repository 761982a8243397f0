/// Where a socket output goes (SPEC 6): `tcp://HOST:PORT` (a stream, one line per event or
/// cue), `udp://HOST:PORT` (one datagram a line) or `unix:PATH` (a stream socket). A host may
/// be a name, an IPv4 address or a bracketed IPv6 literal (`tcp://[::1]:9000`).
public enum SocketAddress: Hashable, Sendable, CustomStringConvertible {
  /// A TCP connection.
  case tcp(host: String, port: String)
  /// UDP datagrams to one address.
  case udp(host: String, port: String)
  /// A Unix-domain stream socket.
  case unix(path: String)

  /// The address `text` spells, or `nil` when it names no socket (a file path).
  public init?(_ text: String) {
    if text.hasPrefix("unix:") {
      let path = String(text.dropFirst("unix:".count))
      guard !path.isEmpty else { return nil }
      self = .unix(path: path)
      return
    }
    let isTCP = text.hasPrefix("tcp://")
    guard isTCP || text.hasPrefix("udp://") else { return nil }
    let rest = text.dropFirst("tcp://".count)
    let host: Substring
    let port: Substring
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix(":") else {
        return nil
      }
      host = rest[rest.index(after: rest.startIndex)..<close]
      port = rest[rest.index(close, offsetBy: 2)...]
    } else {
      guard let colon = rest.lastIndex(of: ":") else { return nil }
      host = rest[..<colon]
      port = rest[rest.index(after: colon)...]
    }
    guard !host.isEmpty, let number = Int(port), (1...65535).contains(number) else { return nil }
    self = isTCP ? .tcp(host: String(host), port: String(port)) : .udp(host: String(host), port: String(port))
  }

  /// The address as it was given.
  public var description: String {
    switch self {
    case .tcp(let host, let port): "tcp://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    case .udp(let host, let port): "udp://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    case .unix(let path): "unix:\(path)"
    }
  }
}
