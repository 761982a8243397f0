import Crease

/// Reads a binary trace record by record with a fixed buffer, checking the magic, the version
/// and every size, and refusing what JSONL would refuse (negative `t`, bad enums, bad CMTime).
/// It reads versions 1 and 2 of the format.
///
/// After a bad file header, a truncated or oversized record, or (version 2) a record whose `t`
/// cannot be read, the rest of the file cannot be read: that item is the last.
public final class BinaryTraceReader: RecordReader {
  /// Where the records come from.
  public let source: ByteSource
  // State behind public getters, stored privately. Tuning: private-storage (Docs/Performance.md).
  private var storedPosition = 0
  /// The 1-based number of the record last returned.
  public var position: Int { storedPosition }
  private var storedRecordOffset = 0
  /// The byte offset of the record last returned, from the start of the file.
  public var recordOffset: Int { storedRecordOffset }
  private var storedBytesRead = 0
  /// Bytes read from the source so far.
  public var bytesRead: Int { storedBytesRead }
  /// Bytes of the source taken up to the end of the record last returned: those read less those
  /// still buffered.
  public var bytesTaken: Int { storedBytesRead - (end - start) }
  /// Binary records are not copied verbatim; a late one is written out as JSON Lines.
  public let unsafeLine: UnsafeRawBufferPointer? = nil
  /// A binary trace is read in whole records; it has no line terminator of its own.
  public let lineTerminator = "\n"
  /// Always `false`: binary records have no line terminator.
  public let endsWithCarriageReturn = false
  /// The binary format has no unknown keys.
  public let unknownKeys: [UnknownKey] = []
  private var storedCollectsUnknownKeys = false
  /// Ignored: a binary record has no keys of its own to list.
  public var collectsUnknownKeys: Bool {
    get { storedCollectsUnknownKeys }
    set { storedCollectsUnknownKeys = newValue }
  }
  /// Whether a whole record is buffered (binary traces are read from files, never live).
  public var hasBufferedItem: Bool { true }

  /// Room for the longest record and a large read, owned by the reader: a raw buffer, so
  /// decoding a record retains nothing. The ``padding`` bytes after the bytes read are kept
  /// zero, so that a varint at the very end may be loaded 8 bytes at a time; the rest is never
  /// read before it is written. (Zeroing the whole megabyte when a reader opened cost 1.1
  /// million instructions, 55 an event in a trace of 20,000.)
  private let buffer: UnsafeMutableRawBufferPointer
  /// The buffer's first byte, for a record's decoding.
  private let bufferStart: UnsafeMutableRawPointer
  private let capacity = BinaryTraceFormat.maximumRecordLength + (1 << 16)
  /// The zero bytes kept after the bytes read: a word's load from the last byte read stays
  /// within them.
  private static let padding = 16
  private var start = 0
  private var end = 0
  private var sourceIsExhausted = false
  /// The file's format version, 0 until its header is read.
  private var version: UInt16 = 0
  private var stopped = false
  /// Whether the file is version 2 and not stopped: the one flag ``next()``'s inline path
  /// asks, rather than both facts (callgrind, the day trace: 2 instructions an event).
  private var decodesVersion2Inline = false
  private var consumed = 0
  /// What records carry from one to the next.
  private struct DecodingState {
    /// Version 1: the stream names decoded lately, found again by their bytes.
    var streamNames = RecentStrings()
    /// Version 2: the `t` the next record's difference is from, and the names spelled out so far.
    var previousTime: Int64 = 0
    var names = BinaryNameTable()
  }

  /// The decoding state, behind a pointer this reader alone owns and uses, on one thread at a
  /// time (a reader is read by one thread), handed `inout` to the decoder for every record.
  /// Tuning: inout-state. Safe because it is
  /// initialized in `init` and deinitialized in `deinit` only, and no reference to it escapes
  /// the decoding of one record.
  private let state: UnsafeMutablePointer<DecodingState>

  /// A reader of the binary trace in `source`, version 1 or 2 by its header.
  public init(source: ByteSource) {
    self.source = source
    let size = capacity + Self.padding
    buffer = .allocate(byteCount: size, alignment: 8)
    bufferStart = buffer.baseAddress!
    state = .allocate(capacity: 1)
    state.initialize(to: DecodingState())
    zeroPadding()
  }

  /// Zeroes the bytes the loads at the end of what was read may reach past it.
  private func zeroPadding() {
    UnsafeMutableRawBufferPointer(rebasing: buffer[end..<(end + Self.padding)])
      .initializeMemory(as: UInt8.self, repeating: 0)
  }

  deinit {
    buffer.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Decodes the next record, or returns a bad item naming the byte offset of a damaged one.
  @inline(__always) public func next() throws -> TraceItem {
    // A version 2 record with a one-byte length, whole in the buffer, nearly every record, is
    // read here, inlined into the reading loop; everything else is left to a call. Unchecked:
    // `start` and `end` are offsets in the buffer, and 2^63 records do not happen. With nothing
    // buffered, the length byte read is the padding's, in the buffer, and the test after it
    // fails: more than that many bytes are never left.
    if decodesVersion2Inline, buffer[start] < 0x80, end &- start > Int(buffer[start]) {
      storedPosition &+= 1
      storedRecordOffset = consumed
      return decodeRecord(prefix: 1, length: Int(buffer[start]), version2: true)
    }
    return try nextFramed()
  }

  /// The next item, reading the file header and more of the file as needed.
  private func nextFramed() throws -> TraceItem {
    guard !stopped else { return .endOfInput }
    if version == 0, let problem = try readFileHeader() { return stop(problem) }
    // Whether the bytes are buffered already is asked here, inline: nearly always they are, and
    // a call into `fill` twice a record cost 64 instructions an event.
    guard try end - start >= 1 || fill(1) else { return .endOfInput }
    storedPosition += 1
    storedRecordOffset = consumed
    let prefix: Int
    let length: Int
    if version == 1 {
      guard try end - start >= 4 || fill(4) else {
        return stop("truncated record: \(end - start) byte(s) where a length was due")
      }
      prefix = 4
      length = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
    } else if buffer[start] < 0x80 {
      prefix = 1
      length = Int(buffer[start])
    } else {
      switch try longLengthPrefix() {
      case .success(let framing): (length, prefix) = framing
      case .failure(let problem): return stop(problem.message)
      }
    }
    guard length <= BinaryTraceFormat.maximumRecordLength else {
      return stop("record of \(length) bytes exceeds the \(BinaryTraceFormat.maximumRecordLength)-byte limit")
    }
    guard try end - start >= prefix + length || fill(prefix + length) else {
      return stop("truncated record: \(length) bytes announced, \(end - start - prefix) present")
    }
    return decodeRecord(prefix: prefix, length: length, version2: version == 2)
  }

  /// Decodes the record whose `length` bytes follow a `prefix` at `start`, all buffered, and
  /// moves past it. Its arithmetic wraps rather than checks: the record lies within the
  /// buffer, so every sum is an offset in it, and 2^63 bytes of a file are not consumed (the
  /// checks, with the reading loop's, cost about 9 instructions a record; callgrind, the day
  /// trace). Whether the file is version 2 is said by the caller: a constant on the inline path,
  /// which knows it, where reading the version cost 3 instructions a record.
  @inline(__always) private func decodeRecord(prefix: Int, length: Int, version2: Bool) -> TraceItem {
    let recordEnd = start &+ prefix &+ length
    var body = BodyReader(bytes: UnsafeRawPointer(bufferStart), position: start &+ prefix, end: recordEnd)
    start = recordEnd
    consumed &+= prefix &+ length
    do throws(BodyReader.Failure) {
      let record =
        version2
        ? try body.version2Record(previousTime: &state.pointee.previousTime, names: &state.pointee.names)
        : try body.version1Record(streamNames: state.pointee.streamNames)
      guard body.position == body.end else {
        throw BodyReader.Failure("\(body.end - body.position) unexpected byte(s) at the end of the record")
      }
      return .record(record)
    } catch {
      return error.stopsReading
        ? stop(error.message) : .bad(column: storedRecordOffset + 1, message: error.message)
    }
  }

  /// A version 2 length prefix of more than one byte at `start`: the length and the prefix's
  /// size. Three bytes hold every length up to the limit.
  private func longLengthPrefix() throws -> Result<(length: Int, size: Int), BodyReader.Failure> {
    var length = 0
    for size in 1...3 {
      guard try end - start >= size || fill(size) else {
        return .failure(BodyReader.Failure("truncated record: the file ends inside its length"))
      }
      let byte = buffer[start + size - 1]
      length |= Int(byte & 0x7F) << (7 * (size - 1))
      guard byte >= 0x80 else {
        guard byte != 0 else {
          return .failure(BodyReader.Failure("a record length is not in its shortest form"))
        }
        return .success((length, size))
      }
    }
    return .failure(
      BodyReader.Failure(
        "a record length of more than 3 bytes exceeds the \(BinaryTraceFormat.maximumRecordLength)-byte limit"
      ))
  }

  private func stop(_ message: String) -> TraceItem {
    stopped = true
    decodesVersion2Inline = false
    return .bad(column: storedRecordOffset + 1, message: message)
  }

  private func readFileHeader() throws -> String? {
    let header = BinaryTraceFormat.fileHeader
    guard try fill(header.count), buffer[start..<(start + 8)].elementsEqual(BinaryTraceFormat.magic) else {
      return "not a crease binary trace (its first bytes are not the CRTRACE magic)"
    }
    let version = UInt16(buffer[start + 8]) | UInt16(buffer[start + 9]) << 8
    let readable = BinaryTraceFormat.readableVersions
    guard readable.contains(version) else {
      return
        "unsupported binary trace version \(version); this crease reads versions \(readable.lowerBound) to \(readable.upperBound)"
    }
    self.version = version
    decodesVersion2Inline = version == 2
    start += header.count
    consumed += header.count
    return nil
  }

  /// Makes `count` bytes available from `start`; `false` at the end of the source.
  private func fill(_ count: Int) throws -> Bool {
    while end - start < count {
      if sourceIsExhausted { return false }
      if start > 0 {
        buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start)
        end -= start
        start = 0
      }
      let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end..<capacity]))
      if read == 0 { sourceIsExhausted = true } else { end += read }
      storedBytesRead += read
      zeroPadding()
    }
    return true
  }
}

extension BinaryTraceReader: ReadsAheadDirectly {}
