import Contract
import Replay
import TraceModel

/// The advice given with one item of the explanation, checked by replaying the trace with its edits.
package struct AdviceCheck: Equatable, Sendable {
    /// What the check concluded.
    package enum Verdict: String, Sendable {
        /// Following the advice, the call takes effect (or the finding is no longer raised).
        case verified
        /// The advice does not change the outcome here; the catalogue's alternative does.
        case alternativeVerified
        /// The advice does not change the outcome here (`rule` still decides), nor does an alternative.
        case doesNotApply
        /// The advice changes the outcome, but the call still does not take effect.
        case changedNotResolved
        /// The edits cannot be placed in this trace (no record of the kind they follow).
        case cannotPlace
        /// The advice cannot be expressed as edits.
        case notVerifiable
    }

    /// A call (`call`) or a finding (`finding`).
    package var kind: WhatIfProblem.Kind
    /// The call in words or the finding's code.
    package var subject: String
    /// The call's record, or the finding's first record.
    package var seq: Int?
    /// When.
    package var t: Int64
    /// What the check concluded.
    package var verdict: Verdict
    /// The edits that were replayed (the advice's, or the alternative's that verified).
    package var edits: [WhatIfEdit] = []
    /// The rule that still decides, where the advice does not change the outcome.
    package var rule: RuleID?
    /// The value in the edited replay (the call's outcome), where it did not go away.
    package var after: String?
    /// Why the call still does not take effect in the edited replay.
    package var cause: VerdictCause?
    /// Why it cannot be verified or placed, in words.
    package var why: String?
}

/// Checks the advice of every item of an explanation that the catalogue can express as edits.
package enum AdviceChecks {
    /// Items checked per trace at most (each costs a replay); the rest are left unchecked.
    package static let cap = 50

    /// The checks for the base's calls that did not take effect and its findings above info (except
    /// `route.ineffective`, told with its call), in time order.
    package static func run(_ base: WhatIfBase) -> [AdviceCheck] {
        let r = base.side.result
        var items: [(WhatIfProblem.Kind, String, Int?, Int64, AdviceProof, Severity?)] = []
        for v in r.verdicts where v.didNotTakeEffect {
            let cause = v.outcome?.cause ?? v.cause
            let label = base.side.indexBySeq[v.seq].map(base.side.label) ?? v.call.rawValue
            items.append((.call, label, v.seq, v.t, cause?.adviceProof ?? .notExpressible(AdviceCheckReasons.noCauseNamed), nil))
        }
        for f in r.findings where f.severity > .info && f.code != .routeIneffective {
            items.append((.finding, f.code.rawValue, f.seqs.first, f.t, f.code.adviceProof, f.severity))
        }
        items.sort { ($0.3, $0.2 ?? -1) < ($1.3, $1.2 ?? -1) }
        var out: [AdviceCheck] = []
        var replays = 0
        for (kind, subject, seq, t, proof, _) in items {
            var check = AdviceCheck(kind: kind, subject: subject, seq: seq, t: t, verdict: .notVerifiable)
            guard case .edits(let lists) = proof else {
                if case .notExpressible(let why) = proof { check.why = why }
                out.append(check)
                continue
            }
            guard replays < cap, let seq else {
                check.verdict = .cannotPlace
                check.why = seq == nil ? AdviceCheckReasons.namesNoRecord : AdviceCheckReasons.beyondCap(cap)
                out.append(check)
                continue
            }
            for (k, list) in lists.enumerated() {
                guard let edits = resolve(list, item: seq, in: base.records) else {
                    if k == 0 { check.verdict = .cannotPlace; check.why = AdviceCheckReasons.nothingFollows }
                    continue
                }
                replays += 1
                guard let w = try? WhatIf.run(base, edits: edits) else { continue }
                let gone = w.resolved.contains { $0.kind == kind && $0.seq == seq && ($0.kind == .call || $0.subject == subject) }
                if gone {
                    check.verdict = k == 0 ? .verified : .alternativeVerified
                    check.edits = edits
                    check.rule = nil
                    check.after = nil
                    break
                }
                guard k == 0 else { continue }
                check.edits = edits
                let still = w.remaining.first { $0.kind == kind && $0.seq == seq && ($0.kind == .call || $0.subject == subject) }
                check.rule = still?.rule
                check.after = still?.after
                check.cause = still?.cause
                check.verdict = still.map { $0.before == $0.after && ($0.kind == .finding || sameCause($0, r, seq)) } == false
                    ? .changedNotResolved : .doesNotApply
            }
            out.append(check)
        }
        return out
    }

    /// Whether the call's cause in the edited replay is the original's.
    static func sameCause(_ p: WhatIfProblem, _ r: ReplayResult, _ seq: Int) -> Bool {
        guard let v = r.verdicts.first(where: { $0.seq == seq }) else { return true }
        return (v.outcome?.cause ?? v.cause) == p.cause
    }

    /// The advice's edits placed in this trace, or nil when one cannot be (no record of the kind it follows).
    package static func resolve(_ list: [AdviceEdit], item seq: Int, in records: WhatIfRecords) -> [WhatIfEdit]? {
        let seqs = records.seqs
        guard let i = seqs.firstIndex(of: seq) else { return nil }
        // The next record of one of these kinds: the item itself when it is one (a finding raised at the
        // leave, or at the interruption's end), except for a move, which needs another record.
        func next(_ kinds: [RecordKind], fromItem: Bool = true) -> Int? {
            ((fromItem ? i : i + 1)..<seqs.count).first { records.kinds[$0].map(kinds.contains) == true }.map { seqs[$0] }
        }
        var out: [WhatIfEdit] = []
        for e in list {
            switch e {
            case .setOption(let o): out.append(.session(.setOption, value: o, from: nil))
            case .mode(let m): out.append(.session(.mode, value: m, from: nil))
            case .moveAfterNext(let kinds):
                guard let n = next(kinds, fromItem: false) else { return nil }
                out.append(.move(seq: seq, after: n))
            case .insertBefore(let json):
                guard i > 0 else { return nil }
                out.append(.insert(json: json, at: nil, after: seqs[i - 1]))
            case .insertBeforeNext(let kinds, let json):
                guard let n = next(kinds), let j = seqs.firstIndex(of: n) else { return nil }
                out.append(.insert(json: json, at: nil, after: seqs[j - 1]))
            case .insertAfterNext(let kinds, let json):
                guard let n = next(kinds) else { return nil }
                out.append(.insert(json: json, at: nil, after: n))
            case .replace(let json):
                out += [.insert(json: json, at: nil, after: seq), .drop(seq: seq)]
            case .reactivateAfterNext(let kinds):
                // Activations are kept whole.
                func successful(_ k: Int) -> RecordBody? {
                    guard records.kinds[k] == .sessionActivated, let body = records.wholeBody(k), case .sessionActivated(let a) = body, a.ok else { return nil }
                    return body
                }
                guard let n = next(kinds), let last = (0...i).reversed().lazy.compactMap(successful).first else { return nil }
                out.append(.insert(json: InsertJSON.json(last), at: nil, after: n))
            }
        }
        return out
    }
}

/// A record body as the JSON an insert edit takes (its line without `seq` and `t`).
enum InsertJSON {
    static func json(_ body: RecordBody) -> String {
        let line = Record(seq: 0, t: 0, body).jsonLine
        // The encoder writes `{"seq":0,"t":0,` first.
        let prefix = "{\"seq\":0,\"t\":0,"
        return line.hasPrefix(prefix) ? "{" + line.dropFirst(prefix.count) : line
    }
}
