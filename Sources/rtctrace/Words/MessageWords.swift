// What the commands tell the user as they run: errors, warnings, notes, what was written. Each
// sentence once, referenced by name.

import SystemLayer

enum MessageWords {
    static func replayCrashed(_ a: String, _ b: Int32) -> String { "\(a): the replay crashed (signal \(b)); the other traces were checked. " }
    static func reproduceHint(_ a: String) -> String { "Run 'rtctrace explain \(a)' to reproduce it, and report it with the trace" }
    static func checkEndedWithoutResult(_ a: String, _ b: Int32) -> String { "\(a): the check of this trace ended with status \(b) and no result" }
    static func checkNotRun(_ a: String, _ b: SystemError) -> String { "\(a): cannot run the check: \(b)" }
    static let expectedAtLeastOnePath = "expected at least one PATH"
    static func orphanSnapshotFailed(_ a: String) -> String { "FAIL \(a): snapshot with no trace" }
    static func orphanSnapshotKeptUnderCI(_ a: String, _ b: String) -> String { "warning: \(a): snapshot with no trace (not deleted under \(b))" }
    static func orphanSnapshotKept(_ a: String, _ b: String) -> String { "warning: \(a): snapshot with no trace, not deleted: \(b)" }
    static func orphanSnapshotDeleted(_ a: String) -> String { "deleted \(a): snapshot with no trace" }
    static func orphanSnapshotUndeletable(_ a: String, _ b: String) -> String { "\(a): snapshot with no trace, cannot delete: \(b)" }
    static func orphanSnapshot(_ a: String) -> String { "warning: \(a): snapshot with no trace" }
    static func updateUnderCI(_ a: String) -> String { "\(a): --update writes nothing under CI" }
    static func snapshotsNotDeleted(_ a: Int) -> String { " (\(a) snapshots not deleted)" }
    static func noTraceToCheck(_ a: String, _ b: String) -> String { "no trace to check in \(a) (traces end in \(b))" }
    static func caseSizesMismatch(_ a: String, _ b: String, _ c: Int) -> String { "\(a) \(b) does not add up to the \(c) TRACE arguments" }
    static let expectedTwoTracesAAndB = "expected two traces, A and B"
    static let standardInputCanBeOnlyOne = "standard input ('-') can be only one of A and B"
    static func notComparable(_ a: String, _ b: String) -> String { "\(a): cannot be compared: \(b)" }
    static let expectedOneTraceOrTheParts = "expected one TRACE (or the parts of one session)"
    static let theInputTrace = "the input TRACE"
    static let expectedALogATextExport = "expected a LOG (a text export of the device's log)"
    static let giveOneOfProcessAndPid = "give one of --process and --pid, not both"
    static func missingPartForCopy(_ a: Int, _ b: String) -> String { "part \(a) of session \(b) is missing: the copy holds every part's records in order; give every part" }
    static func copyClosedWarning(_ a: String) -> String { "warning: \(a); the copy is closed" }
    static func damagedIntoTrace(_ a: String) -> String { "\(a): import-log --into writes a whole copy of the trace, whose replay could not " }
    static let knowWhatWasLostHereGive = "know what was lost here; give a trace 'rtctrace verify' passes, or import the log alone (without --into)"
    static func mergeNeedsEveryPart(_ a: String) -> String { "(the parts given are \(a)): one merged trace holds every part's seqs in order, so it cannot be written without " }
    static func mergeNeedsEveryPartHint(_ a: String) -> String { "\(a); give every part, or leave out --merge to write one file per part" }
    static func notRenumberable(_ a: String, _ b: Int) -> String { "\(a): seq \(b): cannot renumber this line" }
    static func partDoesNotFollow(_ a: String, _ b: Int, _ c: Int, _ d: String, _ e: Int) -> String { "\(a): seq \(b): part \(c) of session \(d) starts at seq \(e), but this trace " }
    static func partDoesNotFollowHint(_ a: Int) -> String { "continues at seq \(a): it is not the part that follows (give the parts in order, or their folder)" }
    static func seqDoesNotContinue(_ a: String, _ b: Int, _ c: Int) -> String { "\(a): seq \(b): field 'seq': expected \(c) (seq must continue the trace by 1; use --renumber to assign seqs)" }
    static func headerAppendedAtSeq(_ a: String, _ b: Int) -> String { "\(a): seq \(b): a trace.header cannot be appended to an existing trace" }
    static let onlyTheHeaderOfALater = " (only the header of a later part of its session can follow it)"
    static func headerAppendedAtLine(_ a: String, _ b: Int) -> String { "\(a): line \(b): a trace.header cannot be appended to an existing trace" }
    static let expectedTraceAndAnOptionalInput = "expected TRACE and an optional INPUT"
    static func noTraceToAppendTo(_ a: String) -> String { "\(a): no such trace (create it with 'rtctrace record')" }
    static func tornTailRepaired(_ a: String, _ b: Int, _ c: Int) -> String { "repaired \(a): cut \(b) torn bytes, kept \(c) complete lines from them" }
    static func appendStopped(_ error: String, inFile: Int, of read: Int, into trace: String) -> String { "\(error); \(inFile) of the \(read) record\(read == 1 ? "" : "s") read went into \(trace) " }
    static func appendStoppedAtFrame(_ a: Int) -> String { "(it ends with a complete frame; next seq \(a)), the rest did not" }
    static func appendStoppedPartly(_ records: Int, to trace: String) -> String { "; appended the \(records) record\(records == 1 ? "" : "s") before it to \(trace) " }
    static func appendStoppedNextSeq(_ a: Int) -> String { "(next seq \(a)), nothing after it" }
    static func headerNotFirst(_ a: String, _ b: Int, _ c: String) -> String { "\(a): its first record is seq \(b) \(c), not a trace.header (the header " }
    static let frameIsDamagedOrMissingAppending = "frame is damaged or missing); appending would make a trace that cannot be explained"
    static func noHeaderToAppendTo(_ a: String) -> String { "\(a): holds no records (its header is missing); create a new trace with 'rtctrace record'" }
    static let anInputTrace = "an input TRACE"
    static func oneTimeKeyRedactWarning(_ a: String) -> String { "warning: no key given (\(a)): the tokens are made with a random key used once, so they match within " }
    static let thisOutputButNotWithAnother = "this output but not with another run's or with triage rows; give a key kept with the case (or the fleet's) to join them"
    static let theRedactedTraceReplaysDifferently = "the redacted trace replays differently: "
    static let giveExactlyOneOfFindingCode = "give exactly one of --finding CODE, --divergence, --expect-fail"
    static func replayBoundReached(_ a: Int) -> String { "warning: stopped at --max-replays \(a): the trace may not be minimal" }
    static func oneTimeKeyReduceNote(_ a: String) -> String { "note: no key given (\(a)): the reduced trace's tokens are made with a random key used once" }
    static let theSummarySaysNeedsAttentionPartial = "the summary says 'Needs attention', 'Partial' or 'Not all of it could be read': a finding of severity warning or error, "
    static let aRouteDivergenceACallThat = "a route divergence, a call that did not take effect in the end (ineffective, superseded, dropped, still pending, rejected), "
    static func explainFailureCauses(_ a: String) -> String { "a part of a session judged without the parts before it, or input not read (\(a)); info findings alone and calls that took effect late are fine (0)" }
    static let expectedAtMostOneIdOr = "expected at most one ID or CODE"
    static func unknownRuleOrCode(_ a: String) -> String { "'\(a)' is neither a rule id nor a finding code; 'rtctrace rules' lists them" }
    static func ignoredWithFromRows(_ a: String) -> String { "\(a) has no effect with --from-rows (it reads rows and replays nothing)" }
    static func noRowsFile(_ a: String, _ b: String) -> String { "\(a): no rows file (*.jsonl, *.zst) in \(b)" }
    static let expectedAtLeastOneRowsFile = "expected at least one rows file"
    static func rowsTargetRefused(_ a: String) -> String { "-o \(a): rows go to a regular file or standard output" }
    static func unknownWhatIf(_ a: String) -> String { "--whatif \(a): not a finding code or cause of the catalogue ('rtctrace rules' lists them)" }
    static func oneTimeKeyRowsNote(_ a: String) -> String { "note: no key given (\(a)): the channel, room and uid columns are null; " }
    static let giveTheFleetSOneKey = "give the fleet's one key for keyed tokens (docs/triage.md)"
    static let expectedAtLeastOneTrace = "expected at least one TRACE"
    static func noTraceFiles(_ a: String) -> String { "\(a): no trace files in it" }
    static let theCommandLine = "the command line"
    static let theEditsFilesFirstThenThe = "the edits (files first, then the command line)"
    static func faultTrap(_ a: String) -> String { "RTCTRACE_FAULT_TRAP_REPLAY: trapping on \(a) as asked" }
    static func wroteForReview(_ a: String) -> String { "wrote \(a) (review with 'rtctrace accept' or 'rtctrace reject')" }
    static func wroteRecords(_ a: Int, _ b: String, _ c: Int) -> String { "wrote \(a) records to \(b) (\(c) bytes)" }
    static func missingParts(_ parts: [Int], listed: String, session: String) -> String { "part\(parts.count == 1 ? "" : "s") \(listed) of session \(session) \(parts.count == 1 ? "is" : "are") missing " }
    static func appended(_ a: Int, _ b: String, _ c: Int) -> String { "appended \(a) records to \(b); next seq \(c)" }
}
