/// What redaction says when it cannot keep a trace as recorded, and how two replays of it differ.
enum RedactionWords {
    /// An input whose seq skips `expected`.
    static func seqGap(expected: Int) -> String { "the input has a seq gap (seq \(expected) is missing before it)" }
    /// An input whose time goes back from `last` to `t`.
    static func timeBackwards(last: Int64, t: Int64) -> String { "the input goes back in time (\(t) ms after \(last) ms)" }
    /// A writer closed under the redaction.
    static func writerClosed(_ path: String) -> String { "\(path): the writer is closed" }
    /// A record the redacted trace cannot keep with its seq and time, and why.
    static func cannotKeep(input: String, seq: Int, why: String) -> String {
        "\(input): seq \(seq): cannot keep this record's seq and t in the redacted trace: \(why); "
            + "a redacted trace keeps every seq and t as recorded (see 'rtctrace verify \(input)')"
    }
    /// Two replays whose expectations passed and failed differently.
    static let expectationsDiffer = "expectation outcomes differ"
}
