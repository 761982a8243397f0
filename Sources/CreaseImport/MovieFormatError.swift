/// A QuickTime or MP4 file that cannot be read: the box path, the byte offset in the file, and
/// what is wrong.
public struct MovieFormatError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Where in the box tree, as `moov/trak[2]/mdia/minf/stbl/stts` (empty at the top level).
  public var box: String
  /// The byte offset in the file.
  public var offset: Int
  /// What is wrong.
  public var message: String

  /// `box` at byte `offset`: `message`.
  public var description: String {
    (box.isEmpty ? "" : "\(box) ") + "at byte \(offset): \(message)"
  }
}
