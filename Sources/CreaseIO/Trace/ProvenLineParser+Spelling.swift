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
    // From `t`'s value, through the kind, to the value of the kind's first field: one literal
    // a kind, the `kind` key spelled again in each. The key compared once and then the kind's
    // name cost a comparison more (callgrind, the day trace's JSON Lines: 5 instructions a line).
    var hingeAngle: StaticString { pick(#","kind":"hinge","angle":"#, #", "kind": "hinge", "angle": "#) }
    var frameStream: StaticString { pick(#","kind":"frame","stream":"#, #", "kind": "frame", "stream": "#) }
    var dropStream: StaticString { pick(#","kind":"drop","stream":"#, #", "kind": "drop", "stream": "#) }
    var markLabel: StaticString { pick(#","kind":"mark","label":"#, #", "kind": "mark", "label": "#) }
    var status: StaticString { pick(#","status":"#, #", "status": "#) }
    var pts: StaticString { pick(#","pts":"#, #", "pts": "#) }
    var camera: StaticString { pick(#","camera":"#, #", "camera": "#) }
    var reason: StaticString { pick(#","reason":"#, #", "reason": "#) }

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
