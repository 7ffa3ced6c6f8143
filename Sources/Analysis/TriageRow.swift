import Contract
import QualityEngine
import Replay
import TraceCodec
import TraceModel

/// What `rtctrace triage` says about one trace: the facts a fleet query groups by, joins on and divides
/// by, the counts it sums, and the tags it filters on (one JSON row each, schema `rtctrace.triage/2`).
package struct TriageRow: Sendable, Equatable {
    /// The trace: its first part's path, as given or found.
    package var path: String
    /// Every part's path in part order, for a trace recorded as several files (empty for one file).
    package var parts: [String] = []
    /// The header's session id, when the recorder wrote one.
    package var session: String?
    /// Bytes on disk, over all parts.
    package var size: Int = 0
    /// SHA-256 of the bytes of every part, in part order (hex): the same upload twice has the same hash.
    package var contentHash: String?
    /// The earlier input of the run (in path order) with the same bytes, when this row repeats it.
    package var duplicateOf: String?
    /// The header's facts (nil without a header).
    package var layer: Layer?
    /// SDK name and version, from the header.
    package var sdk: String?
    /// Hardware model, from the header.
    package var device: String?
    /// OS name and version, from the header.
    package var os: String?
    /// Whether the header says simulator.
    package var simulator: Bool?
    /// The app's bundle id, from the header (the customer's app, not a person: kept as written).
    package var bundleId: String?
    /// The app's version, from the header.
    package var appVersion: String?
    /// The channel (SRTC) the trace first joins, as the keyed token `rtctrace redact` writes for it.
    package var channel: String?
    /// The room (SMeeting) the trace first enters, as the keyed token `rtctrace redact` writes for it.
    package var room: String?
    /// The local uid the first join or enter names, as a keyed token (see `TriageKeys`).
    package var uid: String?
    /// Wall-clock start, as the header wrote it.
    package var startedAt: String?
    /// Wall-clock start in UTC (`YYYY-MM-DDTHH:MM:SS.mmmZ`), when `startedAt` is an ISO 8601 time.
    package var startedAtUTC: String?
    /// Last `t` − first `t`.
    package var durationMs: Int64 = 0
    /// Records read (every part's, headers included).
    package var records = 0
    /// Records the device-side recorder dropped (`trace.dropped`, its queue was full).
    package var droppedRecords = 0
    /// Stretches in which the recorder recorded nothing (`trace.paused`: switched off, the volume locked,
    /// the disk full, free space low).
    package var recorderPauses = 0
    /// The ids of the user's problem reports marked in the trace (`trace.report`), in order, each once:
    /// what a ticket system joins on.
    package var reportIds: [String] = []
    /// Reader problems, all of them.
    package var problems = 0
    /// Reader problems by kind.
    package var problemsByKind: [String: Int] = [:]
    /// The first problem, in words.
    package var firstProblem: String?
    /// Records replayed with strings clipped to `TextCap.keptBytes` (a limit the trace exceeded).
    package var recordsWithClippedStrings = 0
    /// Why there is nothing to judge (not a trace, unreadable, empty, no header), or nil.
    package var unexplainable: String?
    /// Why the session is incomplete, or nil.
    package var incompleteSession: String?
    /// Why judgement was withheld (an unknown state, a missing part), or nil: no all-clear for this row.
    package var partial: String?
    /// Calls that got a verdict.
    package var calls = 0
    /// Every call by what became of it: kind, verdict and cause, outcome and cause (V1, V2).
    package var callFates: [CallFate: Int] = [:]
    /// Calls that did not take effect, by cause (`rtctrace.triage/1`: the outcome's cause, or the outcome
    /// for one without a cause, e.g. `superseded`).
    package var notTakingEffectByCause: [String: Int] = [:]
    /// What became of the route calls, by outcome (V2), when the replay decided outcomes.
    package var outcomes: [String: Int] = [:]
    /// Divergences a finding explains.
    package var explainedDivergences = 0
    /// Divergences nothing explains.
    package var unexplainedDivergences = 0
    /// The kinds of the external devices that blocked a route call (device words, v4), sorted.
    package var blockingDevices: [String] = []
    /// Restarts of the app's process the session shows (RS1: parts whose header says resumed).
    package var restarts = 0
    /// Divergences open beside lost records, or begun from an unknown start state, that nothing explains (X5).
    package var uncertainDivergences = 0
    /// Findings by code, all of them.
    package var findings: [FindingCode: Int] = [:]
    /// Findings of severity error, other than divergences (of those the replay kept).
    package var errors = 0
    /// Interruptions (`os.interruptionBegan`) by cause (`unspecified` when the record has none).
    package var interruptionsByCause: [String: Int] = [:]
    /// Reconnects (Q7).
    package var reconnects = 0
    /// The lowest and highest MOS of the SDK's quality reports, when any carried one.
    package var mos: ClosedRange<Double>?
    /// Milliseconds at each quality level (`excellent`, …, `noData`), when the trace has quality data.
    package var qualityTimeMs: [QualityTime]?
    /// The longest poor or lost stretch.
    package var worstQuality: Stretch?
    /// The problem classes, in taxonomy order.
    package var tags: [TriageTag] = []
    /// What `triage --whatif` edits changed in this trace (nil without `--whatif`).
    package var whatif: TriageWhatIf?
    /// The command that opens the whole trace (`Triage.command(naming:folders:)`); nil when unknown
    /// (rows of an earlier version), where the summary names every part.
    package var command: String?

    /// Milliseconds at one quality level.
    package struct QualityTime: Sendable, Equatable {
        /// The level (`excellent`, `good`, `poor`, `lost`, `unknown`, `noData`).
        package var level: String
        /// Milliseconds at it.
        package var ms: Int64
    }

    /// A stretch of the trace's time.
    package struct Stretch: Sendable, Equatable {
        /// Its start.
        package var startT: Int64
        /// Its end.
        package var endT: Int64
    }

    /// Creates a row for a trace with nothing known yet.
    package init(path: String) { self.path = path }

    /// Calls that did not take effect, over all causes.
    package var notTakingEffect: Int { callFates.filter { $0.key.didNotTakeEffect }.values.reduce(0, +) }

    /// Deferred calls that took effect later.
    package var tookEffectLate: Int { callFates.filter { $0.key.tookEffectLate }.values.reduce(0, +) }

    /// Calls that got a verdict, by record type.
    package var callsByKind: [String: Int] {
        var out: [String: Int] = [:]
        for (f, n) in callFates { out[f.call.rawValue, default: 0] += n }
        return out
    }

    /// Cause → calls: the calls that did not take effect (`notTaking: true`) or took effect late, each
    /// counted under the cause of its verdict and, where different, the cause of its outcome.
    package func causes(notTaking: Bool) -> [String: Int] {
        var out: [String: Int] = [:]
        for (f, n) in callFates where notTaking ? f.didNotTakeEffect : f.tookEffectLate {
            for c in f.causes { out[c.rawValue, default: 0] += n }
        }
        return out
    }

    /// Interruptions, over all causes.
    package var interruptions: Int { interruptionsByCause.values.reduce(0, +) }

    /// The number of files the trace was read from.
    package var partCount: Int { max(parts.count, 1) }

    /// Whether the trace could be judged (it is neither unreadable nor not a trace).
    package var readable: Bool { !tags.contains(.unreadable) && !tags.contains(.notATrace) }

    /// Whether the row says less than a whole, intact trace would: damaged, missing records the recorder
    /// dropped, or part of a session judged without the rest.
    package var compromised: Bool {
        tags.contains(.damagedTrace) || tags.contains(.recorderDroppedRecords) || tags.contains(.partialSession)
            || tags.contains(.incompleteSession)
    }

    /// The date part of `startedAt` (`YYYY-MM-DD`) as written, in the writer's time zone.
    package var day: String? {
        guard let s = startedAt, s.utf8.count >= 10 else { return nil }
        let d = Array(s.utf8.prefix(10))
        let digits = [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { d[$0] >= 0x30 && d[$0] <= 0x39 }
        return digits && d[4] == 0x2D && d[7] == 0x2D ? String(decoding: d, as: UTF8.self) : nil
    }

    /// The date of the start in UTC (`YYYY-MM-DD`), for trends across time zones.
    package var dayUTC: String? { startedAtUTC.map { String($0.prefix(10)) } }

    /// Builds the row of a replayed trace (the session's `size` is the bytes of all its parts); `facts` what the
    /// records said beyond the replay's result, and `keys` makes the tokens of personal values.
    package init(_ trace: TraceSession, result r: ReplayResult, facts: TriageFacts = TriageFacts(), keys: TriageKeys = TriageKeys()) {
        path = trace.first
        parts = trace.paths.count > 1 ? trace.paths : []
        session = trace.id
        size = trace.size
        if let h = r.header {
            layer = h.layer
            sdk = h.sdk
            device = h.device.model
            os = h.device.os
            simulator = h.device.simulator
            startedAt = h.startedAt
            bundleId = h.app.bundleId
            appVersion = h.app.version
            startedAtUTC = h.startedAt.flatMap(UTCTime.normalised)
        }
        let alreadyTokens = r.header?.redacted != nil
        channel = facts.channel.flatMap { keys.token(.channel, $0, alreadyToken: alreadyTokens) }
        room = facts.room.flatMap { keys.token(.room, $0, alreadyToken: alreadyTokens) }
        uid = facts.uid.flatMap { keys.token(.uid, $0, alreadyToken: alreadyTokens) }
        interruptionsByCause = facts.interruptions
        durationMs = r.durationMs
        records = r.records
        droppedRecords = r.droppedRecords
        recorderPauses = r.pausedStretches
        reportIds = facts.reportIds
        problems = r.problemCount
        for (k, n) in r.problemsByKind { problemsByKind[k.rawValue] = n }
        recordsWithClippedStrings = r.recordsWithClippedStrings
        firstProblem = r.problems.first?.description
        incompleteSession = Wording.incompleteSession(r)
        partial = (r.session?.isPartial ?? false) ? incompleteSession : nil
        calls = r.verdictCount
        callFates = r.callFates
        for (key, n) in r.notTakingEffectCounts {
            notTakingEffectByCause[key.cause?.rawValue ?? key.kind.rawValue, default: 0] += n
        }
        if r.verdictsDropped == 0 {
            for v in r.verdicts { if let o = v.outcome { outcomes[o.kind.rawValue, default: 0] += 1 } }
        }
        unexplainedDivergences = r.unexplainedDivergenceCount
        uncertainDivergences = r.uncertainDivergenceCount
        restarts = r.restarts.count
        // Counted and looked up where the verdicts and findings are, none of them copied.
        var blocking = Set<String>()
        for v in r.verdicts where v.cause == .externalRouteActive || v.outcome?.cause == .externalRouteActive {
            if let words = v.causeSeq.flatMap({ r.recordIndex[$0]?.deviceKind?.shortWords }) { blocking.insert(words) }
        }
        blockingDevices = blocking.sorted()
        explainedDivergences = r.divergenceCount - unexplainedDivergences - r.uncertainDivergenceCount
        findings = r.findingCounts
        errors = r.keptErrorFindings
        if let q = r.quality {
            reconnects = q.reconnects
            if let lo = q.mosMin, let hi = q.mosMax, lo <= hi { mos = lo...hi }
        }
        if let q = r.quality, q.reports > 0 {
            qualityTimeMs = [("excellent", q.time.excellent), ("good", q.time.good), ("poor", q.time.poor),
                             ("lost", q.time.lost), ("unknown", q.time.unknown), ("noData", q.time.noData)].map { QualityTime(level: $0.0, ms: $0.1) }
            worstQuality = q.worst.map { Stretch(startT: $0.startT, endT: $0.endT) }
        }
        if r.partsOpened == 0 {
            unexplainable = r.problems.first { $0.kind == .io }?.message ?? TriageRowWords.couldNotBeOpened
        } else {
            unexplainable = r.unexplainable
        }
        tags = Self.tags(of: self, quality: r.quality)
    }

    /// Problem kinds that are damage (the others say the input is empty, unreadable or not a trace).
    static let damageKinds: Set<String> = Set([TraceProblem.Kind.badRecord, .badFrame, .tornFrame, .garbage, .lineTooLong,
                                               .windowTooLarge, .seqGap, .timeBackwards, .header, .headerMissing, .notClosed,
                                               .bundleMismatch].map(\.rawValue))

    /// The row's tags: the input's state; then, for an input with something to judge, one per finding
    /// code and, from what became of each call, the umbrella tag, `took-effect-late` and the causes.
    static func tags(of row: TriageRow, quality: QualitySummary?) -> [TriageTag] {
        var set = Set<TriageTag>()
        if row.records == 0 && row.problemsByKind[TraceProblem.Kind.io.rawValue] != nil {
            set.insert(.unreadable)
        } else if row.unexplainable != nil {
            set.insert(.notATrace)
        }
        // A part of a session that cannot be opened while others could is damage too.
        let partLost = !set.contains(.unreadable) && row.problemsByKind[TraceProblem.Kind.io.rawValue] != nil
        if partLost || row.problemsByKind.keys.contains(where: damageKinds.contains) { set.insert(.damagedTrace) }
        if row.duplicateOf != nil { set.insert(.duplicateUpload) }
        // Nothing to judge: no judgement either, whatever a replay of the fragments raised.
        guard row.unexplainable == nil else { return set.sorted() }
        if row.droppedRecords > 0 || row.recorderPauses > 0 { set.insert(.recorderDroppedRecords) }
        if row.incompleteSession != nil { set.insert(.incompleteSession) }
        if row.partial != nil { set.insert(.partialSession) }
        for (code, n) in row.findings where n > 0 {
            if let tag = code.tag { set.insert(tag) }
        }
        for (fate, n) in row.callFates where n > 0 {
            if fate.verdict == .undetermined {
                set.insert(VerdictCause.stateUnknown.tag)
            } else if fate.didNotTakeEffect {
                if fate.call != .switchLayer { set.insert(.routeCallNotTakingEffect) }
                for c in fate.causes { set.insert(c.tag) }
            } else if fate.tookEffectLate {
                set.insert(.tookEffectLate)
                for c in fate.causes { set.insert(c.tag) }
            }
        }
        if row.unexplainedDivergences > 0 { set.insert(.unexplainedDivergence) }
        if row.uncertainDivergences > 0 { set.insert(.uncertainDivergence) }
        if row.restarts > 0 { set.insert(.appRestarted) }
        if let q = quality, q.reports > 0 {
            let withData = q.time.total - q.time.noData
            if withData > 0 && (q.time.poor + q.time.lost) * 10 >= withData { set.insert(.poorNetwork) }
        }
        return set.sorted()
    }

    /// Marks the row as repeating the bytes of `original` (an earlier input of the run).
    package mutating func markDuplicate(of original: String) {
        duplicateOf = original
        if !tags.contains(.duplicateUpload) { tags = (tags + [.duplicateUpload]).sorted() }
    }
}

/// What a trace's records say that the replay's result does not keep: the channel or room and the local
/// uid of the first join or enter, and the interruptions by cause. Fed every record of the trace.
package struct TriageFacts: Sendable, Equatable {
    /// The first channel joined (SRTC), as recorded.
    package var channel: String?
    /// The first room entered (SMeeting), as recorded.
    package var room: String?
    /// The uid of the first join or enter that names one, as recorded.
    package var uid: String?
    /// `os.interruptionBegan` records by cause.
    package var interruptions: [String: Int] = [:]
    /// The ids of `trace.report` records, in order, each once, at most `maxReportIds`.
    package var reportIds: [String] = []
    /// Report ids kept at most (a hostile trace could mark a report in every record).
    package static let maxReportIds = 64

    /// Nothing seen yet.
    package init() {}

    /// Takes in one record (only joins, enters, interruptions and report marks say something here).
    package mutating func note(_ r: Record) {
        if case .report(let id, _) = r.body {
            let kept = TextCap.clip(id)
            if reportIds.count < Self.maxReportIds, !reportIds.contains(kept) { reportIds.append(kept) }
            return
        }
        if case let .joinChannel(c, u) = r.body {
            if channel == nil { channel = c }
            if uid == nil { uid = u }
        } else if case let .enterMeeting(m, u) = r.body {
            if room == nil { room = m }
            if uid == nil { uid = u }
        } else if case .interruptionBegan(let cause, _) = r.body {
            interruptions[cause?.rawValue ?? "unspecified", default: 0] += 1
        }
    }
}

/// The keyed tokens rows carry instead of channel names, room names and uids: exactly those
/// `rtctrace redact` writes for the same value under the same key (`Redactor`), so a row joins with the
/// redacted trace and names nothing. Without a key there are no tokens (the columns are null): a fixed
/// built-in key would let anyone rebuild the token of a guessed name. A uid's token has no rank here:
/// `redact` adds the uid's rank among the trace's uids (`uid-03-…`) so that tokens sort as the uids did,
/// which would differ from trace to trace; the row's `uid-…` is the redacted token without its rank, the
/// same eight hex digits.
package struct TriageKeys: Sendable, Equatable {
    /// The HMAC key, when one was given.
    package let salt: String?

    /// Keys from a salt; nil gives no tokens.
    package init(salt: String? = nil) { self.salt = salt }

    /// The token of `value`, a personal value of `kind`, or nil without a key; a trace whose header says
    /// it was redacted already holds tokens, which are kept as they are when a key is given.
    package func token(_ kind: PersonalValue.Kind, _ value: String, alreadyToken: Bool) -> String? {
        guard let salt else { return nil }
        return alreadyToken ? value : Redactor(salt: salt).token(kind, value)
    }
}
