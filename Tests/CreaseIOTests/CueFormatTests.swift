import Crease
import CreaseRecording
import CreaseSynth
import Testing

@testable import CreaseIO

@Suite("Cue formats")
struct CueFormatTests {
  func encode(_ cue: Cue, _ format: CueFormat) -> String {
    var bytes: [UInt8] = []
    format.encode(cue, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test("JSON Lines: t, since, cue, then fields, with escaped strings")
  func jsonLine() {
    let cue = Cue(t: 120, since: 100, .mark(label: "say \"hi\"\n\u{01}"))
    #expect(encode(cue, .jsonl) == #"{"t":120,"since":100,"cue":"mark","label":"say \"hi\"\n\u0001"}"# + "\n")
  }

  @Test("JSON Lines: the fields of every kind, those written without the field writer too, are the writer's")
  func jsonFieldsOfEveryKind() {
    for cue in WriteCapacityTests.longestCues() + [Cue(t: 7, since: 7, .hingeProgress(value: 0.5))] {
      var fields: [UInt8] = []
      fields.append(writingAtMost: CueFormat.jsonFieldsCapacity(cue.kind)) {
        cue.kind.writeFields(CueFormat.JSONFields.self, to: &$0)
      }
      let opening = #"{"t":\#(cue.t.rawValue),"since":\#(cue.since.rawValue),"cue":"\#(cue.kind.name)""#
      #expect(encode(cue, .jsonl) == opening + String(decoding: fields, as: UTF8.self) + "}\n")
    }
  }

  @Test("text: seconds with 9 decimals, the cue, fields and the latency in ms")
  func text() {
    let cue = Cue(t: 1_500_000_000, since: 1_449_999_000, .mark(label: "x"))
    #expect(encode(cue, .text) == "     1.500000000  mark                   label=x  (+50.001 ms)\n")
  }

  @Test(
    "a gap's and a regression's from and to: nanoseconds in JSON Lines, seconds in text, with their unit in Chrome"
  )
  func timeFields() {
    let gap = Cue(
      t: 1_400_000_000, since: 1_033_333_333,
      .cameraGap(
        stream: "video", from: 1_000_000_000, to: 1_366_666_667, missing: 10, cause: .unexplained, reason: nil
      ))
    #expect(encode(gap, .jsonl).contains(#","from":1000000000,"to":1366666667,"missing":10,"#))
    #expect(encode(gap, .text).contains(" from=1.000000000 to=1.366666667 missing=10 "))
    #expect(encode(gap, .chrome).contains(#""fromNs":1000000000,"toNs":1366666667,"missing":10"#))
    let regression = Cue(t: 5, since: 5, .cameraPTSRegression(stream: "video", from: 0, to: -1))
    #expect(encode(regression, .jsonl).contains(#""from":0,"to":-1}"#))
    #expect(encode(regression, .text).hasSuffix(" from=0.000000000 to=-0.000000001\n"))
  }

  @Test(
    "text: every string bare when it is a plain word and quoted otherwise; lists in brackets",
    arguments: [
      (CueKind.mark(label: "phone opening"), #"label="phone opening""#),
      (.mark(label: ""), #"label="""#),
      (.mark(label: "a=b"), #"label="a=b""#),
      (.cameraStall(stream: "video"), "stream=video"),
      (.cameraStall(stream: "rear cam"), #"stream="rear cam""#),
      (.accessoryEligible(eligible: true, missing: []), "eligible=true missing=[]"),
      (
        .accessoryEligible(eligible: false, missing: [.session, .open]),
        "eligible=false missing=[session,open]"
      ),
    ] as [(CueKind, String)])
  func textQuoting(kind: CueKind, fields: String) {
    let line = encode(Cue(t: 0, since: 0, kind), .text)
    #expect(line.hasSuffix(" " + fields + "\n"), "\(line)")
  }

  @Test("integers and padded digits read back as Swift prints them, for seeded random values and the ends")
  func integers() {
    var random = SplitMix64(seed: 2026)
    let values: [Int64] =
      [0, 9, 10, 99, 100, -1, .max, .min, 1_000_000_000, 999_999_999_999]
      + (0..<2000).map { _ in Int64(bitPattern: random.next()) >> (random.next() % 63) }
    for value in values {
      var bytes: [UInt8] = []
      NumberFormatting.appendInteger(value, to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == String(value), "seed 2026, value \(value)")
      var seconds: [UInt8] = []
      NumberFormatting.appendSeconds(value, to: &seconds)
      let magnitude = value.magnitude
      let expected =
        (value < 0 ? "-" : "") + "\(magnitude / 1_000_000_000)."
        + String(String(magnitude % 1_000_000_000 + 1_000_000_000).dropFirst())
      #expect(String(decoding: seconds, as: UTF8.self) == expected, "seed 2026, value \(value)")
    }
  }

  @Test(
    "decimals: rounded to 3 places, trailing zeros dropped, at least one decimal",
    arguments: [
      (135.0, "135.0"), (0.1234, "0.123"), (0.1235, "0.124"), (-0.0004, "0.0"), (-12.5, "-12.5"),
      (179.99951, "180.0"), (1e300, "1e+300"), (-1e20, "-1e+20"),
    ] as [(Double, String)])
  func decimals(value: Double, expected: String) {
    var bytes: [UInt8] = []
    NumberFormatting.appendDecimal(value, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == expected)
  }

  @Test("decimals: seeded values of every size and halves, the point among the digits, the next byte intact")
  func seededDecimals() {
    var random = SplitMix64(seed: 2026)
    for _ in 0..<20_000 {
      // Thousandths of up to 16 digits, with one to three trailing zeros now and then.
      let digits = Int(random.next() % 16) + 1
      var thousandths = Int64(random.next() % UnsafeByteWriter.powerOfTen(digits))
      thousandths -= thousandths % Int64(UnsafeByteWriter.powerOfTen(Int(random.next() % 4)))
      let sign: Double = random.next() % 2 == 0 ? 1 : -1
      // Now and then a binary fraction, so that the thousandths fall exactly on a half (0.0625
      // is 62.5 thousandths) or near one.
      let value =
        random.next() % 4 == 0
        ? sign * Double(random.next() % (1 << 40)) / Double(1 << (random.next() % 16))
        : sign * Double(thousandths) / 1000
      // The rule, from the thousandths the value rounds to: the whole part, a point, and the
      // decimals without trailing zeros but at least one.
      let scaled = Int64((value * 1000).rounded(.toNearestOrAwayFromZero))
      let fraction = String(scaled.magnitude % 1000)
      var decimals = String(repeating: "0", count: 3 - fraction.count) + fraction
      while decimals.count > 1 && decimals.hasSuffix("0") { decimals.removeLast() }
      let expected = (scaled < 0 ? "-" : "") + "\(scaled.magnitude / 1000)." + decimals + ","
      for capacity in [UnsafeByteWriter.decimalCapacity + 1, 64] {
        var bytes: [UInt8] = []
        bytes.append(writingAtMost: capacity) {
          $0.writeDecimal(value)
          $0.write(UInt8(ascii: ","))
        }
        #expect(
          String(decoding: bytes, as: UTF8.self) == expected, "seed 2026, \(value) in \(capacity) bytes")
      }
    }
  }

  @Test("the byte writer: digit counts at every power of ten, padding, and copies of every short length")
  func byteWriter() {
    var magnitudes: [UInt64] = [0, .max]
    var power: UInt64 = 1
    for _ in 0..<20 {
      magnitudes += [power &- 1, power, power &+ 1]
      power = power.multipliedReportingOverflow(by: 10).partialValue
    }
    for magnitude in magnitudes {
      #expect(written { $0.writeDigits(magnitude) } == String(magnitude), "\(magnitude)")
      let padded = String(repeating: "0", count: max(0, 22 - String(magnitude).count)) + String(magnitude)
      #expect(written { $0.writeDigits(magnitude, minimumCount: 22) } == padded, "\(magnitude)")
    }
    let text = "abcdefghijklmnopqrstuvwxyz0123456789ABCD"
    for count in 0...40 {
      let expected = String(text.prefix(count))
      var copy = expected
      #expect(copy.withUTF8 { bytes in written { $0.write(UnsafeRawBufferPointer(bytes)) } } == expected)
    }
    var milliseconds: [UInt8] = []
    NumberFormatting.appendMilliseconds(-500, to: &milliseconds)
    #expect(String(decoding: milliseconds, as: UTF8.self) == "-0.000", "the sign survives rounding to zero")
  }

  @Test("the byte writer: seeded numbers of every length, padded or not, with the next byte intact")
  func seededDigits() {
    var random = SplitMix64(seed: 2026)
    for _ in 0..<20_000 {
      let digits = Int(random.next() % 20) + 1
      let low = UnsafeByteWriter.powerOfTen(digits - 1)
      let magnitude =
        digits == 1 ? random.next() % 10 : low + random.next() % (digits == 20 ? .max - low : low * 9)
      let text = String(magnitude)
      let minimumCount = Int(random.next() % 24)
      let padded = String(repeating: "0", count: max(0, minimumCount - text.count)) + text
      let observed = written {
        $0.writeDigits(magnitude, minimumCount: minimumCount)
        $0.write(UInt8(ascii: ","))
      }
      #expect(observed == padded + ",", "seed 2026, \(magnitude) to \(minimumCount) digits")
    }
  }

  @Test("the byte writer: a string needs escaping exactly when a byte is a control, quote or backslash")
  func seededEscapes() {
    var random = SplitMix64(seed: 2026)
    // Mostly plain bytes (UTF-8 lead and trail bytes included), with a special one now and then,
    // at every length and offset the word-at-a-time test treats apart.
    let special: [UInt8] = [0x00, 0x01, 0x1F, 0x22, 0x5C]
    let plain: [UInt8] = [0x20, 0x21, 0x23, 0x41, 0x5B, 0x5D, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
    for _ in 0..<20_000 {
      let count = Int(random.next() % 40)
      let bytes = (0..<count).map { _ in
        random.next() % 12 == 0 ? special[Int(random.next() % 5)] : plain[Int(random.next() % 11)]
      }
      let expected = bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
      let observed = bytes.withUnsafeBufferPointer { UnsafeByteWriter.needsEscape($0) }
      #expect(observed == expected, "seed 2026, bytes \(bytes)")
    }
  }

  private func written(_ body: (inout UnsafeByteWriter) -> Void) -> String {
    var bytes: [UInt8] = []
    bytes.append(writingAtMost: 64, body)
    return String(decoding: bytes, as: UTF8.self)
  }
}
