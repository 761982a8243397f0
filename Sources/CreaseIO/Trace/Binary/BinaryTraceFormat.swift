import Crease

/// The binary trace format, version 1 (`.crtrace`): the same records as JSONL, length-prefixed
/// little-endian fields, for fast replay. The layout is in `Docs/BinaryTraceFormat.md`.
public enum BinaryTraceFormat {
  /// The first 8 bytes of every binary trace.
  public static let magic: [UInt8] = Array("CRTRACE".utf8) + [0]
  /// The version this build writes and reads.
  public static let version: UInt16 = 1
  /// The file header: magic, version, reserved flags.
  public static var fileHeader: [UInt8] { magic + [UInt8(version & 0xFF), UInt8(version >> 8), 0, 0] }
  /// The largest record body read, in bytes (a mark label may be long, not unbounded).
  public static let maximumRecordLength = 1 << 20
  /// The file extension that selects the binary format.
  public static let fileExtension = ".crtrace"

  /// Record kinds, one byte each.
  enum Kind: UInt8 {
    case header = 0
    case hinge, frame, drop, input, direction, display, app, session, mark, end
  }

  /// Whether a path names a binary trace.
  public static func isBinary(path: String) -> Bool { path.hasSuffix(fileExtension) }

  /// The byte of each enum case, fixed by the format (declaration order, which must not change).
  static func code(_ status: HingeStatus) -> UInt8 {
    switch status {
    case .closed: 0
    case .partiallyOpen: 1
    case .fullyOpen: 2
    case .unknown: 3
    }
  }

  static func status(_ code: UInt8) -> HingeStatus? {
    switch code {
    case 0: .closed
    case 1: .partiallyOpen
    case 2: .fullyOpen
    case 3: .unknown
    default: nil
    }
  }

  static func code(_ reason: DropReason) -> UInt8 {
    switch reason {
    case .frameWasLate: 0
    case .outOfBuffers: 1
    case .discontinuity: 2
    }
  }

  static func reason(_ code: UInt8) -> DropReason? {
    switch code {
    case 0: .frameWasLate
    case 1: .outOfBuffers
    case 2: .discontinuity
    default: nil
    }
  }

  static func code(_ display: Display) -> UInt8 { display == .inner ? 0 : 1 }
  static func display(_ code: UInt8) -> Display? { code == 0 ? .inner : code == 1 ? .outer : nil }

  static func code(_ state: AppState) -> UInt8 { state == .foreground ? 0 : 1 }
  static func appState(_ code: UInt8) -> AppState? { code == 0 ? .foreground : code == 1 ? .background : nil }
}
