extension JSONDocument {
  /// The elements of a ``JSONDocument/generated(_:)`` array: made on demand, one at a time,
  /// each by the same function of its position.
  public struct GeneratedElements: RandomAccessCollection, Hashable, Sendable {
    /// The number of elements.
    public let count: Int
    private let make: @Sendable (Int) -> JSONDocument

    /// `count` elements, the one at each position made by `make`.
    public init(count: Int, _ make: @escaping @Sendable (Int) -> JSONDocument) {
      precondition(count >= 0, "a negative number of elements")
      self.count = count
      self.make = make
    }

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// One past the last position, ``count``.
    public var endIndex: Int { count }

    /// The element at `position`, made now.
    /// - Complexity: what making it costs; nothing is kept.
    public subscript(position: Int) -> JSONDocument {
      precondition(position >= 0 && position < count, "a position outside the elements")
      return make(position)
    }

    /// Whether the two make the same elements.
    /// - Complexity: O(*n*) elements made.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    /// Hashes every element, made for the purpose.
    /// - Complexity: O(*n*) elements made.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(count)
      for element in self { hasher.combine(element) }
    }
  }
}
