// What the golden check and the resolution of a command's traces say: failures, warnings. Each
// sentence once.

enum WorkflowMessageWords {
    static func sessionDamaged(_ a: String) -> String { "\(a) (a golden session must be intact)" }
    static func unknownExpectation(_ a: String, _ b: String, _ c: Int) -> String { "\(a): \(b): unknown expectation type (\(c)×); it cannot be checked" }
    static func snapshotChanged(_ a: String) -> String { "\(a): the replay output changed:\n" }
    static func notExplainable(_ a: String, _ b: String) -> String { "\(a): cannot be explained: \(b)" }
    static func noExpectations(_ a: String) -> String { "\(a): checks nothing: it has no expect.* record and no snapshot " }
    static let addExpectationsOrWriteOneWith = "(add expectations, or write one with 'rtctrace check --update' and review it with 'rtctrace accept')"
    static func traceDamaged(_ a: String) -> String { "\(a) (a golden trace must be intact)" }
    static func undeclaredDamage(_ a: String) -> String { "\(a) (not the damage the trace declares)" }
    static func declaredDamageDiffers(_ a: String, _ b: String, _ c: String) -> String { "\(a): expect.damage: declared lost \(b), but the reader lost \(c)" }
    static func lostFrameShare(_ a: String) -> String { "a lost frame, more than \(a)% of the records " }
    static let undecodableMissingSeqsATornLast = "undecodable, missing seqs, a torn last frame"
    static let expectedATraceOrTheParts = "expected a TRACE (or the parts of one session)"
    static func emptyPartSkipped(_ a: String) -> String { "warning: \(a): holds no record (a recorder part whose header never reached the disk); skipped" }
    static func noTraceFiles(_ a: String) -> String { "no trace files in \(a)" }
    static func severalTraces(_ a: String, _ b: Int) -> String { "\(a) holds \(b) traces; give one trace, or the parts of one session" }
}
