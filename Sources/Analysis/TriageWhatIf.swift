import Contract
import Replay
import TraceCodec
import TraceModel

/// The edits `triage --whatif` replays every trace with: a fixed list (from an edits file), or the
/// catalogue's advice for a finding code or a cause, placed at each of its items in each trace.
package enum TriageEdits: Sendable, Equatable {
    /// The same edits for every trace (seqs name each trace's own records).
    case fixed([WhatIfEdit])
    /// The advice of a finding code (`interruption.notRecovered`), at each finding of the code.
    case adviceForCode(FindingCode)
    /// The advice of a cause (`notEngaged`), at each call that did not take effect for it.
    case adviceForCause(VerdictCause)

    /// Reads `advice:CODE` or `advice:CAUSE`; nil for anything else (a file of edits).
    package init?(advice text: String) {
        guard text.hasPrefix("advice:") else { return nil }
        let name = String(text.dropFirst("advice:".count))
        if let code = FindingCode(rawValue: name) { self = .adviceForCode(code) } else if let cause = VerdictCause(rawValue: name) {
            self = .adviceForCause(cause)
        } else { return nil }
    }

    /// The edits for one trace (its replay's result and its records as read); nil when the advice cannot
    /// be expressed as edits or placed in it.
    func edits(result r: ReplayResult, records: WhatIfRecords) -> [WhatIfEdit]? {
        let proof: AdviceProof, items: [Int]
        switch self {
        case .fixed(let edits): return edits
        case .adviceForCode(let code):
            proof = code.adviceProof
            items = r.findings.filter { $0.code == code }.compactMap(\.seqs.first)
        case .adviceForCause(let cause):
            proof = cause.adviceProof
            items = r.verdicts.filter { $0.didNotTakeEffect && ($0.outcome?.cause ?? $0.cause) == cause }.map(\.seq)
        }
        // A trace without the item has nothing for the advice to change.
        guard !items.isEmpty else { return [] }
        guard case .edits(let lists) = proof else { return nil }
        var out: [WhatIfEdit] = []
        for seq in Set(items).sorted() {
            guard let placed = AdviceChecks.resolve(lists[0], item: seq, in: records) else { continue }
            // A session edit applies to every activation: once is enough.
            for e in placed where !out.contains(e) { out.append(e) }
        }
        return out.isEmpty ? nil : out
    }
}

/// What the edits changed in one trace, as its triage row carries it.
package struct TriageWhatIf: Sendable, Equatable {
    /// At least one problem gone and none added (`WhatIfResult.improves`).
    package var improves = false
    /// The time of the first edited record (nil: the edits changed nothing).
    package var historyEndsAt: Int64?
    /// Calls that did not take effect and would.
    package var callsTakingEffect = 0
    /// Calls that took effect (or were not made) and would not.
    package var callsNotTakingEffect = 0
    /// Findings above info no longer raised.
    package var findingsRemoved = 0
    /// Findings above info newly raised.
    package var findingsAdded = 0
    /// Divergences gone (before history ends: none after it is compared).
    package var divergencesRemoved = 0
    /// Divergences added.
    package var divergencesAdded = 0
    /// The row's tags the edits clear.
    package var resolvedTags: [TriageTag] = []
    /// The row's tags the edits leave (or that history decides after the first edit).
    package var remainingTags: [TriageTag] = []
    /// Why the edits could not be applied to this trace, or nil.
    package var error: String?

    /// Creates an empty change.
    package init() {}

    /// Replays the trace (its records as read and their replay's result) with the edits and describes what
    /// changed against `row`, the trace's own row. The base a comparison needs is made only once the edits
    /// are placed.
    package static func make(_ edits: TriageEdits, kept records: WhatIfRecords, result: ReplayResult, file: String, options: ReplayOptions,
                             row: TriageRow, facts: TriageFacts) -> TriageWhatIf {
        var out = TriageWhatIf()
        guard let list = edits.edits(result: result, records: records) else {
            out.error = TriageRowWords.adviceCannotBePlaced
            out.remainingTags = row.tags
            return out
        }
        let base = WhatIfBase(kept: records, result: result, file: file, options: options)
        let w: WhatIfResult
        do { w = try WhatIf.run(base, edits: list, source: "--whatif") } catch {
            out.error = error.description
            out.remainingTags = row.tags
            return out
        }
        out.improves = w.improves
        out.historyEndsAt = w.historyEndsAt
        out.callsTakingEffect = w.resolved.filter { $0.kind == .call }.count
        out.callsNotTakingEffect = w.added.filter { $0.kind == .call }.count
        out.findingsRemoved = w.resolved.filter { $0.kind == .finding }.count
        out.findingsAdded = w.added.filter { $0.kind == .finding }.count
        for d in w.diff.differences where d.kind == .divergence {
            if d.aValue != nil && d.bValue == nil { out.divergencesRemoved += 1 }
            if d.aValue == nil && d.bValue != nil { out.divergencesAdded += 1 }
        }
        // The tags of each side as the contract predicts it (both cut where history ends); the reading's
        // facts (damage, losses) are the original's on both.
        func tags(_ r: ReplayResult) -> Set<TriageTag> {
            var r = r
            let o = base.side.result
            (r.problems, r.problemCount, r.problemsByKind, r.droppedRecords) = (o.problems, o.problemCount, o.problemsByKind, o.droppedRecords)
            (r.recordsWithClippedStrings, r.seqGapsAtMissingParts, r.unknownTypes) = (o.recordsWithClippedStrings, o.seqGapsAtMissingParts, o.unknownTypes)
            r.partsOpened = 1
            // A row for tags alone: no size, no parts.
            return Set(TriageRow(TraceSession(paths: [row.path], id: row.session), result: r, facts: facts).tags)
        }
        let before = tags(w.original), after = tags(w.edited)
        out.resolvedTags = row.tags.filter { before.contains($0) && !after.contains($0) }
        out.remainingTags = row.tags.filter { !out.resolvedTags.contains($0) }
        return out
    }
}

/// What a fix would resolve across a fleet (`triage --whatif`): order-free counts, like the summary's.
package struct TriageWhatIfTally: Sendable, Equatable {
    /// Readable traces replayed with the edits.
    package private(set) var traces = 0
    /// Of them, those the edits improve (a problem gone, none added).
    package private(set) var improved = 0
    /// Of them, those the edits could not be applied to or placed in.
    package private(set) var notApplied = 0
    /// Per tag: traces that have it, and traces the edits clear it from.
    package private(set) var byTag: [TriageTag: (had: Int, resolved: Int)] = [:]
    /// Per SDK version: traces replayed with the edits, and those they improve.
    package private(set) var bySDK: [String: (traces: Int, improved: Int)] = [:]

    /// An empty tally.
    package init() {}

    /// Counts one row in.
    package mutating func add(_ row: TriageRow) {
        guard let w = row.whatif else { return }
        traces += 1
        if w.improves { improved += 1 }
        if w.error != nil { notApplied += 1 }
        for t in row.tags {
            var e = byTag[t] ?? (0, 0)
            e.had += 1
            if w.resolvedTags.contains(t) { e.resolved += 1 }
            byTag[t] = e
        }
        var s = bySDK[row.sdk ?? "unknown"] ?? (0, 0)
        s.traces += 1
        if w.improves { s.improved += 1 }
        bySDK[row.sdk ?? "unknown"] = s
    }

    /// Equal counts (the tuples compared field by field).
    package static func == (a: TriageWhatIfTally, b: TriageWhatIfTally) -> Bool {
        a.traces == b.traces && a.improved == b.improved && a.notApplied == b.notApplied
            && a.byTag.mapValues { [$0.had, $0.resolved] } == b.byTag.mapValues { [$0.had, $0.resolved] }
            && a.bySDK.mapValues { [$0.traces, $0.improved] } == b.bySDK.mapValues { [$0.traces, $0.improved] }
    }
}
