import Crease

/// The binary trace format (`.crtrace`): the same records as JSONL, for fast replay. Version 2
/// is written; versions 1 and 2 are read. The layouts are in `Docs/BinaryTraceFormat.md`.
public enum BinaryTraceFormat {
  /// The first 8 bytes of every binary trace.
  public static let magic: [UInt8] = Array("CRTRACE".utf8) + [0]
  /// The version this build writes.
  public static let version: UInt16 = 2
  /// The versions this build reads.
  public static let readableVersions: ClosedRange<UInt16> = 1...2
  /// The file header of the version this build writes: magic, version, reserved flags.
  public static var fileHeader: [UInt8] { fileHeader(version: version) }
  /// The file header of a version: magic, version, reserved flags.
  public static func fileHeader(version: UInt16) -> [UInt8] {
    magic + [UInt8(version & 0xFF), UInt8(version >> 8), 0, 0]
  }
  /// The largest record body read, in bytes (a mark label may be long, not unbounded).
  public static let maximumRecordLength = 1 << 20
  /// The file extension that selects the binary format.
  public static let fileExtension = ".crtrace"

  /// The record kind byte of a header.
  static let headerCode: UInt8 = 0

  /// The record kind byte of each event kind, fixed by the format.
  static func code(_ kind: EventKind) -> UInt8 {
    switch kind {
    case .hinge: 1
    case .frame: 2
    case .drop: 3
    case .input: 4
    case .direction: 5
    case .display: 6
    case .app: 7
    case .session: 8
    case .mark: 9
    case .end: 10
    case .streamEnd: 11
    }
  }

  /// The bits of a version 2 kind byte's high half that `kind` uses for its small fields.
  static func packedBits(of kind: EventKind) -> UInt8 {
    switch kind {
    case .hinge, .frame: 0b1111
    case .drop: 0b1011
    case .input, .session: 0b0111
    case .display: 0b0011
    case .app: 0b0001
    case .direction, .mark, .end, .streamEnd: 0
    }
  }

  /// The kind of a record kind byte. A switch, like the other decoders, not a table derived from
  /// `code(_:)` (Tuning: computed-constant); the reader's tests keep the two directions in step.
  @inline(__always)
  static func eventKind(_ code: UInt8) -> EventKind? {
    switch code {
    case 1: .hinge
    case 2: .frame
    case 3: .drop
    case 4: .input
    case 5: .direction
    case 6: .display
    case 7: .app
    case 8: .session
    case 9: .mark
    case 10: .end
    case 11: .streamEnd
    default: nil
    }
  }

  /// The toward byte's top bit, past every camera's: the update listed `innerFront` before
  /// `outerFront` (set only when it lists both).
  static let innerFrontListedFirst: UInt8 = 0x80

  /// A direction update's toward byte: its ``CameraSet`` bits, and ``innerFrontListedFirst``.
  static func towardByte(_ update: DirectionUpdate) -> UInt8 {
    update.toward.rawValue | (update.innerFrontListedFirst ? innerFrontListedFirst : 0)
  }

  /// The byte of each camera, fixed by the format. A direction update's camera sets are stored
  /// as ``CameraSet`` bits, which `Camera`'s explicit raw values fix in the same way.
  static func code(_ camera: Camera) -> UInt8 {
    switch camera {
    case .outerFront: 0
    case .innerFront: 1
    case .virtualFront: 2
    case .backWide: 3
    case .backUltraWide: 4
    case .backTelephoto: 5
    }
  }

  // Inlined into the record's decoding, once a frame. Tuning: hot-inline.
  @inline(__always)
  static func camera(_ code: UInt8) -> Camera? {
    switch code {
    case 0: .outerFront
    case 1: .innerFront
    case 2: .virtualFront
    case 3: .backWide
    case 4: .backUltraWide
    case 5: .backTelephoto
    default: nil
    }
  }

  /// Whether a path names a binary trace.
  public static func isBinary(path: String) -> Bool { path.hasSuffix(fileExtension) }

  /// The byte of each enum case, fixed by the format.
  static func code(_ status: HingeStatus) -> UInt8 {
    switch status {
    case .closed: 0
    case .partiallyOpen: 1
    case .fullyOpen: 2
    case .unknown: 3
    }
  }

  // Asked for every hinge record. Tuning: hot-inline.
  @inline(__always)
  static func status(_ code: UInt8) -> HingeStatus? {
    switch code {
    case 0: .closed
    case 1: .partiallyOpen
    case 2: .fullyOpen
    case 3: .unknown
    default: nil
    }
  }

  /// A drop's reason as stored; 3 when the callback carried none.
  static func code(_ reason: DropReason?) -> UInt8 {
    switch reason {
    case .frameWasLate: 0
    case .outOfBuffers: 1
    case .discontinuity: 2
    case nil: noReason
    }
  }

  /// The code of a drop without a reason.
  static let noReason: UInt8 = 3

  /// A stored reason: `.some(nil)` for a drop without one, `nil` for a code that means nothing.
  static func reason(_ code: UInt8) -> DropReason?? {
    switch code {
    case 0: .frameWasLate
    case 1: .outOfBuffers
    case 2: .discontinuity
    case noReason: .some(nil)
    default: nil
    }
  }

  static func code(_ display: Display) -> UInt8 { display == .inner ? 0 : 1 }
  static func display(_ code: UInt8) -> Display? { code == 0 ? .inner : code == 1 ? .outer : nil }

  static func code(_ state: AppState) -> UInt8 { state == .foreground ? 0 : 1 }
  static func appState(_ code: UInt8) -> AppState? { code == 0 ? .foreground : code == 1 ? .background : nil }
}
