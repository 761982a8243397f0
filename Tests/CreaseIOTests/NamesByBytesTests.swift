import Crease
import CreaseSynth
import Testing

@testable import CreaseIO

/// Stream names found again by their bytes, however many streams a trace has.
@Suite("Names by bytes")
struct NamesByBytesTests {
  /// Names of every length from 1 to 40, alike but for one byte at their start, middle or end,
  /// long ones sharing their first sixteen and last eight bytes, and names past ASCII.
  static let names: [String] = {
    var names = RecentStringsTests.strings
    for index in 0..<300 { names.append("back-wide-camera-\(100_000 + index)-main") }
    for length in 1...40 {
      let name = String("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH".prefix(length))
      names += [name, "X" + name.dropFirst(), name.dropLast() + "X"]
      if length > 2 { names.append(name.prefix(length / 2) + "X" + name.dropFirst(length / 2 + 1)) }
    }
    var seen = Set<String>()
    return names.filter { !$0.isEmpty && seen.insert($0).inserted }
  }()

  static func bytes<T>(_ string: String, _ body: (UnsafeRawBufferPointer) -> T) -> T {
    Array(string.utf8).withUnsafeBytes(body)
  }

  @Test("every name kept is found by its bytes, and no name that was not kept", arguments: 0..<4)
  func findsByBytes(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var order = Self.names
    for index in order.indices.reversed() { order.swapAt(index, Int(random.next() % UInt64(index + 1))) }
    let kept = Array(order.prefix(order.count / 2))
    let table = NamesByBytes()
    for name in kept { Self.bytes(name) { table.add(name, bytes: $0) } }
    #expect(table.count == kept.count, "seed \(seed)")
    for name in kept { #expect(Self.bytes(name) { table.name($0) } == name, "seed \(seed): \(name)") }
    for name in order.dropFirst(kept.count) {
      #expect(Self.bytes(name) { table.name($0) } == nil, "seed \(seed): \(name) was not kept")
    }
  }

  @Test("a short name is found where it lies on a line, only when a quote follows it")
  func findsWhereItLies() {
    let short = Self.names.filter { $0.utf8.count <= PackedBytes.longestWhole }
    let table = NamesByBytes()
    for name in short { Self.bytes(name) { table.add(name, bytes: $0) } }
    func found(_ text: String) -> (String, Int)? {
      Self.bytes(text + #","pts":12}"#) { table.name(quotedAtStartOf: LineWords($0)) }.map {
        ($0.string, $0.count)
      }
    }
    for name in short {
      let count = name.utf8.count
      #expect(found(name + #"""#).map { [$0.0, String($0.1)] } == [name, String(count)], "\(name)")
      // Another name, or no closing quote within the line's next sixteen bytes.
      let longer = name + "~"
      #expect(found(longer + #"""#) == nil, "\(longer)")
      #expect(found(name + #"\""#) == nil, "\(name) and an escaped quote")
      #expect(found(String(name.dropLast()) + #"""#).map(\.0) != name, "\(name) cut short")
    }
    #expect(found(String(repeating: "a", count: 16) + #"""#) == nil, "past sixteen bytes, no quote is seen")
    #expect(found(#"""#) == nil, "the empty name")
  }

  @Test("a short name packs the same from its bytes and from a line's words", arguments: 1...15)
  func packsFromALine(length: Int) {
    let name = String("abcdefghijklmno".prefix(length))
    let fromBytes = Self.bytes(name) { PackedBytes($0) }
    let fromLine = Self.bytes(name + #"","pts":1}"#) { PackedBytes(LineWords($0), count: length) }
    #expect(fromBytes == fromLine)
    // Short names are equal exactly when their packed bytes are.
    for other in RecentStringsTests.shortStrings {
      #expect((Self.bytes(other) { PackedBytes($0) } == fromBytes) == (other == name), "\(other) and \(name)")
    }
  }

  @Test("a name's quoted prefix matches a line that starts with the name and its quote", arguments: 1...15)
  func quotedPrefix(length: Int) {
    let name = String("abcdefghijklmno".prefix(length))
    let prefix = Self.bytes(name) { QuotedPrefix($0) }
    func matches(_ text: String) -> Bool { Self.bytes(text + "{}") { prefix.isPrefix(of: LineWords($0)) } }
    #expect(matches(name + #"""#))
    #expect(!matches(name + "X"), "another name")
    #expect(!matches("X" + name.dropFirst() + #"""#), "the first byte")
    #expect(!matches(name.dropLast() + "X" + #"""#), "the last byte")
  }

  @Test("the table stops at the stages' budget, and keeps the names it has")
  func keepsToTheBudget() {
    let table = NamesByBytes()
    let count = StreamBudget.maximumStreams + 10
    for index in 0..<count {
      let name = "s\(index)"
      Self.bytes(name) { table.add(name, bytes: $0) }
    }
    #expect(table.count == StreamBudget.maximumStreams)
    #expect(Self.bytes("s0") { table.name($0) } == "s0")
    #expect(Self.bytes("s\(StreamBudget.maximumStreams - 1)") { table.name($0) } != nil)
    #expect(Self.bytes("s\(StreamBudget.maximumStreams)") { table.name($0) } == nil, "past the budget")
  }
}
