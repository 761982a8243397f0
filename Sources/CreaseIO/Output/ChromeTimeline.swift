import Crease
import CreaseRecording

/// A replay as a Chrome Trace Event (JSON object form) timeline for Perfetto or
/// chrome://tracing, written as a stream: every event ends with a comma and the metadata events
/// close the array, so the file is valid JSON however the replay ends.
///
/// One process per input trace, named by its file, with these tracks:
/// - counters `hinge angle` (every hinge delivery, degrees) and `hinge.progress` (0…1);
/// - `hinge status`: the committed status as slices (`B`/`E`), from one commit to the next;
/// - `cues`: every other cue as an instant, its fields and `since` (µs) as arguments;
/// - `preview mask <stream>`: masks as slices; `frame gaps`: gaps as complete slices from when
///   the first missing frame was due;
/// - `frames <stream>`: each frame's arrival as an instant, its pts (ns) as an argument;
/// - `latency`: every cue with a latency as an async slice from `since` to `t`, the cue's kind
///   as an argument, all on one track of its process (a process-local id; slices named by
///   their kind made a track per kind, read as the cues themselves).
///
/// It is judged by what the Perfetto UI shows (SPEC 3; `Tests/Browser` opens it there): every
/// slice ends, and nothing of one trace lands outside its process.
///
/// A cue goes to the process of the trace it comes from: hinge cues to the trace of the latest
/// hinge delivery, camera cues to the trace of their stream's latest frame, drop or input,
/// `accessory.eligible` to the trace of the latest app, session or display event, a mark to the
/// trace that held it. Times are microseconds with three decimals (exact nanoseconds).
public final class ChromeTimeline {
  /// Thread ids of the fixed tracks; masks get one each from `firstMaskTrack` on, per stream.
  private enum Track: Int64 {
    case cues = 1
    case status = 2
    case gaps = 3
    case latency = 4
    static let firstMaskTrack: Int64 = 10
    /// Past every mask track (10 plus a stream's place, under ``StreamBudget/maximumStreams``),
    /// and a 32-bit thread id, as the Perfetto UI reads one.
    static let firstFrameTrack: Int64 = 1_000_000
  }

  private let sourceNames: [String]
  private var hingeSource = 0
  private var stateSource: Int?
  /// The trace of each stream's latest frame, drop or input, with several traces; streams past
  /// the budget, like every stream of a single trace, go to the first.
  private var streamSources: [StreamName: Int] = [:]
  private var streamBudget = StreamBudget()
  /// Marks read but not yet written, by time and label, with their sources in order.
  private var pendingMarks: [MarkKey: [Int]] = [:]
  private var maskTracks: [StreamName: Int64] = [:]
  /// The streams with a frame track, in the order of their first frame; those past the budget
  /// have none.
  private var frameStreams: [StreamName] = []
  private var frameTracks: [StreamName: Int64] = [:]
  private var frameBudget = StreamBudget()
  /// The stream of each mask track, by track from ``Track/firstMaskTrack`` on.
  private var maskStreams: [StreamName] = []
  /// Per process, the name of the status slice open since a commit: its end repeats it, as the
  /// Perfetto UI matches an end to its beginning by name (a differently named end left every
  /// status slice running to the end of the trace).
  private var openStatus: [Int: String] = [:]
  /// Per process and mask track, whether a mask slice is open.
  private var openMasks: [Int: Set<Int64>] = [:]
  /// Per process, the tracks it used, for their names at the end.
  private var usedTracks: [Int: Set<Int64>] = [:]
  private var latencyIDs = 0
  private var latest = Nanoseconds.zero

  private struct MarkKey: Hashable {
    var t: Nanoseconds
    var label: String
  }

  /// A timeline for the traces named `sourceNames`, in command-line order.
  public init(sourceNames: [String]) { self.sourceNames = sourceNames.isEmpty ? ["trace"] : sourceNames }

  /// The opening of the JSON document.
  public static let prologue = Array(#"{"displayTimeUnit":"ms","traceEvents":["#.utf8) + [UInt8(ascii: "\n")]

  /// Notes an input event from `source` (for attribution) and writes what the timeline shows of
  /// it: a hinge delivery as a sample of the `hinge angle` counter, a frame as an instant on its
  /// stream's frame track.
  public func note(_ event: Event, from source: Int, into output: inout [UInt8]) {
    latest = max(latest, event.t)
    switch event.payload {
    case .hinge(let delivery):
      hingeSource = source
      guard let delivery else { return }
      appendCounter(
        "hinge angle", pid: pid(source), t: event.t, key: "degrees", delivery.angle.degrees, to: &output)
    case .frame(let frame):
      noteStream(frame.stream, source: source)
      appendFrame(frame, at: event.t, pid: pid(source), to: &output)
    case .drop(let drop): noteStream(drop.stream, source: source)
    case .input(let stream, _), .streamEnd(let stream): noteStream(stream, source: source)
    case .app, .session, .display: stateSource = source
    case .mark(let label): pendingMarks[MarkKey(t: event.t, label: label), default: []].append(source)
    case .direction, .end: break
    }
  }

  /// Writes one cue on its trace's process.
  public func encode(_ cue: Cue, into output: inout [UInt8]) {
    latest = max(latest, cue.t)
    let source = self.source(of: cue)
    let pid = pid(source)
    switch cue.kind {
    case .hingeProgress(let value):
      appendCounter("hinge.progress", pid: pid, t: cue.t, key: "value", value, to: &output)
    case .hingeInitial(let status, _), .hingeAvailable(let status, _), .hingeStatus(_, let status):
      endStatus(source, at: cue.t, into: &output)
      appendEvent(
        name: status.name, phase: "B", pid: pid, track: Track.status.rawValue, t: cue.t, to: &output)
      openStatus[source] = status.name
      Self.appendArguments(cue, into: &output)
      output.append("},\n")
      Self.appendInstant(cue, pid: pid, to: &output)
    case .hingeUnavailable:
      endStatus(source, at: cue.t, into: &output)
      Self.appendInstant(cue, pid: pid, to: &output)
    case .cameraMask(let stream, let on, _):
      let track = maskTrack(stream)
      let isOpen = openMasks[source, default: []].contains(track)
      guard on || isOpen else { break }
      // A mask set again while set (merged traces sharing a stream's name) ends the slice and
      // starts another with the new reason: slices on one track never nest unended.
      if on && isOpen {
        appendEvent(name: maskName(track), phase: "E", pid: pid, track: track, t: cue.t, to: &output)
        output.append("},\n")
      }
      appendEvent(name: maskName(track), phase: on ? "B" : "E", pid: pid, track: track, t: cue.t, to: &output)
      if on { openMasks[source, default: []].insert(track) } else { openMasks[source]?.remove(track) }
      Self.appendArguments(cue, into: &output)
      output.append("},\n")
    case .cameraGap(let stream, _, _, _, _, _):
      appendEvent(
        name: "gap \(stream.rawValue)", phase: "X", pid: pid, track: Track.gaps.rawValue, t: cue.since,
        to: &output)
      output.append(#","dur":"#)
      Self.appendMicroseconds(cue.latency, to: &output)
      Self.appendArguments(cue, into: &output)
      output.append("},\n")
    default:
      Self.appendInstant(cue, pid: pid, to: &output)
    }
    if cue.latency > .zero { appendLatency(cue, pid: pid, to: &output) }
    usedTracks[source, default: []].insert(Track.cues.rawValue)
  }

  /// Closes every open slice at the latest time seen, names the processes and tracks, and
  /// closes the JSON document.
  public func epilogue() -> [UInt8] {
    var output: [UInt8] = []
    for source in openStatus.keys.sorted() { endStatus(source, at: latest, into: &output) }
    for source in openMasks.keys.sorted() {
      for track in openMasks[source]!.sorted() {
        appendEvent(name: maskName(track), phase: "E", pid: pid(source), track: track, t: latest, to: &output)
        output.append("},\n")
      }
    }
    var metadata: [String] = []
    for (source, name) in sourceNames.enumerated() {
      let pid = pid(source)
      metadata.append(#"{"name":"process_name","ph":"M","pid":\#(pid),"args":{"name":\#(quoted(name))}}"#)
      metadata.append(#"{"name":"process_sort_index","ph":"M","pid":\#(pid),"args":{"sort_index":\#(pid)}}"#)
      for track in usedTracks[source, default: []].sorted() {
        metadata.append(
          #"{"name":"thread_name","ph":"M","pid":\#(pid),"tid":\#(track),"args":{"name":\#(quoted(trackName(track)))}}"#
        )
      }
    }
    output.append(contentsOf: metadata.joined(separator: ",\n").utf8)
    output.append("\n]}\n")
    return output
  }

  // MARK: Attribution

  private func pid(_ source: Int) -> Int { source + 1 }

  private func noteStream(_ stream: StreamName, source: Int) {
    guard sourceNames.count > 1 else { return }
    if streamSources[stream] != nil || streamBudget.admit(stream) { streamSources[stream] = source }
  }

  private func source(of cue: Cue) -> Int {
    switch cue.kind {
    case .cameraGap(let stream, _, _, _, _, _), .cameraStall(let stream),
      .cameraPTSRegression(let stream, _, _),
      .cameraDirection(let stream, _, _), .cameraMirroring(let stream, _, _, _),
      .cameraMask(let stream, _, _):
      return streamSources[stream] ?? 0
    case .accessoryEligible:
      return stateSource ?? hingeSource
    case .mark(let label):
      let key = MarkKey(t: cue.t, label: label)
      guard var sources = pendingMarks[key], !sources.isEmpty else { return 0 }
      let source = sources.removeFirst()
      pendingMarks[key] = sources.isEmpty ? nil : sources
      return source
    default:
      return hingeSource
    }
  }

  private func maskTrack(_ stream: StreamName) -> Int64 {
    if let track = maskTracks[stream] { return track }
    let track = Track.firstMaskTrack + Int64(maskStreams.count)
    maskTracks[stream] = track
    maskStreams.append(stream)
    return track
  }

  /// The track of `stream`'s frames, or `nil` for a stream past the budget.
  private func frameTrack(_ stream: StreamName) -> Int64? {
    if let track = frameTracks[stream] { return track }
    guard frameBudget.admit(stream) else { return nil }
    let track = Track.firstFrameTrack + Int64(frameStreams.count)
    frameTracks[stream] = track
    frameStreams.append(stream)
    return track
  }

  private func trackName(_ track: Int64) -> String {
    switch Track(rawValue: track) {
    case .cues: "cues"
    case .status: "hinge status"
    case .gaps: "frame gaps"
    case .latency: "latency"
    case nil where track >= Track.firstFrameTrack:
      "frames " + frameStreams[Int(track - Track.firstFrameTrack)].rawValue
    case nil: "preview mask " + maskStreams[Int(track - Track.firstMaskTrack)].rawValue
    }
  }

  /// The name of every slice on a mask track, its beginning and end alike.
  private func maskName(_ track: Int64) -> String {
    "mask " + maskStreams[Int(track - Track.firstMaskTrack)].rawValue
  }

  // MARK: Writing

  private func endStatus(_ source: Int, at t: Nanoseconds, into output: inout [UInt8]) {
    guard let name = openStatus.removeValue(forKey: source) else { return }
    appendEvent(name: name, phase: "E", pid: pid(source), track: Track.status.rawValue, t: t, to: &output)
    output.append("},\n")
  }

  /// `t - since` as an async slice named `latency`, the cue's kind its argument, in its
  /// trace's process: the Perfetto UI puts async slices of one name on one track, and a
  /// process-local id (`id2.local`) keeps it in the process, where a plain `id` is global and
  /// the slices of every merged trace shared one track.
  private func appendLatency(_ cue: Cue, pid: Int, to output: inout [UInt8]) {
    latencyIDs += 1
    for (phase, t) in [("b", cue.since), ("e", cue.t)] {
      Self.appendEventHead(
        name: "latency", phase: phase, pid: pid, track: Track.latency.rawValue, t: t, to: &output)
      output.append(#","cat":"latency","id2":{"local":"#)
      NumberFormatting.appendInteger(Int64(latencyIDs), to: &output)
      output.append("}")
      if phase == "b" {
        output.append(#","args":{"cue":""#)
        output.append(cue.kind.tag.nameLiteral)
        output.append(#""}"#)
      }
      output.append("},\n")
    }
  }

  /// A frame's arrival as an instant on its stream's frame track, its pts in nanoseconds.
  private func appendFrame(_ frame: Frame, at t: Nanoseconds, pid: Int, to output: inout [UInt8]) {
    guard let track = frameTrack(frame.stream) else { return }
    appendEvent(name: "frame", phase: "i", pid: pid, track: track, t: t, to: &output)
    output.append(#","s":"t","args":{"ptsNs":"#)
    NumberFormatting.appendInteger(frame.pts.nanoseconds.rawValue, to: &output)
    output.append("}},\n")
  }

  private func appendCounter(
    _ name: StaticString, pid: Int, t: Nanoseconds, key: StaticString, _ value: Double,
    to output: inout [UInt8]
  ) {
    output.append(#"{"name":""#)
    output.append(name)
    output.append(#"","ph":"C","pid":"#)
    NumberFormatting.appendInteger(Int64(pid), to: &output)
    output.append(#","ts":"#)
    Self.appendMicroseconds(t, to: &output)
    output.append(#","args":{""#)
    output.append(key)
    output.append(#"":"#)
    NumberFormatting.appendDecimal(value, to: &output)
    output.append("}},\n")
  }

  private func appendEvent(
    name: String, phase: String, pid: Int, track: Int64, t: Nanoseconds, to output: inout [UInt8]
  ) {
    usedTracks[pid - 1, default: []].insert(track)
    Self.appendEventHead(name: name, phase: phase, pid: pid, track: track, t: t, to: &output)
  }

  /// A cue as an instant on the `cues` track of process `pid`, with its arguments: the whole
  /// rendering a cue gets without a timeline's state (``CueFormat/encode(_:into:)``).
  static func appendInstant(_ cue: Cue, pid: Int, to output: inout [UInt8]) {
    appendEventHead(
      name: cue.kind.name, phase: "i", pid: pid, track: Track.cues.rawValue, t: cue.t, to: &output)
    output.append(#","s":"t""#)
    appendArguments(cue, into: &output)
    output.append("},\n")
  }

  private static func appendEventHead(
    name: String, phase: String, pid: Int, track: Int64, t: Nanoseconds, to output: inout [UInt8]
  ) {
    output.append(#"{"name":"#)
    JSONString.append(name, to: &output)
    output.append(#","ph":""#)
    output.append(contentsOf: phase.utf8)
    output.append(#"","pid":"#)
    NumberFormatting.appendInteger(Int64(pid), to: &output)
    output.append(#","tid":"#)
    NumberFormatting.appendInteger(track, to: &output)
    output.append(#","ts":"#)
    appendMicroseconds(t, to: &output)
  }

  /// `"args":{...}` with `since` (µs, like `ts`) and the cue's fields.
  private static func appendArguments(_ cue: Cue, into output: inout [UInt8]) {
    output.append(#","args":{"since":"#)
    appendMicroseconds(cue.since, to: &output)
    output.append(writingAtMost: CueFormat.jsonFieldsCapacity(cue.kind)) {
      cue.kind.writeFields(ArgumentFields.self, to: &$0)
    }
    output.append(UInt8(ascii: "}"))
  }

  /// A cue's fields as the timeline's arguments: JSON members, a time's key naming its unit
  /// (`fromNs`), since the viewer shows a number bare.
  private enum ArgumentFields: CueFieldWriter {
    static func write(_ key: StaticString, _ value: CueFieldValue, to writer: inout UnsafeByteWriter) {
      writer.write(#",""#)
      writer.write(key)
      if case .nanoseconds = value { writer.write("Ns") }
      writer.write(#"":"#)
      CueFormat.writeJSON(value, to: &writer)
    }
  }

  /// Nanoseconds as microseconds with three decimals, exactly.
  static func appendMicroseconds(_ nanoseconds: Nanoseconds, to output: inout [UInt8]) {
    let value = nanoseconds.rawValue
    NumberFormatting.appendFixedPoint(
      value.magnitude, negative: value < 0, unit: 1000, decimals: 3, to: &output)
  }

  private func quoted(_ text: String) -> String {
    var bytes: [UInt8] = []
    JSONString.append(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
