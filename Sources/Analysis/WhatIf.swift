import Contract
import Replay
import TraceCodec
import TraceModel

/// A trace read once for what-ifs: its records (one session joined) and its replay, which every edit
/// list is compared against.
package struct WhatIfBase: Sendable {
    /// The trace's records, as read (the reader's batches, decoded once).
    package var records: WhatIfRecords
    /// The original replayed, for comparison.
    package var side: DiffSide
    /// The options both replays use.
    package var options: ReplayOptions
    /// The seqs of the records that are history once an edit is made (`WhatIf.isHistory`).
    var historySeqs: SeqIndex
    /// For each record, its identity in `side.identities` (-1: not compared), which an edited trace's
    /// unchanged records share.
    var keyed: [Int32]

    /// Reads and replays the files of one trace (a single file, or a session's parts in part order),
    /// keeping the batches the reader decoded for the edited replays; a file that cannot be opened is a
    /// problem of the result.
    package static func read(_ session: TraceSession, options: ReplayOptions = ReplayOptions(),
                            onProblem: (TraceProblem) -> Void = { _ in }) -> WhatIfBase {
        var records = WhatIfRecords()
        // Not strict, and a file that cannot be opened is a problem: nothing is thrown.
        let result = (try? Replay.run(session, options: options, unopened: .isAProblem, onBatch: { records.keep($0) },
                                      onProblem: onProblem)) ?? ReplayResult(file: session.first)
        return WhatIfBase(kept: records, result: result, file: session.first, options: options)
    }

    /// A base from records already in memory (tests).
    package init(records: [Record], result: ReplayResult? = nil, file: String = "<memory>", options: ReplayOptions = ReplayOptions()) {
        self.init(kept: WhatIfRecords(records), result: result ?? Replay.run(records: records, file: file, options: options),
                  file: file, options: options)
    }

    /// A base from records kept as they were read and their replay.
    package init(kept records: WhatIfRecords, result: ReplayResult, file: String, options: ReplayOptions) {
        self.records = records
        self.options = options
        historySeqs = SeqIndex()
        historySeqs.reserve(through: records.seqs.last ?? 0, count: records.count)
        for i in 0..<records.count where records.kinds[i].map(WhatIf.isHistory) == true { historySeqs[records.seqs[i]] = 1 }
        side = DiffSide(file: file, result: result)
        let lastSeq = records.seqs.last ?? 0
        side.records.reserveCapacity(records.count)
        side.indexBySeq.reserve(through: lastSeq, count: records.count)
        keyed = records.noteAll(on: &side)
        side.levelChanges = side.result.levelChanges
    }
}

/// A problem of one side that the other side does not have: a call that did not take effect, or a
/// finding above info.
package struct WhatIfProblem: Equatable, Sendable {
    /// What kind of problem.
    package enum Kind: String, Sendable { case call, finding }
    /// A call or a finding.
    package var kind: Kind
    /// The call in words (`api.setRoute speaker`) or the finding's code.
    package var subject: String
    /// The rule that decides it (the cause's rule, else the verdict's or finding's).
    package var rule: RuleID?
    /// The record it is about, named by its original seq (an inserted record by its fresh one).
    package var seq: Int?
    /// When.
    package var t: Int64
    /// The original's value: the call's outcome (or verdict), the finding's severity; nil where absent.
    package var before: String?
    /// The edited trace's value.
    package var after: String?
    /// Why the call did not take effect, on the side where it did not.
    package var cause: VerdictCause?
}

/// What a list of edits changes in what the contract predicts for one trace.
package struct WhatIfResult: Sendable {
    /// The edits, in the order applied.
    package var edits: [WhatIfEdit]
    /// For each edit, whether it changed any record.
    package var changed: [Bool]
    /// The time of the first record the edits touch: from then on, what the device and the SDK recorded
    /// is not what would have happened, so divergences and callback findings are not compared; nil when
    /// the edits change nothing.
    package var historyEndsAt: Int64?
    /// The original against the edited trace, in diff's terms; B's records named by their original seqs.
    package var diff: TraceDiff
    /// Names given to inserted records.
    package var inserted: Set<Int>
    /// Problems of the original that the edited trace does not have.
    package var resolved: [WhatIfProblem]
    /// Problems of the edited trace that the original does not have.
    package var added: [WhatIfProblem]
    /// The original's replay as compared (cut where history ends).
    package var original: ReplayResult
    /// The edited trace's replay as compared (cut where history ends; seqs numbered afresh).
    package var edited: ReplayResult
    /// Problems of the original the edited trace still has: `after` and `rule` are the edited trace's
    /// (the rule that still decides).
    package var remaining: [WhatIfProblem] = []

    /// Whether the edits help: at least one problem gone and none added.
    package var improves: Bool { !resolved.isEmpty && added.isEmpty }
}

/// Replays a trace with edits and compares what the contract predicts with and without them.
package enum WhatIf {
    /// Applies `edits` to the base's records, replays the result and compares it with the original,
    /// both cut where history ends. Throws when an edit cannot be applied.
    package static func run(_ base: WhatIfBase, edits: [WhatIfEdit], source: String = "the edits") throws(WhatIfEditError) -> WhatIfResult {
        let edited = try EditedTrace.apply(edits, to: base.records, source: source)
        let file = base.side.file + " (edited)"
        var b = editedSide(base, edited, file: file)
        b.levelChanges = b.result.levelChanges
        let shape = EditedShape(count: edited.count, name: edited.name, isHistory: edited.isHistory, inserted: edited.inserted,
                                firstEditT: edited.firstEditT, changed: edited.changed)
        return compare(base.side, history: base.historySeqs, lastSeq: base.records.seqs.last ?? 0, count: base.records.count,
                       b, shape, edits: edits, toleranceMs: base.options.toleranceMs)
    }

    /// What a comparison needs of an edited trace besides its replay: its records' names and kinds by
    /// their new seqs, and what the edits touched.
    struct EditedShape {
        /// How many records it has.
        var count: Int
        /// The seq the record with a new seq is named by.
        var name: (Int) -> Int
        /// Whether the record with a new seq is history.
        var isHistory: (Int) -> Bool
        /// Names given to inserted records.
        var inserted: Set<Int>
        /// The time of the first record an edit touched.
        var firstEditT: Int64?
        /// For each edit, whether it changed any record.
        var changed: [Bool]
    }

    /// Compares the original (`a`, `history` the seqs of its history records, `lastSeq` and `count` its
    /// last seq and its number of records) with the edited trace replayed (`b`), both cut where history ends.
    static func compare(_ original: DiffSide, history: SeqIndex, lastSeq: Int, count: Int, _ edited: DiffSide, _ shape: EditedShape,
                        edits: [WhatIfEdit], toleranceMs: Int64) -> WhatIfResult {
        var a = original, b = edited
        if let t = shape.firstEditT {
            a.cutHistory(at: t, isHistory: history.contains)
            b.cutHistory(at: t, isHistory: shape.isHistory)
            // Before the first edit the traces are one: what history said then is the original's, in
            // both (a divergence open at the edit may count only because of readings after it).
            var seqInB = SeqIndex()
            seqInB.reserve(through: lastSeq, count: count)
            for n in 0..<shape.count {
                let name = shape.name(n)
                if shape.inserted.isEmpty || !shape.inserted.contains(name) { seqInB[name] = n }
            }
            b.takeHistory(of: a, history: history, renumbered: { seqInB[$0] })
        }
        // The edited copy lacks what the original lacks, though its replay (records in memory) is not told.
        var (diff, pairs, pairsOfB) = TraceDiff.compareKeyed(a, b, toleranceMs: toleranceMs, missing: false)
        let (resolved, added, remaining) = problems(a, b, diff, pairs: (pairs, pairsOfB), name: shape.name)
        diff.renameB(count: shape.count, shape.name)
        return WhatIfResult(edits: edits, changed: shape.changed, historyEndsAt: shape.firstEditT, diff: diff,
                            inserted: shape.inserted, resolved: resolved, added: added, original: a.result, edited: b.result,
                            remaining: remaining)
    }

    /// The edited trace replayed and noted for the comparison in one pass over its records, made one at a
    /// time.
    static func editedSide(_ base: WhatIfBase, _ edited: EditedTrace, file: String) -> DiffSide {
        let replayer = Replayer(file: file, options: base.options)
        var b = DiffSide(file: file, result: ReplayResult(file: file))
        // The original's identities, which the records the edits left as they were keep.
        (b.identities, b.identityIndex) = (base.side.identities, base.side.identityIndex)
        b.records.reserveCapacity(edited.count)
        b.indexBySeq.reserve(through: edited.count - 1, count: edited.count)
        var cursor = WhatIfRecords.Cursor()
        for n in 0..<edited.count {
            edited.feed(n, into: replayer, cursor: &cursor)
            // A record the edits left as it was has the original's identity (its label and key).
            let o = Int(edited.origins[n]), id = o >= 0 ? base.keyed[o] : -1
            guard id >= 0 else { b.note(edited.record(n)); continue }
            b.append(seq: n, t: edited.t(n), id: id)
        }
        b.result = replayer.finish()
        return b
    }

    /// Whether a record kind is what the device or the SDK reported rather than what the app or iOS did:
    /// after an edit it no longer says what would have happened (a checkpoint restates the state the
    /// recorder saw, which the edits may have changed).
    package static func isHistory(_ kind: RecordKind) -> Bool {
        switch kind.family {
        case .sdk, .sys: true
        case .obs: kind == .routeChanged || kind == .routeSnapshot
        case .trace: kind == .checkpoint
        case .api, .os, .conn, .srv: false
        }
    }

    /// Whether a record is history (`isHistory(_:)` of its kind).
    static func isHistory(_ r: Record) -> Bool { r.body.kind.map(isHistory) ?? false }

    /// Calls that took effect on one side only, and findings above info raised on one side only.
    /// `pairs`: for each of A's records, its partner by identity in B, and for each of B's its partner in
    /// A (diff's pairing before changed calls). B's seqs are its records' own (numbered afresh: one each);
    /// `name` gives the seq each is named by.
    static func problems(_ a: DiffSide, _ b: DiffSide, _ diff: TraceDiff, pairs: (a: [Int32], b: [Int32]), name names: (Int) -> Int)
        -> (resolved: [WhatIfProblem], added: [WhatIfProblem], remaining: [WhatIfProblem]) {
        // The partners of the calls, by seq: only the verdicts' records are looked up (not every record's
        // seq kept in a table as long as the trace).
        var aToB: [Int: Int] = [:], bToA: [Int: Int] = [:]
        for v in a.result.verdicts {
            guard let i = a.indexBySeq[v.seq], a.records[i].seq == v.seq, pairs.a[i] >= 0 else { continue }
            aToB[v.seq] = b.records[Int(pairs.a[i])].seq
        }
        for w in b.result.verdicts {
            guard let j = b.indexBySeq[w.seq], pairs.b[j] >= 0 else { continue }
            bToA[w.seq] = a.records[Int(pairs.b[j])].seq
        }
        var verdictsA: [Int: Verdict] = [:], verdictsB: [Int: Verdict] = [:]
        for v in a.result.verdicts { verdictsA[v.seq] = v }
        for v in b.result.verdicts { verdictsB[v.seq] = v }
        func word(_ v: Verdict?) -> String? { v.map { $0.outcome?.kind.rawValue ?? $0.verdict.rawValue } }
        func label(_ s: DiffSide, _ seq: Int) -> String { s.indexBySeq[seq].map(s.label) ?? "call" }
        func cause(_ v: Verdict) -> VerdictCause? { v.outcome?.cause ?? v.cause }
        var resolved: [WhatIfProblem] = [], added: [WhatIfProblem] = [], remaining: [WhatIfProblem] = []
        for v in a.result.verdicts where v.didNotTakeEffect {
            let w = aToB[v.seq].flatMap { verdictsB[$0] }
            if let w, w.didNotTakeEffect {
                remaining.append(WhatIfProblem(kind: .call, subject: label(a, v.seq), rule: cause(w)?.rule ?? w.rule, seq: v.seq, t: v.t,
                                               before: word(v), after: word(w), cause: cause(w)))
                continue
            }
            resolved.append(WhatIfProblem(kind: .call, subject: label(a, v.seq), rule: cause(v)?.rule ?? v.rule, seq: v.seq, t: v.t,
                                          before: word(v), after: word(w) ?? (aToB[v.seq] == nil ? "not made" : nil), cause: cause(v)))
        }
        for w in b.result.verdicts where w.didNotTakeEffect {
            let v = bToA[w.seq].flatMap { verdictsA[$0] }
            guard v.map({ !$0.didNotTakeEffect }) ?? true else { continue }
            added.append(WhatIfProblem(kind: .call, subject: label(b, w.seq), rule: cause(w)?.rule ?? w.rule, seq: names(w.seq), t: w.t,
                                       before: word(v), after: word(w), cause: cause(w)))
        }
        for d in diff.differences where d.kind == .finding {
            if let s = d.aValue, d.bValue == nil, Severity(rawValue: s).map({ $0 > .info }) == true {
                resolved.append(WhatIfProblem(kind: .finding, subject: d.subject, rule: d.rule, seq: d.a?.seq, t: d.t, before: s, after: nil))
            }
            if let s = d.bValue, d.aValue == nil, Severity(rawValue: s).map({ $0 > .info }) == true {
                added.append(WhatIfProblem(kind: .finding, subject: d.subject, rule: d.rule, seq: d.b.map { names($0.seq) }, t: d.t,
                                           before: nil, after: s))
            }
        }
        // The original's findings above info that are not gone (those diff compares).
        let gone = Set(resolved.filter { $0.kind == .finding }.map { "\($0.subject) \($0.seq ?? -1) \($0.t)" })
        for f in a.result.findings where f.severity > .info && f.code != .routeIneffective && f.code != .routeDivergence {
            guard !gone.contains("\(f.code.rawValue) \(f.seqs.first ?? -1) \(f.t)") else { continue }
            remaining.append(WhatIfProblem(kind: .finding, subject: f.code.rawValue, rule: f.rule, seq: f.seqs.first, t: f.t,
                                           before: f.severity.rawValue, after: f.severity.rawValue))
        }
        return (resolved, added, remaining)
    }
}
