#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// What an output's name says: a socket address, a file path, or an address spelled wrong.
  public enum Parsed: Hashable, Sendable {
    /// A socket address spelled right.
    case address(SocketAddress)
    /// A path of the file system: it has no scheme (`tcp://`, `udp://`) and is not `unix:`.
    case file
    /// A scheme or `unix:` with the rest wrong, and why.
    case invalid(String)
  }

  /// The address `text` spells, or `nil` when it is a file path or an address spelled wrong
  /// (``parse(_:)`` tells them apart).
  public init?(_ text: String) {
    guard case .address(let address) = Self.parse(text) else { return nil }
    self = address
  }

  /// The longest Unix socket path, in bytes: `sun_path` less its NUL.
  public static var longestUnixPath: Int {
    let address = sockaddr_un()
    return MemoryLayout.size(ofValue: address.sun_path) - 1
  }

  /// Reads `text` as an output's name: anything with a scheme (`NAME://`) or starting `unix:`
  /// is an address, or wrong; anything else a file.
  public static func parse(_ text: String) -> Parsed {
    if text.hasPrefix("unix:") {
      let path = String(text.dropFirst("unix:".count))
      guard !path.isEmpty else {
        return .invalid("'unix:' needs the socket's path, as unix:/tmp/crease.sock")
      }
      guard path.utf8.count <= longestUnixPath else {
        return .invalid(
          "the socket path is \(path.utf8.count) bytes, more than a Unix socket address holds (\(longestUnixPath))"
        )
      }
      return .address(.unix(path: path))
    }
    guard let colon = text.firstIndex(of: ":"), text[text.index(after: colon)...].hasPrefix("//") else {
      return .file
    }
    let scheme = text[..<colon]
    guard let first = scheme.first, first.isLetter,
      scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
    else { return .file }
    guard scheme == "tcp" || scheme == "udp" else {
      return .invalid("'\(scheme)' is not an output's scheme: tcp://HOST:PORT, udp://HOST:PORT or unix:PATH")
    }
    let rest = text[text.index(colon, offsetBy: 3)...]
    let host: Substring
    let port: Substring
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix(":") else {
        return .invalid("an IPv6 host is written in brackets before the port, as \(scheme)://[::1]:9000")
      }
      host = rest[rest.index(after: rest.startIndex)..<close]
      port = rest[rest.index(close, offsetBy: 2)...]
    } else {
      guard let colon = rest.lastIndex(of: ":") else {
        return .invalid("no port: \(scheme)://HOST:PORT, as \(scheme)://127.0.0.1:9000")
      }
      host = rest[..<colon]
      port = rest[rest.index(after: colon)...]
    }
    guard !host.isEmpty else { return .invalid("no host before the port: \(scheme)://HOST:PORT") }
    guard let number = Int(port), (1...65535).contains(number), port.allSatisfy(\.isASCII) else {
      return .invalid("the port '\(port)' is not one a connection can reach (1 to 65535)")
    }
    return .address(
      scheme == "tcp"
        ? .tcp(host: String(host), port: String(port)) : .udp(host: String(host), port: String(port)))
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
