/// The camera capture accessory's eligibility (SPEC 4.9): app in the foreground, session running
/// with its preview visible, a committed status other than `closed`, and the view full screen on
/// the inner display. Even then the system decides; this only says when it may.
struct AccessoryEligibility: Sendable {
  var foreground = false
  var running = false
  var previewVisible = false
  /// The committed hinge status; `nil` when nothing is committed.
  var committed: HingeStatus?
  var innerFullScreen = false

  private var reported: Bool?

  /// The unmet conditions.
  var missing: AccessoryConditions {
    var missing: AccessoryConditions = []
    if !foreground { missing.insert(.foreground) }
    if !running { missing.insert(.session) }
    if !previewVisible { missing.insert(.preview) }
    if committed != .partiallyOpen && committed != .fullyOpen { missing.insert(.open) }
    if !innerFullScreen { missing.insert(.innerFullScreen) }
    return missing
  }

  /// The cue to emit after an input changed: the first one always, then on a change of
  /// eligibility. Hinge commits only update a stage that has started (`startsReporting` false),
  /// so a trace without app, session or display events gets no accessory cues.
  mutating func update(startsReporting: Bool = true) -> CueKind? {
    guard startsReporting || reported != nil else { return nil }
    let missing = missing
    let eligible = missing.isEmpty
    guard reported != eligible else { return nil }
    reported = eligible
    return .accessoryEligible(eligible: eligible, missing: missing)
  }
}
