/// An enum whose cases traces and cues spell by name (statuses, cameras, reasons, kinds).
///
/// A type conforms once and gets ``init(name:)`` and ``names``; one backed by its trace names
/// as `String` raw values gets ``name`` too.
public protocol TraceNamed: CaseIterable, Hashable, Sendable {
  /// The name used in traces and cues.
  var name: String { get }
}

extension TraceNamed {
  /// The case with this trace name, or `nil`.
  /// - Complexity: O(*n*) in the number of cases (a handful).
  public init?(name: String) {
    guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }

  /// Every case's name, in declaration order (for messages that list what is allowed).
  public static var names: [String] { allCases.map(\.name) }
}

extension TraceNamed where Self: RawRepresentable, RawValue == String {
  /// The name a trace spells, the case's own.
  public var name: String { rawValue }
}
