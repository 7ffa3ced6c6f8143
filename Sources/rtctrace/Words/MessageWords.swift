// What the commands tell the user as they run: errors, warnings, notes, what was written. Each
// sentence once, referenced by name.

enum MessageWords {
    static func theReplayCrashedSignalTheOther(_ a: some Any, _ b: some Any) -> String { "\(a): the replay crashed (signal \(b)); the other traces were checked. " }
    static func runRtctraceExplainToReproduceIt(_ a: some Any) -> String { "Run 'rtctrace explain \(a)' to reproduce it, and report it with the trace" }
    static func theCheckOfThisTraceEnded(_ a: some Any, _ b: some Any) -> String { "\(a): the check of this trace ended with status \(b) and no result" }
    static func cannotRunTheCheck(_ a: some Any, _ b: some Any) -> String { "\(a): cannot run the check: \(b)" }
    static let expectedAtLeastOnePath = "expected at least one PATH"
    static func failSnapshotWithNoTrace(_ a: some Any) -> String { "FAIL \(a): snapshot with no trace" }
    static func warningSnapshotWithNoTraceNot(_ a: some Any, _ b: some Any) -> String { "warning: \(a): snapshot with no trace (not deleted under \(b))" }
    static func warningSnapshotWithNoTraceNot2(_ a: some Any, _ b: some Any) -> String { "warning: \(a): snapshot with no trace, not deleted: \(b)" }
    static func deletedSnapshotWithNoTrace(_ a: some Any) -> String { "deleted \(a): snapshot with no trace" }
    static func snapshotWithNoTraceCannotDelete(_ a: some Any, _ b: some Any) -> String { "\(a): snapshot with no trace, cannot delete: \(b)" }
    static func warningSnapshotWithNoTrace(_ a: some Any) -> String { "warning: \(a): snapshot with no trace" }
    static func updateWritesNothingUnderCi(_ a: some Any) -> String { "\(a): --update writes nothing under CI" }
    static func snapshotsNotDeleted(_ a: some Any) -> String { " (\(a) snapshots not deleted)" }
    static func noTraceToCheckInTraces(_ a: some Any, _ b: some Any) -> String { "no trace to check in \(a) (traces end in \(b))" }
    static func doesNotAddUpToThe(_ a: some Any, _ b: some Any, _ c: some Any) -> String { "\(a) \(b) does not add up to the \(c) TRACE arguments" }
    static func noSuchFileOrFolder(_ a: some Any) -> String { "\(a): no such file or folder" }
    static let expectedTwoTracesAAndB = "expected two traces, A and B"
    static let standardInputCanBeOnlyOne = "standard input ('-') can be only one of A and B"
    static func noSuchFile(_ a: some Any) -> String { "\(a): no such file" }
    static func cannotBeCompared(_ a: some Any, _ b: some Any) -> String { "\(a): cannot be compared: \(b)" }
    static let expectedOneTraceOrTheParts = "expected one TRACE (or the parts of one session)"
    static let theInputTrace = "the input TRACE"
    static let expectedALogATextExport = "expected a LOG (a text export of the device's log)"
    static let giveOneOfProcessAndPid = "give one of --process and --pid, not both"
    static func alreadyExistsUseForceToOverwrite(_ a: some Any) -> String { "\(a): already exists (use --force to overwrite)" }
    static func partOfSessionIsMissingThe(_ a: some Any, _ b: some Any) -> String { "part \(a) of session \(b) is missing: the copy holds every part's records in order; give every part" }
    static func warningTheCopyIsClosed(_ a: some Any) -> String { "warning: \(a); the copy is closed" }
    static func importLogIntoWritesAWhole(_ a: some Any) -> String { "\(a): import-log --into writes a whole copy of the trace, whose replay could not " }
    static let knowWhatWasLostHereGive = "know what was lost here; give a trace 'rtctrace verify' passes, or import the log alone (without --into)"
    static func thePartsGivenAreOneMerged(_ a: some Any) -> String { "(the parts given are \(a)): one merged trace holds every part's seqs in order, so it cannot be written without " }
    static func giveEveryPartOrLeaveOut(_ a: some Any) -> String { "\(a); give every part, or leave out --merge to write one file per part" }
    static func seqCannotRenumberThisLine(_ a: some Any, _ b: some Any) -> String { "\(a): seq \(b): cannot renumber this line" }
    static func seqPartOfSessionStartsAt(_ a: some Any, _ b: some Any, _ c: some Any, _ d: some Any, _ e: some Any) -> String { "\(a): seq \(b): part \(c) of session \(d) starts at seq \(e), but this trace " }
    static func continuesAtSeqItIsNot(_ a: some Any) -> String { "continues at seq \(a): it is not the part that follows (give the parts in order, or their folder)" }
    static func seqFieldSeqExpectedSeqMust(_ a: some Any, _ b: some Any, _ c: some Any) -> String { "\(a): seq \(b): field 'seq': expected \(c) (seq must continue the trace by 1; use --renumber to assign seqs)" }
    static func seqATraceHeaderCannotBe(_ a: some Any, _ b: some Any) -> String { "\(a): seq \(b): a trace.header cannot be appended to an existing trace" }
    static let onlyTheHeaderOfALater = " (only the header of a later part of its session can follow it)"
    static func lineATraceHeaderCannotBe(_ a: some Any, _ b: some Any) -> String { "\(a): line \(b): a trace.header cannot be appended to an existing trace" }
    static let expectedTraceAndAnOptionalInput = "expected TRACE and an optional INPUT"
    static func noSuchTraceCreateItWith(_ a: some Any) -> String { "\(a): no such trace (create it with 'rtctrace record')" }
    static func repairedCutTornBytesKeptComplete(_ a: some Any, _ b: some Any, _ c: some Any) -> String { "repaired \(a): cut \(b) torn bytes, kept \(c) complete lines from them" }
    static func ofTheRecordReadWentInto(_ a: some Any, _ b: some Any, _ c: some Any, _ d: some Any, _ e: some Any) -> String { "\(a); \(b) of the \(c) record\(d) read went into \(e) " }
    static func itEndsWithACompleteFrame(_ a: some Any) -> String { "(it ends with a complete frame; next seq \(a)), the rest did not" }
    static func appendedTheRecordBeforeItTo(_ a: some Any, _ b: some Any, _ c: some Any) -> String { "; appended the \(a) record\(b) before it to \(c) " }
    static func nextSeqNothingAfterIt(_ a: some Any) -> String { "(next seq \(a)), nothing after it" }
    static func itsFirstRecordIsSeqNot(_ a: some Any, _ b: some Any, _ c: some Any) -> String { "\(a): its first record is seq \(b) \(c), not a trace.header (the header " }
    static let frameIsDamagedOrMissingAppending = "frame is damaged or missing); appending would make a trace that cannot be explained"
    static func holdsNoRecordsItsHeaderIs(_ a: some Any) -> String { "\(a): holds no records (its header is missing); create a new trace with 'rtctrace record'" }
    static let anInputTrace = "an input TRACE"
    static func warningNoKeyGivenTheTokens2(_ a: some Any) -> String { "warning: no key given (\(a)): the tokens are made with a random key used once, so they match within " }
    static let thisOutputButNotWithAnother = "this output but not with another run's or with triage rows; give a key kept with the case (or the fleet's) to join them"
    static let theRedactedTraceReplaysDifferently = "the redacted trace replays differently: "
    static let giveExactlyOneOfFindingCode = "give exactly one of --finding CODE, --divergence, --expect-fail"
    static func warningStoppedAtMaxReplaysThe(_ a: some Any) -> String { "warning: stopped at --max-replays \(a): the trace may not be minimal" }
    static func noteNoKeyGivenTheReduced(_ a: some Any) -> String { "note: no key given (\(a)): the reduced trace's tokens are made with a random key used once" }
    static let theSummarySaysNeedsAttentionPartial = "the summary says 'Needs attention', 'Partial' or 'Not all of it could be read': a finding of severity warning or error, "
    static let aRouteDivergenceACallThat = "a route divergence, a call that did not take effect in the end (ineffective, superseded, dropped, still pending, rejected), "
    static func aPartOfASessionJudged(_ a: some Any) -> String { "a part of a session judged without the parts before it, or input not read (\(a)); info findings alone and calls that took effect late are fine (0)" }
    static let expectedAtMostOneIdOr = "expected at most one ID or CODE"
    static func isNeitherARuleIdNor(_ a: some Any) -> String { "'\(a)' is neither a rule id nor a finding code; 'rtctrace rules' lists them" }
    static func hasNoEffectWithFromRows(_ a: some Any) -> String { "\(a) has no effect with --from-rows (it reads rows and replays nothing)" }
    static func noRowsFileJsonlZstIn(_ a: some Any, _ b: some Any) -> String { "\(a): no rows file (*.jsonl, *.zst) in \(b)" }
    static let expectedAtLeastOneRowsFile = "expected at least one rows file"
    static func oRowsGoToARegular(_ a: some Any) -> String { "-o \(a): rows go to a regular file or standard output" }
    static func whatifNotAFindingCodeOr(_ a: some Any) -> String { "--whatif \(a): not a finding code or cause of the catalogue ('rtctrace rules' lists them)" }
    static func noteNoKeyGivenTheChannel(_ a: some Any) -> String { "note: no key given (\(a)): the channel, room and uid columns are null; " }
    static let giveTheFleetSOneKey = "give the fleet's one key for keyed tokens (docs/triage.md)"
    static let expectedAtLeastOneTrace = "expected at least one TRACE"
    static func noTraceFilesInIt(_ a: some Any) -> String { "\(a): no trace files in it" }
    static let theCommandLine = "the command line"
    static let theEditsFilesFirstThenThe = "the edits (files first, then the command line)"
    static func rtctraceFaultTrapReplayTrappingOn(_ a: some Any) -> String { "RTCTRACE_FAULT_TRAP_REPLAY: trapping on \(a) as asked" }
    static func wroteReviewWithRtctraceAcceptOr(_ a: some Any) -> String { "wrote \(a) (review with 'rtctrace accept' or 'rtctrace reject')" }
    static func wroteRecordsToBytes(_ a: some Any, _ b: some Any, _ c: some Any) -> String { "wrote \(a) records to \(b) (\(c) bytes)" }
    static func partOfSessionMissing(_ a: some Any, _ b: some Any, _ c: some Any, _ d: some Any) -> String { "part\(a) \(b) of session \(c) \(d) missing " }
    static func appendedRecordsToNextSeq(_ a: some Any, _ b: some Any, _ c: some Any) -> String { "appended \(a) records to \(b); next seq \(c)" }
}
