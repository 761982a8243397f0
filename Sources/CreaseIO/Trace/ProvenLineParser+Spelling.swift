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

    // Each literal a switch, folded where the spelling is known. Tuning: computed-constant.

    /// `{"t":` and what follows the colon.
    var time: StaticString {
      switch self {
      case .compact: #"{"t":"#
      case .spaced: #"{"t": "#
      }
    }

    /// From `t`'s value to the opening quote of the kind's name.
    var kind: StaticString {
      switch self {
      case .compact: #","kind":""#
      case .spaced: #", "kind": ""#
      }
    }

    var hingeAngle: StaticString {
      switch self {
      case .compact: #"hinge","angle":"#
      case .spaced: #"hinge", "angle": "#
      }
    }

    var status: StaticString {
      switch self {
      case .compact: #","status":"#
      case .spaced: #", "status": "#
      }
    }

    var frameStream: StaticString {
      switch self {
      case .compact: #"frame","stream":"#
      case .spaced: #"frame", "stream": "#
      }
    }

    var dropStream: StaticString {
      switch self {
      case .compact: #"drop","stream":"#
      case .spaced: #"drop", "stream": "#
      }
    }

    var pts: StaticString {
      switch self {
      case .compact: #","pts":"#
      case .spaced: #", "pts": "#
      }
    }

    var camera: StaticString {
      switch self {
      case .compact: #","camera":"#
      case .spaced: #", "camera": "#
      }
    }

    var reason: StaticString {
      switch self {
      case .compact: #","reason":"#
      case .spaced: #", "reason": "#
      }
    }

    var markLabel: StaticString {
      switch self {
      case .compact: #"mark","label":"#
      case .spaced: #"mark", "label": "#
      }
    }
  }
}
