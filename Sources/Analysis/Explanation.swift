import Contract
import QualityEngine
import Replay
import TraceModel

/// The one explanation of a replay that every report renders: a summary, then each item with its why,
/// the records behind it, the contract rule and the advice, in the layer's words. It is built once
/// from a `ReplayResult`; the text, HTML and JSON renderers lay it out and never parse each other.
package struct Explanation: Sendable {
    /// A line of an item, with an optional label (`why`, `advice`, …) that renderers may emphasise.
    package struct Line: Equatable, Sendable {
        /// `why`, `cause record`, `advice`, … or nil for a plain line.
        package var label: String?
        /// The text.
        package var text: String

        /// Creates a line.
        package init(_ label: String?, _ text: String) {
            self.label = label
            self.text = text
        }
    }

    /// A line of the summary; `nested` lines detail the one above.
    package struct SummaryLine: Equatable, Sendable {
        /// The text.
        package var text: String
        /// Whether it details the line above.
        package var nested: Bool
    }

    /// A route or layer call, with what became of it.
    package struct Call: Sendable {
        /// The verdict (and, for route calls, its outcome).
        package var verdict: Verdict
        /// The first line: seq, time, call, verdict, cause and rule.
        package var headline: String
        /// Why, the records involved and what to do.
        package var lines: [Line]
    }

    /// A divergence between the predicted and the actual route.
    package struct DivergenceItem: Sendable {
        /// The divergence.
        package var divergence: Divergence
        /// Its index among the trace's divergences, in start order (what markers and `expect.predictedBy` use).
        package var index: Int
        /// The first line: explained or not, when, both routes and the rule.
        package var headline: String
        /// Why the prediction was what it was, where the actual route came from, what explains it, advice.
        package var lines: [Line]
    }

    /// Findings of one kind, told once: how many, when, the first in full and the advice once.
    package struct FindingGroup: Sendable {
        /// The code.
        package var code: FindingCode
        /// Their severity.
        package var severity: Severity
        /// The rule they belong to.
        package var rule: RuleID?
        /// How many findings the group stands for.
        package var count: Int
        /// The first of them, in full.
        package var first: Finding
        /// When the last of them was raised.
        package var lastT: Int64
        /// The reconnect before them, for findings of the kinds a reconnect resets (Q4).
        package var afterReconnect: QualitySummary.Moment?
        /// The first line: severity, code, rule, count and time range.
        package var headline: String
        /// The first finding's message, the Q4 context when there is one, and the advice.
        package var lines: [Line]
        /// The index of the first finding in `ReplayResult.findings` (for links to the timeline).
        package var firstIndex: Int
    }

    /// The trace's layer.
    package var layer: Layer
    /// `SRTC trace` / `SMeeting trace`.
    package var title: String
    /// The trace file.
    package var file: String
    /// The recorded session replayed and its parts ("session ID, parts 1–3"), when the trace is one.
    package var session: String?
    /// Device, OS and SDK, or that the header is missing.
    package var device: String
    /// Duration and record count.
    package var duration: String
    /// Reading problems, when there were any.
    package var damage: String?
    /// The user's problem reports marked in the trace ("R-1234 at 1m12s (seq 842): note"), where a
    /// support engineer starts reading.
    package var reports: [String]
    /// What the reader could not read, one sentence per kind (a torn end, lost frames, dropped records):
    /// shown where the reader looks first.
    package var damageNotes: [String]
    /// What the replay lacks of the session (a part begun without the one before it, a missing part):
    /// shown where the reader looks first.
    package var sessionNotes: [SessionNote]
    /// Whether judgement was withheld somewhere (an unknown state, a missing part): no all-clear.
    package var partial: Bool
    /// Why there is nothing to judge, when there is nothing.
    package var unexplainable: String?
    /// What the reader could not read that withholds the all-clear (lost frames, too many undecodable
    /// records, missing seqs), one phrase per way: with any, the summary never says "Nothing is wrong".
    package var unread: [String]
    /// Whether anything needs attention.
    package var needsAttention: Bool
    /// The summary, every count matching the lists below it.
    package var summary: [SummaryLine]
    /// Why the route contract was not applied (R16: a macOS trace), said where route verdicts would be.
    package var routeContractNotApplied: String?
    /// Calls that did not take effect (outcome other than applied or noop), at most `listCap`.
    package var calls: [Call]
    /// Route calls whose verdict is `undetermined` (the state they met is unknown): neither taking effect nor not.
    package var undeterminedCalls: Int
    /// Calls that did not take effect beyond `listCap`.
    package var callsNotListed: Int
    /// Divergences counted but not listed (beyond the replay's cap or the list's).
    package var divergencesNotListed: Int
    /// Deferred calls that took effect later.
    package var lateCalls: [Call]
    /// Divergences, unexplained first.
    package var divergences: [DivergenceItem]
    /// The other findings, grouped, most severe first, then by time.
    package var groups: [FindingGroup]
    /// Findings not kept by the replay (beyond its cap), counted only.
    package var findingsNotListed: Int
    /// The quality summary, when the trace has quality data (or runs on the CDN engine).
    package var quality: QualitySummary?
    /// The finding counts by code (for the quality block).
    package var findingCounts: [FindingCode: Int]
    /// What the device's system log names (E1): the component behind a route change, an interruption's
    /// cause, what the system saw of a CallKit call; in time order. Empty without `sys.*` records.
    package var systemLog: [SystemLogEvidence.Item]
    /// The `sys.*` records the trace holds (imported from the device's log).
    package var systemLogRecords: Int
    /// How their times were placed (`times anchored, ±3 ms`), when there are any.
    package var systemLogTiming: String?

    /// Items listed per list at most.
    package static let listCap = 200

    /// Builds the explanation of a replay.
    package init(_ r: ReplayResult) {
        let w = r.words
        layer = r.layer
        title = Wording.title(r)
        file = r.file
        session = Wording.sessionName(r)
        if let h = r.header {
            device = "\(h.device.model ?? "?"), \(h.device.os ?? "?")\(h.device.simulator ? " (simulator)" : "")" + (h.sdk.map { ", \($0)" } ?? "")
        } else {
            device = Wording.unknownDevice
        }
        duration = "\(formatDuration(r.durationMs)), \(r.records) records"
        reports = r.reports.map { m in "\(m.id) at \(formatDuration(m.t)) (seq \(m.seq))" + (m.note.map { ": \($0)" } ?? "") }
        damage = r.problemCount > 0
            ? Wording.readingProblems(r.problemCount) : nil
        damageNotes = Wording.damageNotes(r)
        sessionNotes = Wording.sessionNotes(r) + Wording.restartNotes(r)
        partial = r.session?.isPartial ?? false
        undeterminedCalls = r.undeterminedCalls
        unexplainable = r.unexplainable
        unread = Wording.unread(r)
        needsAttention = r.hasIssues
        routeContractNotApplied = r.routeContractApplied ? nil : Wording.routeContractNotApplied(r.header?.device.os ?? "macOS")
        let failing = r.verdicts.filter(\.didNotTakeEffect)
        let lookups = Lookups(r)
        calls = failing.prefix(Self.listCap).map { Self.call($0, r, lookups: lookups) }
        let failingCount = r.notTakingEffectCount
        callsNotListed = max(0, failingCount - calls.count)
        lateCalls = r.verdicts.filter { $0.verdict == .deferred && $0.tookEffect }.prefix(Self.listCap).map { Self.call($0, r, lookups: lookups) }
        divergences = Self.divergenceOrder(r).prefix(Self.listCap).map { Self.divergence($0.element, index: $0.offset, r) }
        divergencesNotListed = max(0, r.divergenceCount - divergences.count)
        let evidence = SystemLogEvidence(r)
        groups = Self.findingGroups(r, evidence: evidence)
        findingsNotListed = r.findingsDropped
        quality = r.quality.flatMap { $0.reports > 0 || $0.vendor == .wangsu || $0.gapCount > 0 ? $0 : nil }
        findingCounts = r.findingCounts
        systemLog = evidence.items
        systemLogRecords = evidence.records
        systemLogTiming = evidence.timing
        summary = []
        summary = summaryLines(r, failingCount: failingCount, w)
    }

    /// The divergences as every report lists them: unexplained first, then those begun from an unknown start
    /// state, then the explained ones, each with its index in the result.
    package static func divergenceOrder(_ r: ReplayResult) -> [(offset: Int, element: Divergence)] {
        let all = Array(r.divergences.enumerated())
        return all.filter { $0.element.unexplained } + all.filter { $0.element.uncertain }
            + all.filter { $0.element.explained }
    }
}
