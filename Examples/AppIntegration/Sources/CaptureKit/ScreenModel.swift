import Crease

/// The screen's model, on the main actor: it reads the cues of the app's event stream, keeps
/// the preview's effects and the refusals in its own state, and says what the camera capture
/// accessory is waiting for.
@MainActor
public final class ScreenModel {
  /// What the preview shows now.
  public private(set) var effects = PreviewEffects()
  /// Events the session refused, reported on the main actor: kept here with no lock.
  public private(set) var refusals: [RefusedEvent] = []
  /// The accessory's conditions not met, as of the last event the session took in order.
  public private(set) var missing: AccessoryConditions = []

  /// A model with nothing read yet.
  public init() {}

  /// Reads `events` to their end through a session of the default configuration, which
  /// reorders events up to 5 ms late.
  public func run(_ events: some AsyncSequence<Event, Never> & Sendable) async throws {
    var session = try CreaseSession(reorderWindow: .milliseconds(5))
    for await event in events {
      do {
        try session.send(event)
      } catch {
        refusals.append(error)
        continue
      }
      session.drainCues { cue, _ in effects.apply(cue) }
      // Asked after each event: the eligibility cue speaks only when eligibility flips.
      missing = session.missingAccessoryConditions
    }
    session.finish()
    session.drainCues { cue, _ in effects.apply(cue) }
    missing = session.missingAccessoryConditions
  }

  /// Reads the cues of `events` as an asynchronous sequence, its refusals reported here on the
  /// main actor.
  public func follow(_ events: some AsyncSequence<Event, Never> & Sendable) async throws {
    let cues = events.cues(onRefusal: .skipOnMainActor { self.refusals.append($0) })
    for try await cue in cues { effects.apply(cue) }
  }
}
