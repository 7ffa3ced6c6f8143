// What the golden check and the resolution of a command's traces say: failures, warnings. Each
// sentence once.

enum WorkflowMessageWords {
    static func aGoldenSessionMustBeIntact(_ a: some Any) -> String { "\(a) (a golden session must be intact)" }
    static func unknownExpectationTypeItCannotBe(_ a: some Any, _ b: some Any, _ c: some Any) -> String { "\(a): \(b): unknown expectation type (\(c)×); it cannot be checked" }
    static func theReplayOutputChanged(_ a: some Any) -> String { "\(a): the replay output changed:\n" }
    static func cannotBeExplained(_ a: some Any, _ b: some Any) -> String { "\(a): cannot be explained: \(b)" }
    static func checksNothingItHasNoExpect(_ a: some Any) -> String { "\(a): checks nothing: it has no expect.* record and no snapshot " }
    static let addExpectationsOrWriteOneWith = "(add expectations, or write one with 'rtctrace check --update' and review it with 'rtctrace accept')"
    static func aGoldenTraceMustBeIntact(_ a: some Any) -> String { "\(a) (a golden trace must be intact)" }
    static func notTheDamageTheTraceDeclares(_ a: some Any) -> String { "\(a) (not the damage the trace declares)" }
    static func expectDamageDeclaredLostButThe(_ a: some Any, _ b: some Any, _ c: some Any) -> String { "\(a): expect.damage: declared lost \(b), but the reader lost \(c)" }
    static func aLostFrameMoreThanOf(_ a: some Any) -> String { "a lost frame, more than \(a)% of the records " }
    static let undecodableMissingSeqsATornLast = "undecodable, missing seqs, a torn last frame"
    static let expectedATraceOrTheParts = "expected a TRACE (or the parts of one session)"
    static func noSuchFile(_ a: some Any) -> String { "\(a): no such file" }
    static func warningHoldsNoRecordARecorder(_ a: some Any) -> String { "warning: \(a): holds no record (a recorder part whose header never reached the disk); skipped" }
    static func noTraceFilesIn(_ a: some Any) -> String { "no trace files in \(a)" }
    static func holdsTracesGiveOneTraceOr(_ a: some Any, _ b: some Any) -> String { "\(a) holds \(b) traces; give one trace, or the parts of one session" }
}
