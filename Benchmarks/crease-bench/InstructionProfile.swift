#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The parts of a replay that ``InstructionProfile`` counts instructions by.
enum ReplayPart: Int, CaseIterable {
  /// Turning bytes into events: the binary decoder, the JSON fast path, json-c.
  case decoding
  /// Reading the file, handing batches of items between the threads, and the replay's loop.
  case reading
  /// The engine: the reorder buffer, the release line, the timers.
  case engine
  /// The stages' state machines and the pipeline that dispatches to them.
  case stages
  /// Cues: draining them, asking their bounds, handing them over, encoding and writing them,
  /// and the summary's counts.
  case cues
  /// The Swift runtime and the C library (retains, uniqueness checks, `memcpy`, `read`).
  case runtime
  /// Anything else: mostly code without a source line in a type no other function placed,
  /// such as the moves and destroys of `Event` values, compiled for their own type.
  case other

  /// The part's row label in the benchmark's table.
  var name: String {
    switch self {
    case .decoding: "decoding"
    case .reading: "reading, batches, replay loop"
    case .engine: "engine: order, timers"
    case .stages: "stages"
    case .cues: "cues: drain, encode, write"
    case .runtime: "Swift runtime, libc"
    case .other: "other"
    }
  }

  /// The part a source file belongs to, by its place under `Sources/`, or `nil` for a file
  /// outside `Sources/` or one of the shared vocabulary (`Sources/Crease/Events/`: events,
  /// times), whose code is inlined everywhere and counts toward the function it was inlined in.
  /// The first matching prefix wins, so single files come before their directories.
  static func part(ofSource file: Substring) -> ReplayPart? {
    guard let range = file.firstRange(of: "/Sources/") else { return nil }
    let path = file[range.upperBound...]
    return directories.first { path.hasPrefix($0.prefix) }?.part
  }

  private static let directories: [(prefix: String, part: ReplayPart)] = [
    ("CreaseIO/Threading/ReadAheadReader.swift", .reading),
    ("CreaseIO/Threading/BatchHandoff.swift", .reading),
    ("CreaseIO/Threading/WorkerThread.swift", .reading),
    ("CreaseIO/Replay/TraceReplay.swift", .reading),
    ("CreaseIO/Replay/ReplayRun.swift", .reading),
    ("CreaseIO/Replay/ReplaySource.swift", .reading),
    ("CreaseIO/Replay/EventFeed.swift", .reading),
    ("CreaseIO/Replay/ReaderFeed.swift", .reading),
    ("CreaseIO/Replay/LoopShift.swift", .reading),
    ("CreaseIO/Replay/Diagnostics.swift", .reading),
    ("CreaseIO/Trace/LineReader.swift", .reading),
    ("CreaseSystem/", .reading),
    ("CreaseJSON/", .decoding),
    ("CreaseIO/Threading/", .cues),
    ("CreaseIO/Trace/", .decoding),
    ("Crease/Engine/", .engine),
    ("Crease/Pipeline/", .stages),
    ("Crease/Hinge/", .stages),
    ("Crease/Camera/", .stages),
    ("Crease/Configuration/", .stages),
    ("Crease/Cues/", .cues),
    ("CreaseIO/Output/", .cues),
    ("CreaseIO/Pacing/", .cues),
    ("CreaseIO/Replay/", .cues),
    ("CreaseRecording/", .cues),
  ]

  /// The part of code that has no source file of its own to go by: a library's, or code
  /// callgrind calls `<compiler-generated>` (moves, copies, value witnesses) in a function whose
  /// type's other functions did not say where it belongs either.
  static func part(ofObject object: Substring) -> ReplayPart {
    if object.contains("libjson-c") { return .decoding }
    return object.contains(".so") ? .runtime : .other
  }

  /// The module and outermost type a Swift function's mangled name starts with, such as
  /// `6Crease6Engine` in `$s6Crease6EngineV5admit…`, or `nil` for a name of another form (the
  /// standard library's `$sS…`, C functions).
  static func typeKey(ofFunction name: Substring) -> Substring? {
    guard name.hasPrefix("$s") else { return nil }
    var rest = name.dropFirst(2)
    let start = rest.startIndex
    for _ in 0..<2 {
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard let count = Int(digits), count > 0, rest.count >= digits.count + count else { return nil }
      rest = rest.dropFirst(digits.count + count)
    }
    return name[start..<rest.startIndex]
  }
}

/// One thread's instructions from a callgrind profile, summed by ``ReplayPart``.
///
/// Each cost line of the profile is the instructions of one source line of one function, not
/// counting the functions it calls. A line goes to the part of its source file
/// (``ReplayPart/part(ofSource:)``), else to that of its function's file, else to that of its
/// function's type as the type's other functions placed it, else to that of its library
/// (``ReplayPart/part(ofObject:)``). A peer's lines go by the section of its source they are in
/// (``SourceSections``), and code of a peer's function without a line of the peer's own (line 0,
/// code inlined from the compiler or a library) with the part most of that function's lines are
/// in. The format is valgrind's "Callgrind Format Specification": names may be compressed
/// (`fn=(12) name` defines number 12, `fn=(12)` uses it), `fi=` and `fe=` switch the file within
/// a function (inlined code), and the cost line after `calls=` is what the call cost in all,
/// which the callee's own lines count already.
struct InstructionProfile {
  private var byPart = [Int](repeating: 0, count: ReplayPart.allCases.count)

  init() {}

  /// The profile in the callgrind output file at `path`, or `nil` when it cannot be read; the
  /// lines of a C source with `sections` go to the parts of their sections.
  init?(contentsOf path: String, sections: SourceSections? = nil) {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    var reader = Reader(sections: sections)
    while getline(&line, &capacity, file) > 0 {
      var text = String(cString: line!)
      if text.hasSuffix("\n") { text.removeLast() }
      reader.read(Substring(text), into: &self)
    }
    reader.finish(into: &self)
  }

  /// The profile of the callgrind output `lines`, a C source's lines by its `sections`.
  init(lines: some Sequence<Substring>, sections: SourceSections? = nil) {
    var reader = Reader(sections: sections)
    for line in lines { reader.read(line, into: &self) }
    reader.finish(into: &self)
  }

  subscript(part: ReplayPart) -> Int { byPart[part.rawValue] }

  /// Every part's instructions together.
  var total: Int { byPart.reduce(0, +) }

  /// The instructions of a run less those of a shorter run, part by part: what the lines
  /// between the two trace lengths cost.
  static func - (longer: Self, shorter: Self) -> Self {
    var difference = longer
    for index in difference.byPart.indices { difference.byPart[index] -= shorter.byPart[index] }
    return difference
  }

  /// Two profiles' instructions together, part by part: the threads of one run.
  static func + (first: Self, second: Self) -> Self {
    var sum = first
    for index in sum.byPart.indices { sum.byPart[index] += second.byPart[index] }
    return sum
  }

  /// Where the parser is in a profile: the names defined so far, the current object, function
  /// and files, and the lines whose part waits on the end of the profile.
  private struct Reader {
    var files: [Substring: Substring] = [:]
    var objects: [Substring: Substring] = [:]
    var functions: [Substring: Substring] = [:]
    var object: Substring = ""
    var functionFile: Substring = ""
    var file: Substring = ""
    /// The current function's module and type (``ReplayPart/typeKey(ofFunction:)``).
    var typeKey: Substring?
    /// How many position columns come before the costs (`positions: instr line` has two).
    var positionColumns = 1
    /// A C source whose lines go by section, and the source line of the last cost line.
    var sections: SourceSections?
    var sourceLine = 0
    var nextLineIsACall = false
    /// The part of each type some function of which has a source file under `Sources/`.
    var partsOfTypes: [Substring: ReplayPart] = [:]
    /// Instructions with no source file to go by, by the type of their function and object.
    var pending: [Pair: Int] = [:]
    /// The current function's name.
    var function: Substring = ""
    /// A peer's own lines' instructions by function, part by part, and the instructions of its
    /// functions that have no line of the peer's own: those go to the part that has most of
    /// their function's lines.
    var partsByFunction: [Substring: [Int]] = [:]
    var unplacedByFunction: [Substring: Int] = [:]

    struct Pair: Hashable {
      var typeKey: Substring?
      var object: Substring
    }

    mutating func read(_ line: Substring, into profile: inout InstructionProfile) {
      guard let first = line.first else { return }
      if first.isNumber || first == "+" || first == "-" || first == "*" {
        let columns = line.split(separator: " ")
        // The last position column is the source line: absolute, `+n` or `-n` from the last
        // cost line's, or `*` for the same (the format's position compression).
        if !columns.isEmpty {
          let position = columns[Swift.min(positionColumns, columns.count) - 1]
          switch position.first {
          case "+": sourceLine += Int(position.dropFirst()) ?? 0
          case "-": sourceLine -= Int(position.dropFirst()) ?? 0
          case "*": break
          default: sourceLine = Int(position) ?? sourceLine
          }
        }
        guard !nextLineIsACall else {
          nextLineIsACall = false
          return
        }
        guard columns.count > positionColumns, let instructions = Int(columns[positionColumns]) else {
          return
        }
        if let sections, functionFile.hasSuffix("/" + sections.fileName),
          !file.hasSuffix("/" + sections.fileName) || sourceLine == 0
        {
          // Code of a peer's function without a line of the peer's own (line 0, or inlined
          // from the compiler or a library): it waits to go with its function's part.
          unplacedByFunction[function, default: 0] += instructions
        } else if let sections, file.hasSuffix("/" + sections.fileName),
          let part = sections.part(ofLine: sourceLine)
        {
          profile.byPart[part.rawValue] += instructions
          partsByFunction[function, default: Array(repeating: 0, count: ReplayPart.allCases.count)][
            part.rawValue] += instructions
        } else if let part = ReplayPart.part(ofSource: file) ?? ReplayPart.part(ofSource: functionFile) {
          profile.byPart[part.rawValue] += instructions
        } else {
          pending[Pair(typeKey: typeKey, object: object), default: 0] += instructions
        }
        return
      }
      guard let equals = line.firstIndex(of: "=") ?? line.firstIndex(of: ":") else { return }
      let key = line[..<equals]
      let value = line[line.index(after: equals)...]
      switch key {
      case "ob": object = Self.name(value, in: &objects)
      case "cob": _ = Self.name(value, in: &objects)
      case "fl":
        functionFile = Self.name(value, in: &files)
        file = functionFile
      case "fi", "fe": file = Self.name(value, in: &files)
      case "cfi", "cfl": _ = Self.name(value, in: &files)
      case "fn":
        file = functionFile
        function = Self.name(value, in: &functions)
        typeKey = ReplayPart.typeKey(ofFunction: function)
        if let typeKey, let part = ReplayPart.part(ofSource: functionFile) { partsOfTypes[typeKey] = part }
      case "cfn": _ = Self.name(value, in: &functions)
      case "calls": nextLineIsACall = true
      case "positions": positionColumns = value.split(separator: " ").count
      default: break
      }
    }

    /// Adds the instructions that waited for the whole profile: by the part of their
    /// function's type when one of its functions said, else by their object.
    func finish(into profile: inout InstructionProfile) {
      for (function, instructions) in unplacedByFunction {
        let parts = partsByFunction[function] ?? []
        let part = parts.indices.max { parts[$0] < parts[$1] }.flatMap { ReplayPart(rawValue: $0) } ?? .other
        profile.byPart[part.rawValue] += instructions
      }
      for (pair, instructions) in pending {
        let part = pair.typeKey.flatMap { partsOfTypes[$0] } ?? ReplayPart.part(ofObject: pair.object)
        profile.byPart[part.rawValue] += instructions
      }
    }

    /// The name `value` gives, `(12) name` (defining number 12), `(12)` (using it) or `name`.
    static func name(_ value: Substring, in names: inout [Substring: Substring]) -> Substring {
      let value = value.drop { $0 == " " }
      guard value.first == "(", let close = value.firstIndex(of: ")") else { return value }
      let number = value[...close]
      let rest = value[value.index(after: close)...].drop { $0 == " " }
      if !rest.isEmpty { names[number] = rest }
      return names[number] ?? ""
    }
  }
}

extension InstructionProfile {
  /// A run's steady-state profiles, labelled for the table: its main thread's and its other
  /// threads' together.
  typealias LabelledRun = (label: String, mainThread: Self, otherThreads: Self)

  /// The lines of a table of instructions per trace line by part: for each labelled run, its
  /// main thread's, its other threads' and both together, divided by `lines`; a total last.
  static func table(_ runs: [LabelledRun], lines: Int) -> [String] {
    let partWidth = 32
    let cell = { (value: Int) in BenchRow.pad("\(value / lines)", 8, left: true) }
    let row = { (name: String, value: (Self) -> Int) in
      BenchRow.pad(name, partWidth)
        + runs.map {
          cell(value($0.mainThread)) + cell(value($0.otherThreads))
            + cell(value($0.mainThread + $0.otherThreads))
        }.joined()
    }
    let header = [
      BenchRow.pad("", partWidth) + runs.map { BenchRow.pad($0.label, 24, left: true) }.joined(),
      BenchRow.pad("part", partWidth) + String(repeating: "  replay  others     all", count: runs.count),
    ]
    return header + ReplayPart.allCases.map { part in row(part.name) { $0[part] } } + [
      row("total") { $0.total }
    ]
  }
}
