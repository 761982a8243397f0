#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A peer's source lines by the replay part of the `// MARK:` section they are in: how a peer's
/// instructions, inlined into a few functions, are still told apart part by part.
///
/// A section's title starts with the part's word: `Decoding`, `Engine`, `Stages`, `Cues` or
/// `Reading`; lines before the first section, and sections titled otherwise, are `other`.
struct SourceSections {
  /// The end of the source's path, as the profile names the file.
  let fileName: String
  /// The part of each line, by 1-based line number (index 0 unused).
  private let parts: [ReplayPart]

  /// The sections of the source at `path`, or `nil` when it cannot be read.
  init?(path: String) {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    var parts: [ReplayPart] = [.other]
    var current = ReplayPart.other
    while getline(&line, &capacity, file) > 0 {
      let text = String(cString: line!)
      if let title = text.firstRange(of: "// MARK: ").map({ text[$0.upperBound...] }) {
        current = Self.part(ofTitle: title)
      }
      parts.append(current)
    }
    self.parts = parts
    fileName = String(path.split(separator: "/").last ?? "")
  }

  /// The part of source line `number`, or `nil` past the end.
  func part(ofLine number: Int) -> ReplayPart? { parts.indices.contains(number) ? parts[number] : nil }

  /// The part a section title names by its first word.
  static func part(ofTitle title: Substring) -> ReplayPart {
    switch title.prefix(while: { $0.isLetter }) {
    case "Decoding": .decoding
    case "Engine": .engine
    case "Stages": .stages
    case "Cues": .cues
    case "Reading": .reading
    default: .other
    }
  }
}
