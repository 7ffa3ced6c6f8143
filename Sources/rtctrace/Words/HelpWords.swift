// What `rtctrace --help` and each command's `--help` say: summaries, option help, notes, exit
// statuses. Each sentence once, referenced by name from the command that declares it.

enum HelpWords {
    static let onlyRecordsWhoseTypeStartsWith = "Only records whose type starts with PREFIX (e.g. 'api.' or 'srv.qualityReport'); repeatable."
    static let onlyRecordsWithMs = "Only records with t ≥ MS."
    static let untilMsHelp = "Only records with t ≤ MS."
    static let printATraceSRecordsAs = "Print a trace's records as JSON Lines, one per line, exactly as recorded."
    static let damagedFramesAndInvalidRecordsAre = "Damaged frames and invalid records are reported on stderr and skipped (exit 0) unless --strict.\nA line of a frequent type is checked for its frame, checksum, seq, time and JSON structure and passed\nthrough without reading its other fields; --strict (and verify, explain) decode every field."
    static let tracesCheckedInParallelDefaultThe = "Traces checked in parallel (default: the number of cores)."
    static let alsoWriteJunitXmlOneTestcase = "Also write JUnit XML (one testcase per trace)."
    static let snapshotFilesWithNoTraceWarn = "Snapshot files with no trace: warn (default), fail or delete."
    static let printOneJsonObjectWithEvery = "Print one JSON object with every trace's outcome."
    static let writeNameGoldenJsonNewFor = "Write NAME.golden.json.new for changed or missing snapshots (never under CI)."
    static let onlyPrintFailuresAndTheClosing = "Only print failures and the closing count."
    static let internalCheckEachTraceInTurn = "Internal: check each TRACE in turn and print its outcome for the parent check."
    static let internalWithIsolatedWorkerWhyThe = "Internal: with --isolated-worker, why the snapshot is not read."
    static let internalWithIsolatedWorkerHowMany = "Internal: with --isolated-worker, how many of the TRACE arguments each case takes (a golden session's parts)."
    static let checkGoldenTracesEveryExpectRecord = "Check golden traces: every expect.* record and NAME.golden.json snapshot; exit 1 on any failure."
    static let pathMayBeATraceA = "PATH may be a trace, a folder (searched recursively for *.trace.zst, *.jsonl, *.jsonl.zst) or @LIST. The parts of one recorded\nsession (the same session.id) are one case, checked as one trace against the snapshot named after its first part.\nReview new snapshots with 'rtctrace accept' or 'rtctrace reject'."
    static let anExpectationOrASnapshotFailed = "an expectation or a snapshot failed, or a trace could not be checked"
    static let printTheDifferencesAsJsonSchema = "Print the differences as JSON (schema rtctrace.diff/1, see docs/json.md)."
    static let diffABJsonToleranceMs = "diff A B [--json] [--tolerance-ms MS] [options]"
    static let compareTwoTracesOfOneScenario = "Compare two traces of one scenario: verdicts, routes, divergences, findings and quality, first difference first."
    static let recordsArePairedByTypeAnd = """
        Records are paired by type and identifying fields (target, device id, state, event, layer ids), not by
        time; states that differ for no longer than the tolerance do not count. A or B may be the parts of one
        recorded session, as their folder or @LIST: each side is replayed as one trace. One of them may be
        '-', standard input.
        """
    static let theTracesBehaveDifferently = "the traces behave differently"
    static let theExportFormatOnlyChromePerfetto = "The export format; only 'chrome' (Perfetto UI, chrome://tracing)."
    static let theJsonFileToWriteAtomically = "The JSON file to write (atomically; overwritten if it exists)."
    static let exportTheReplaySLanesRecords = "Export the replay's lanes, records, verdicts and findings (Chrome Trace Event Format)."
    static let openTheFileAtHttpsUi = "Open the file at https://ui.perfetto.dev or chrome://tracing. Timestamps are microseconds since\nthe trace started. See docs/report.md for the mapping."
    static let theTraceToCreateWrittenAtomically = "The trace to create (written atomically): the log's records, or with --into a copy of TRACE with them merged in by time."
    static let theRecordedTraceToMergeThe = "The recorded trace to merge the log into (never changed); repeat it, or give a folder or @LIST, for the parts of one session."
    static let theDayOfAFileS = "The day of a file's first time written without one (a copy from Console; later lines roll over midnight), in the log's own offset (default: from the trace's startedAt)."
    static let isNotADateYyyyMm = "is not a date YYYY-MM-DD"
    static let theUtcOffsetOfTimesWritten = "The UTC offset of times written without one, when no line of the file gives one (e.g. +0800)."
    static let isNotAUtcOffsetHhmm = "is not a UTC offset ±HHMM"
    static let theAppSProcessNameIn = "The app's process name in the log (default: from the trace's bundle id, or the one app process the log shows)."
    static let theAppSProcessIdIn = "The app's process id in the log."
    static func redactOutputHelp(_ a: String) -> String { "Replace the output's personal values by tokens, as 'rtctrace redact' does (key: \(a))." }
    static func redactSaltHelp(_ a: String) -> String { "With --redact: the HMAC key of the tokens (also --salt-file, or \(a))." }
    static let readEachLogWithThisTable = "Read each LOG with this table of line shapes (an SDK's own text log) instead of as a device log export."
    static let alsoListTheShapesOfThe = "Also list the shapes of the lines skipped, with their counts."
    static let turnATextExportOfThe = "Turn a text export of the device's log into trace records (sys.*), on their own or merged into a trace."
    static let logIsLogShowOutputDefault = "LOG is `log show` output (default or compact style, --style ndjson or json) or a copy from Console\n"
    static let sessionLinesRouteChangeNotificationsInterruptions = "session lines, route change notifications, interruptions and activations become sys.* records (the app's own\n"
    static let interruptionAnOsInterruptionbeganEveryOther = "interruption an os.interruptionBegan); every other line is counted and skipped. With --into, the times are\n"
    static let anchoredOnAnActivationBothHold = "anchored on an activation both hold (within 2 s), else taken from the wall clock; an own-process record the\n"
    static let traceAlreadyHoldsWithinTheMatch = "trace already holds within the match window is not added twice. sys.* records never change a verdict,\n"
    static let anOutcomeOrADivergenceExplain = "an outcome or a divergence: explain cites them \"from the system log\" (E1). See docs/import.md."
    static let theIntoTraceIsDamagedOr = "the --into trace is damaged or cannot be placed on the log's clock (nothing is written)"
    static func oneTimeKeyWarning(_ a: String) -> String { "warning: no key given (\(a)): the tokens are made with a random key used once" }
    static let warningWhichProcessIsTheApp = "warning: which process is the app is unknown (give --process NAME or --pid N): every record says self false, "
    static let andNoLineBecameTheApp = "and no line became the app's own os.* record"
    static let printTheSummaryAsJson = "Print the summary as JSON."
    static let summariseATraceHeaderDurationRecord = "Summarise a trace: header, duration, record counts, frames, sizes, gaps and recovery events."
    static let recordOutputHelp = "The trace to create (written atomically)."
    static let recordsPerZstdFrameDefault = "Records per zstd frame (default 1024)."
    static let zstdCompressionLevelDefaultASetting = "zstd compression level (default: a setting tuned for trace lines, between levels 8 and 9)."
    static let assignSeqInsteadOfRequiringThe = "Assign seq 0, 1, 2… instead of requiring the input's seqs to be consecutive."
    static let withThePartsOfASession = "With the parts of a session: write one trace holding every part (default: one trace per part)."
    static let writeJsonLinesRecordsIntoA = "Write JSON Lines records into a new zstd trace."
    static let everyRecordIsValidatedAnInvalid = "Every record is validated; an invalid record, a seq out of order or t going backwards is an error\nnaming the seq (or line) and the field. Lines are kept byte for byte (unknown fields included).\nA part that continues a recorded session (its header's session.part > 1) keeps its seqs: the trace starts\nat the seq its header carries. INPUT may be the parts of one session (in any order, their folder, or\n@LIST): OUT is then a folder that gets one trace per part (part-N.trace.zst, N the\npart number its header gives), or with --merge one trace."
    static let aLineIsNotAValid = "a line is not a valid record, or its seq or t does not continue the trace (nothing is written)"
    static let continueTheTraceSSeqInstead = "Continue the trace's seq instead of requiring the input to carry it."
    static let appendJsonLinesRecordsFromA = "Append JSON Lines records (from a file or standard input) to an existing trace."
    static let theFirstAppendedRecordMustCarry = "The first appended record must carry the seq after the trace's last one (unless --renumber).\nA torn final frame is repaired first: its complete lines are kept, the torn bytes cut.\nThe next part of the trace's recorded session may be appended, header included: it stays as the part boundary."
    static let appendFailureMeaning = "a line is not a valid record or does not continue the trace (the records before it are appended)"
    static let theRedactedTraceToCreateWritten = "The redacted trace to create (written atomically), or the folder for a session's parts."
    static func saltHelp(_ a: String) -> String { "The HMAC key of the tokens (also --salt-file, or \(a); without a key, a random one used once)." }
    static let redactMergeHelp = "With the parts of a session: write one trace holding every part (default: one redacted file per part)."
    static let replacePersonalDataNamesIdsUids = "Replace personal data (names, ids, uids, track ids, rooms, log text) with stable tokens."
    static let deviceNamesAndIdsUidsTrack = "Device names and ids, uids, track ids, channel and room names, the bundle id, sdk.log messages and\nany value of an open field the format does not list become tokens like dev-3fa2b1c9, keyed by --salt,\n--salt-file or RTCTRACE_SALT (without one, a random key used once); seq, t and structure are kept. The redacted trace is replayed and\nmust give the same verdicts, divergences and findings (exit 1 otherwise). See docs/report.md.\nTRACE may be the parts of one recorded session (in any order, their folder, or @LIST): one token set\nfor all of them, and by default OUT is a folder that gets one redacted file per part (part-N.trace.zst, N the part\nnumber its header gives), still one session; each part keeps its header and checkpoint, so a part can still be replayed alone.\nWith --merge OUT is one trace holding every part in order."
    static let theRedactedTraceWouldReplayDifferently = "the redacted trace would replay differently (different verdicts, divergences or findings)"
    static let theReducedTraceToCreateWritten = "The reduced trace to create (written atomically)."
    static let keepAFindingWithThisCode = "Keep a finding with this code (the most severe occurrence unless --seq)."
    static func unknownFindingCode(_ a: String) -> String { "unknown finding code '\(a)'; known codes: " }
    static let withFindingKeepTheOccurrenceDecided = "With --finding: keep the occurrence decided by the record with this seq."
    static func redactionKeyHelp(_ a: String) -> String { "The redaction key (as for 'rtctrace redact': also --salt-file, or \(a))." }
    static let doNotRedactTheResultIt = "Do not redact the result (it is redacted by default: it is meant for a repository)."
    static let replaysAllowedInAllDefaultThe = "Replays allowed in all (default 2000); the best trace so far is kept."
    static let keepTheFirstUnexplainedRouteDivergence = "Keep the first unexplained route divergence (else the first divergence)."
    static let keepTheFirstFailingExpectRecord = "Keep the first failing expect.* record failing."
    static let shrinkATraceToAFew = "Shrink a trace to a few records that still show a finding, divergence or failing expectation."
    static let deltaDebuggingDdminOverTheRecords = "Delta debugging (ddmin) over the records after the header, then shorter gaps between timestamps;\nseqs are renumbered and expect.* records pinning the problem are appended, ready for traces/.\nTRACE may be the parts of one recorded session (in any order, their folder, or @LIST): the reduced\ntrace is one self-contained trace. See docs/report.md."
    static let theTraceDoesNotShowThe = "the trace does not show the problem asked for (nothing is written)"
    static let leaveOutRecordsThatChangedNothing = "Leave out records that changed nothing and produced nothing."
    static let onlyStepsThatChangeThisState = "Only steps that change this state field (repeatable), e.g. --lane devices --lane predictedRoute."
    static let replayATraceEachRecordWith = "Replay a trace: each record with the engine state it changed, verdicts inline, divergences."
    static let typeFromAndToPickSteps = "--type, --from and --to pick steps as they pick records in 'rtctrace cat'; timers and the end of the trace\n"
    static let haveNoTypeTheReplayItself = "have no type. The replay itself always covers the whole trace."
    static let printTheResultAsJsonSchema = "Print the result as JSON (schema rtctrace.explain/1, see docs/json.md)."
    static let explainATraceCallsThatDid = "Explain a trace: calls that did not take effect and why, divergences, findings, quality."
    static let headingsAreBoldOnATerminal = "Headings are bold on a terminal, unless NO_COLOR is set."
    static let theHtmlFileToWriteAtomically = "The HTML file to write (atomically; overwritten if it exists)."
    static let writeASelfContainedHtmlReport = "Write a self-contained HTML report: the explanation, a timeline of every lane, findings."
    static let thePageLoadsNothingFromElsewhere = "The page loads nothing from elsewhere: open it in any browser, attach it to a ticket, print it.\nSee docs/report.md."
    static func partlyUnreadableInput(_ a: String) -> String { "the report is written, but not all of the input could be read (\(a)): " }
    static let itsStatusSaysSoAndGives = "its status says so and gives no all-clear"
    static let pathIsAFolderSearchedRecursively = "PATH is a folder (searched recursively), a trace or a .new file; default: traces/. Nothing is written under CI.\n"
    static let onlyRegularFilesInsideTheFolder = "Only regular files inside the folder given are renamed or deleted: links are left alone."
    static let ciIsSetSoSnapshotsAre = "CI is set, so snapshots are not written"
    static func noSnapshotsUnderCI(_ a: String) -> String { "\(a): snapshots are never written in CI" }
    static func renameFailed(_ a: String, _ b: String, _ c: String) -> String { "\(a): cannot rename to \(b): \(c)" }
    static let noPendingSnapshots = "no pending snapshots"
    static let printTheCatalogueOrTheEntry = "Print the catalogue (or the entry) as JSON."
    static let listTheContractSRulesAnd = "List the contract's rules and finding codes, or explain one."
    static let idIsARuleIdR = "ID is a rule id (R4, I3, X3, …), CODE a finding code (route.ineffective, …); case does not matter.\nThe full contract is docs/contract.md."
    static let tracesReplayedInParallelDefaultThe = "Traces replayed in parallel (default: the number of cores)."
    static let onlyShardIOfIBy = "Only shard I of N (0 ≤ I < N), by session id, else by path (stable FNV-1a)."
    static let writeTheRowsHereZstdFrames = "Write the rows here (zstd frames when the name ends in .zst; missing folders are created; an existing file that is not an input is replaced, as a retried run needs) instead of standard output."
    static func rowsSaltHelp(_ a: String) -> String { "The HMAC key of the channel, room and uid tokens in rows (also --salt-file, or \(a); without a key those columns are null)." }
    static let exitWhenTagTracesOrTag = "Exit 1 when TAG>N traces (or TAG>P% of the readable ones) have a tag; repeatable."
    static let printTheSummaryOnStandardError = "Print the summary on standard error even when it is not a terminal."
    static let printTheSummaryAsOneJson = "Print the summary as one JSON object on standard error, and nothing else there (schema rtctrace.triage-summary/2); with --from-rows on standard output."
    static let listTheTagsWithWhatEach = "List the tags with what each means, and exit."
    static let pathAreRowsFilesOfRuns = "PATH... are rows files (of runs or their shards): print the summary they make, duplicates marked across all, on standard output."
    static let rowsOfAnEarlierPeriodA = "Rows of an earlier period (a file, a folder of shards or @LIST; repeatable): add what is new and what is gone since."
    static let alsoReplayEveryTraceWithEdits = "Also replay every trace with edits (a FILE.json of edits, or advice:CODE / advice:CAUSE for the catalogue's advice at each item); rows and summary say what they change (docs/whatif.md)."
    static let listEverythingInTheTextSummary = "List everything in the text summary (every regression, signature, tag and version), not a screenful of each."
    static let triageManyTracesOneJsonRow = "Triage many traces: one JSON row per trace (facts, counts, tags), a summary, thresholds for CI."
    static let pathIsATraceAFolder = """
        PATH is a trace, a folder (searched recursively for *.jsonl, *.zst and *.rtcbundle) or @LIST (a file
        of paths, one a line). The files of one recorded session (header session.id) are one trace, replayed in
        part order; a recorder's bundle stands for the parts in it. Rows come in path order whatever --jobs is; a file or folder that cannot be read, or a file that
        is not a trace, gets a row that says why; other files passed by are counted in the summary. On a terminal a progress line and the summary go to standard error; standard
        output has nothing but rows. Channels, rooms and uids are keyed tokens (those 'rtctrace redact' writes
        with the same key: --salt, --salt-file or RTCTRACE_SALT), never names; without a key they are null.
        With --from-rows, PATH... are rows instead (the shards of a run): the summary they make goes to
        standard output, the same as one unsharded run's. See docs/triage.md (rows, tags, regressions, week
        over week, SQL, sharding, the fleet's one key, the Kubernetes Job).
        """
    static let aFailOnThresholdWasCrossed = "a --fail-on threshold was crossed (damaged and unreadable inputs are rows, not failures)"
    static let printOneJsonObjectPerTrace = "Print one JSON object per trace."
    static let checkTracesStrictlyExitIfAny = "Check traces strictly: exit 1 if any frame, record, seq or end mark is damaged."
    static let aTraceCreatedByRtctraceMust = "A trace created by rtctrace must also end with its end mark: one cut at a frame boundary fails.\nA folder (searched recursively for *.jsonl, *.zst and *.rtcbundle) or @LIST stands for the traces in it: each file is verified, and a session's parts must all be there.\nA recorder's bundle (NAME.rtcbundle) is verified as its manifest says: every part there, with its size and SHA-256, then each part."
    static let aTraceIsDamagedAFrame = "a trace is damaged (a frame, record, seq or end mark), or a session's part is missing"
    static let printRtctraceSVersion = "Print rtctrace's version."
    static let printTheWhatIfAsJson = "Print the what-if as JSON (schema rtctrace.whatif/1, see docs/json.md)."
    static let editsFromAFileAJson = "Edits from a file: a JSON array of edits (docs/whatif.md), applied before those on the line (repeatable)."
    static let addACategoryOptionToEvery = "Add a category option to every obs.sessionActivated (from --from MS on)."
    static let removeACategoryOptionFromEvery = "Remove a category option from every obs.sessionActivated (from --from MS on)."
    static let setTheCategoryOfEveryObs = "Set the category of every obs.sessionActivated (from --from MS on)."
    static let setTheModeOfEveryObs = "Set the mode of every obs.sessionActivated (from --from MS on)."
    static let moveTheRecordSeqToJust = "Move the record SEQ to just after the record named by --after SEQ."
    static let delayTheRecordSeqByThe = "Delay the record SEQ by the ms given next (--delay SEQ MS)."
    static let removeTheRecordSeq = "Remove the record SEQ."
    static let removeEveryRecordOfTypeFrom = "Remove every record of TYPE (from --from MS on)."
    static let insertARecordJsonWithoutSeq = "Insert a record (JSON without seq and t) --at MS or --after SEQ."
    static let forMoveAndInsertJustAfter = "For --move and --insert: just after this record, at its time."
    static let forInsertAtThisTime = "For --insert: at this time."
    static let forTheSessionEditsAndDrop = "For the session edits and --drop-type: only records at or after this time."
    static let replayATraceWithEditsA = "Replay a trace with edits (a proposed fix) and say what the contract predicts would change."
    static let recordsAreNamedByTheirSeq = """
        Records are named by their seq in the trace; the edited trace is replayed numbered afresh and is
        compared with the original in diff's order and words. From the first edited record on, the device's
        route readings and the SDK's callbacks are history, so divergences and the findings they raise are
        left out on both sides. The trace is never written. See docs/whatif.md.
        """
    static let noCallThatDidNotTake = "no call that did not take effect and no finding above info of the original is gone, or one is added"
    static let replayEachItemSAdviceAs = "Replay each item's advice as edits (docs/whatif.md) and say whether it changes the outcome."
    static func rejectedGone(_ a: String) -> String { "rejected \(a) (already gone)" }
    static func snapshotsNotDone(_ a: Int, _ b: Int, _ c: String) -> String { " (\(a) of \(b) snapshots not \(c))" }
    static let replayJSON = "JSON Lines: one {\"kind\":\"step\"} object per record, then one {\"kind\":\"result\"}."
    static let importLogColumns = "(LEVEL<tab>TIME<tab>PROCESS<tab>MESSAGE, in any language), plain or zstd-compressed. The media server's\n"
}
