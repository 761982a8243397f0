import Crease

/// Runs the pipeline and keeps what a plot shows: every hinge sample, every frame's arrival and
/// every cue, and the span of the trace.
package struct PlotRecorder: EventProcessor, Sendable {
  package typealias TimerTag = StageTimer

  /// One stream's frames: when each arrived, in trace time.
  package struct FrameTimes: Sendable {
    package var stream: StreamName
    package var times: [Nanoseconds] = []
  }

  private(set) var pipeline: Pipeline
  package private(set) var samples: [(t: Nanoseconds, degrees: Double)] = []
  package private(set) var cues: [Cue] = []
  /// Each cue's latency bound when it was made (a stall's follows its stream's rate), by index.
  package private(set) var bounds: [Nanoseconds?] = []
  /// Each stream's frames, in the order the streams first delivered one.
  package private(set) var frames: [FrameTimes] = []
  private var frameStreams: [StreamName: Int] = [:]
  /// From the first event to the end of the input (the `end` event's time, or the time reached
  /// at end of stream) or the last cue, whichever is later; `nil` for a trace without events.
  package private(set) var span: ClosedRange<Nanoseconds>?

  package init(configuration: Configuration) { pipeline = Pipeline(configuration: configuration) }

  package mutating func apply(_ header: TraceHeader) { pipeline.apply(header) }

  package mutating func process(_ event: Event, context: inout ProcessingContext<TimerTag>) {
    extendSpan(to: event.t)
    switch event.payload {
    case .hinge(let delivery?): samples.append((event.t, delivery.angle.degrees))
    case .frame(let frame): noteFrame(of: frame.stream, at: event.t)
    default: break
    }
    record(context: &context) { $0.process(event, context: &$1) }
  }

  package mutating func fire(_ tag: TimerTag, context: inout ProcessingContext<TimerTag>) {
    record(context: &context) { $0.fire(tag, context: &$1) }
  }

  package mutating func finish(context: inout ProcessingContext<TimerTag>) {
    if span != nil { extendSpan(to: context.now) }
    record(context: &context) { $0.finish(context: &$1) }
  }

  private mutating func noteFrame(of stream: StreamName, at t: Nanoseconds) {
    if let index = frameStreams[stream] {
      frames[index].times.append(t)
    } else {
      frameStreams[stream] = frames.count
      frames.append(FrameTimes(stream: stream, times: [t]))
    }
  }

  /// Events and cues come in time order: the span's start is the first, its end the latest.
  private mutating func extendSpan(to t: Nanoseconds) {
    span = span.map { $0.lowerBound...Swift.max($0.upperBound, t) } ?? t...t
  }

  /// Runs `step` on the pipeline and keeps the cues it added.
  private mutating func record(
    context: inout ProcessingContext<TimerTag>,
    _ step: (inout Pipeline, inout ProcessingContext<TimerTag>) -> Void
  ) {
    let before = context.cues.count
    step(&pipeline, &context)
    for cue in context.cues[before...] {
      if span != nil { extendSpan(to: cue.t) }
      cues.append(cue)
      bounds.append(pipeline.latencyBound(for: cue))
    }
  }
}
