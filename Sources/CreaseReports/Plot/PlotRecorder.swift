import Crease

/// Runs the pipeline and keeps what a plot shows: every hinge sample and every cue.
package struct PlotRecorder: EventProcessor, Sendable {
  package typealias TimerTag = StageTimer

  private(set) var pipeline: Pipeline
  package private(set) var samples: [(t: Nanoseconds, degrees: Double)] = []
  package private(set) var cues: [Cue] = []
  /// Each cue's latency bound when it was made (a stall's follows its stream's rate), by index.
  package private(set) var bounds: [Nanoseconds?] = []

  package init(configuration: Configuration) { pipeline = Pipeline(configuration: configuration) }

  package mutating func apply(_ header: TraceHeader) { pipeline.apply(header) }

  package mutating func process(_ event: Event, context: inout ProcessingContext<TimerTag>) {
    if case .hinge(let delivery?) = event.payload { samples.append((event.t, delivery.angle.degrees)) }
    record(context: &context) { $0.process(event, context: &$1) }
  }

  package mutating func fire(_ tag: TimerTag, context: inout ProcessingContext<TimerTag>) {
    record(context: &context) { $0.fire(tag, context: &$1) }
  }

  package mutating func finish(context: inout ProcessingContext<TimerTag>) {
    record(context: &context) { $0.finish(context: &$1) }
  }

  /// Runs `step` on the pipeline and keeps the cues it added.
  private mutating func record(
    context: inout ProcessingContext<TimerTag>,
    _ step: (inout Pipeline, inout ProcessingContext<TimerTag>) -> Void
  ) {
    let before = context.cues.count
    step(&pipeline, &context)
    for cue in context.cues[before...] {
      cues.append(cue)
      bounds.append(pipeline.latencyBound(for: cue))
    }
  }
}
