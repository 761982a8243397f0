extension ProvenLineParser {
  /// How a canonical line separates its members: the literals the template matches between
  /// its values, one set for each way a writer spaces a line.
  ///
  /// The template is inlined where it is asked with one spelling, so each literal is a
  /// constant there (compared in place, not by a call to `memcmp`) and a spelling costs nothing
  /// while its lines match: only a line that is neither falls through to the member-by-member
  /// path. As a generic parameter, the template stayed a call of its own in the reader's loop
  /// (33 instructions a line); as a structure of literals, each literal was compared by a call.
  enum CanonicalSpelling {
    /// The spelling ``TraceEncoder`` writes, and `crease convert`, recorders and most JSON
    /// libraries with it: no spaces.
    case compact
    /// The spelling of Python's `json.dumps` with its default separators: a space after each
    /// `:` and `,`. A trace a Python tool writes line by line is spelled so; read member by
    /// member it cost 2.1 times the template (3,096 instructions a line of the bench trace
    /// against 1,473).
    case spaced

    // Each literal picked by a switch, folded where the spelling is known. Tuning: computed-constant.

    /// `{"t":` and what follows the colon.
    var time: StaticString { pick(#"{"t":"#, #"{"t": "#) }
    /// From `t`'s value to the opening quote of the kind's name.
    var kind: StaticString { pick(#","kind":""#, #", "kind": ""#) }
    var hingeAngle: StaticString { pick(#"hinge","angle":"#, #"hinge", "angle": "#) }
    var status: StaticString { pick(#","status":"#, #", "status": "#) }
    var frameStream: StaticString { pick(#"frame","stream":"#, #"frame", "stream": "#) }
    var dropStream: StaticString { pick(#"drop","stream":"#, #"drop", "stream": "#) }
    var pts: StaticString { pick(#","pts":"#, #", "pts": "#) }
    var camera: StaticString { pick(#","camera":"#, #", "camera": "#) }
    var reason: StaticString { pick(#","reason":"#, #", "reason": "#) }
    var markLabel: StaticString { pick(#"mark","label":"#, #"mark", "label": "#) }

    /// `compact` or `spaced`, as this spelling is.
    @inline(__always)
    private func pick(_ compact: StaticString, _ spaced: StaticString) -> StaticString {
      switch self {
      case .compact: compact
      case .spaced: spaced
      }
    }
  }
}
