// What the commands tell the user as they run: errors, warnings, notes, what was written. Each
// sentence once, referenced by name.

import SystemLayer

enum MessageWords {
    static func theReplayCrashedSignalTheOther(_ a: String, _ b: Int32) -> String { "\(a): the replay crashed (signal \(b)); the other traces were checked. " }
    static func runRtctraceExplainToReproduceIt(_ a: String) -> String { "Run 'rtctrace explain \(a)' to reproduce it, and report it with the trace" }
    static func theCheckOfThisTraceEnded(_ a: String, _ b: Int32) -> String { "\(a): the check of this trace ended with status \(b) and no result" }
    static func cannotRunTheCheck(_ a: String, _ b: SystemError) -> String { "\(a): cannot run the check: \(b)" }
    static let expectedAtLeastOnePath = "expected at least one PATH"
    static func failSnapshotWithNoTrace(_ a: String) -> String { "FAIL \(a): snapshot with no trace" }
    static func warningSnapshotWithNoTraceNot(_ a: String, _ b: String) -> String { "warning: \(a): snapshot with no trace (not deleted under \(b))" }
    static func warningSnapshotWithNoTraceNot2(_ a: String, _ b: String) -> String { "warning: \(a): snapshot with no trace, not deleted: \(b)" }
    static func deletedSnapshotWithNoTrace(_ a: String) -> String { "deleted \(a): snapshot with no trace" }
    static func snapshotWithNoTraceCannotDelete(_ a: String, _ b: String) -> String { "\(a): snapshot with no trace, cannot delete: \(b)" }
    static func warningSnapshotWithNoTrace(_ a: String) -> String { "warning: \(a): snapshot with no trace" }
    static func updateWritesNothingUnderCi(_ a: String) -> String { "\(a): --update writes nothing under CI" }
    static func snapshotsNotDeleted(_ a: Int) -> String { " (\(a) snapshots not deleted)" }
    static func noTraceToCheckInTraces(_ a: String, _ b: String) -> String { "no trace to check in \(a) (traces end in \(b))" }
    static func doesNotAddUpToThe(_ a: String, _ b: String, _ c: Int) -> String { "\(a) \(b) does not add up to the \(c) TRACE arguments" }
    static func noSuchFileOrFolder(_ a: String) -> String { "\(a): no such file or folder" }
    static let expectedTwoTracesAAndB = "expected two traces, A and B"
    static let standardInputCanBeOnlyOne = "standard input ('-') can be only one of A and B"
    static func noSuchFile(_ a: String) -> String { "\(a): no such file" }
    static func cannotBeCompared(_ a: String, _ b: String) -> String { "\(a): cannot be compared: \(b)" }
    static let expectedOneTraceOrTheParts = "expected one TRACE (or the parts of one session)"
    static let theInputTrace = "the input TRACE"
    static let expectedALogATextExport = "expected a LOG (a text export of the device's log)"
    static let giveOneOfProcessAndPid = "give one of --process and --pid, not both"
    static func alreadyExistsUseForceToOverwrite(_ a: String) -> String { "\(a): already exists (use --force to overwrite)" }
    static func partOfSessionIsMissingThe(_ a: Int, _ b: String) -> String { "part \(a) of session \(b) is missing: the copy holds every part's records in order; give every part" }
    static func warningTheCopyIsClosed(_ a: String) -> String { "warning: \(a); the copy is closed" }
    static func importLogIntoWritesAWhole(_ a: String) -> String { "\(a): import-log --into writes a whole copy of the trace, whose replay could not " }
    static let knowWhatWasLostHereGive = "know what was lost here; give a trace 'rtctrace verify' passes, or import the log alone (without --into)"
    static func thePartsGivenAreOneMerged(_ a: String) -> String { "(the parts given are \(a)): one merged trace holds every part's seqs in order, so it cannot be written without " }
    static func giveEveryPartOrLeaveOut(_ a: String) -> String { "\(a); give every part, or leave out --merge to write one file per part" }
    static func seqCannotRenumberThisLine(_ a: String, _ b: Int) -> String { "\(a): seq \(b): cannot renumber this line" }
    static func seqPartOfSessionStartsAt(_ a: String, _ b: Int, _ c: Int, _ d: String, _ e: Int) -> String { "\(a): seq \(b): part \(c) of session \(d) starts at seq \(e), but this trace " }
    static func continuesAtSeqItIsNot(_ a: Int) -> String { "continues at seq \(a): it is not the part that follows (give the parts in order, or their folder)" }
    static func seqFieldSeqExpectedSeqMust(_ a: String, _ b: Int, _ c: Int) -> String { "\(a): seq \(b): field 'seq': expected \(c) (seq must continue the trace by 1; use --renumber to assign seqs)" }
    static func seqATraceHeaderCannotBe(_ a: String, _ b: Int) -> String { "\(a): seq \(b): a trace.header cannot be appended to an existing trace" }
    static let onlyTheHeaderOfALater = " (only the header of a later part of its session can follow it)"
    static func lineATraceHeaderCannotBe(_ a: String, _ b: Int) -> String { "\(a): line \(b): a trace.header cannot be appended to an existing trace" }
    static let expectedTraceAndAnOptionalInput = "expected TRACE and an optional INPUT"
    static func noSuchTraceCreateItWith(_ a: String) -> String { "\(a): no such trace (create it with 'rtctrace record')" }
    static func repairedCutTornBytesKeptComplete(_ a: String, _ b: Int, _ c: Int) -> String { "repaired \(a): cut \(b) torn bytes, kept \(c) complete lines from them" }
    static func ofTheRecordReadWentInto(_ a: String, _ b: Int, _ c: Int, _ d: String, _ e: String) -> String { "\(a); \(b) of the \(c) record\(d) read went into \(e) " }
    static func itEndsWithACompleteFrame(_ a: Int) -> String { "(it ends with a complete frame; next seq \(a)), the rest did not" }
    static func appendedTheRecordBeforeItTo(_ a: Int, _ b: String, _ c: String) -> String { "; appended the \(a) record\(b) before it to \(c) " }
    static func nextSeqNothingAfterIt(_ a: Int) -> String { "(next seq \(a)), nothing after it" }
    static func itsFirstRecordIsSeqNot(_ a: String, _ b: Int, _ c: String) -> String { "\(a): its first record is seq \(b) \(c), not a trace.header (the header " }
    static let frameIsDamagedOrMissingAppending = "frame is damaged or missing); appending would make a trace that cannot be explained"
    static func holdsNoRecordsItsHeaderIs(_ a: String) -> String { "\(a): holds no records (its header is missing); create a new trace with 'rtctrace record'" }
    static let anInputTrace = "an input TRACE"
    static func warningNoKeyGivenTheTokens2(_ a: String) -> String { "warning: no key given (\(a)): the tokens are made with a random key used once, so they match within " }
    static let thisOutputButNotWithAnother = "this output but not with another run's or with triage rows; give a key kept with the case (or the fleet's) to join them"
    static let theRedactedTraceReplaysDifferently = "the redacted trace replays differently: "
    static let giveExactlyOneOfFindingCode = "give exactly one of --finding CODE, --divergence, --expect-fail"
    static func warningStoppedAtMaxReplaysThe(_ a: Int) -> String { "warning: stopped at --max-replays \(a): the trace may not be minimal" }
    static func noteNoKeyGivenTheReduced(_ a: String) -> String { "note: no key given (\(a)): the reduced trace's tokens are made with a random key used once" }
    static let theSummarySaysNeedsAttentionPartial = "the summary says 'Needs attention', 'Partial' or 'Not all of it could be read': a finding of severity warning or error, "
    static let aRouteDivergenceACallThat = "a route divergence, a call that did not take effect in the end (ineffective, superseded, dropped, still pending, rejected), "
    static func aPartOfASessionJudged(_ a: String) -> String { "a part of a session judged without the parts before it, or input not read (\(a)); info findings alone and calls that took effect late are fine (0)" }
    static let expectedAtMostOneIdOr = "expected at most one ID or CODE"
    static func isNeitherARuleIdNor(_ a: String) -> String { "'\(a)' is neither a rule id nor a finding code; 'rtctrace rules' lists them" }
    static func hasNoEffectWithFromRows(_ a: String) -> String { "\(a) has no effect with --from-rows (it reads rows and replays nothing)" }
    static func noRowsFileJsonlZstIn(_ a: String, _ b: String) -> String { "\(a): no rows file (*.jsonl, *.zst) in \(b)" }
    static let expectedAtLeastOneRowsFile = "expected at least one rows file"
    static func oRowsGoToARegular(_ a: String) -> String { "-o \(a): rows go to a regular file or standard output" }
    static func whatifNotAFindingCodeOr(_ a: String) -> String { "--whatif \(a): not a finding code or cause of the catalogue ('rtctrace rules' lists them)" }
    static func noteNoKeyGivenTheChannel(_ a: String) -> String { "note: no key given (\(a)): the channel, room and uid columns are null; " }
    static let giveTheFleetSOneKey = "give the fleet's one key for keyed tokens (docs/triage.md)"
    static let expectedAtLeastOneTrace = "expected at least one TRACE"
    static func noTraceFilesInIt(_ a: String) -> String { "\(a): no trace files in it" }
    static let theCommandLine = "the command line"
    static let theEditsFilesFirstThenThe = "the edits (files first, then the command line)"
    static func rtctraceFaultTrapReplayTrappingOn(_ a: String) -> String { "RTCTRACE_FAULT_TRAP_REPLAY: trapping on \(a) as asked" }
    static func wroteReviewWithRtctraceAcceptOr(_ a: String) -> String { "wrote \(a) (review with 'rtctrace accept' or 'rtctrace reject')" }
    static func wroteRecordsToBytes(_ a: Int, _ b: String, _ c: Int) -> String { "wrote \(a) records to \(b) (\(c) bytes)" }
    static func partOfSessionMissing(_ a: String, _ b: String, _ c: String, _ d: String) -> String { "part\(a) \(b) of session \(c) \(d) missing " }
    static func appendedRecordsToNextSeq(_ a: Int, _ b: String, _ c: Int) -> String { "appended \(a) records to \(b); next seq \(c)" }
}
