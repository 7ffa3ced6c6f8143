import Contract
import Replay
import TraceCodec
import TraceModel

/// The problem a reduction keeps, identified by the records behind it (original seqs until renumbered).
struct Target {
    let goal: ReduceGoal
    var code: FindingCode?
    var rule: RuleID?
    var findingSeq: Int?
    var severity: Severity?
    /// The verdict on the finding's deciding record, when it is a call: the cause must stay the same.
    var verdict: Verdict?
    var predicted: Route?
    var actual: Route?
    var actualSeq: Int?
    var predictedSeq: Int?
    var explained = false
    /// The `expect.*` record that must stay and keep failing (goal `expectFail`).
    var keepSeq: Int?
    /// What the failing expectation got: it must keep failing the same way, not for want of its records.
    var got: String?
    /// The failing expectation's type (goal `expectFail`).
    var expectType: String?

    init?(goal: ReduceGoal, seq: Int? = nil, result r: ReplayResult) {
        self.goal = goal
        switch goal {
        case .finding(let code):
            let candidates = r.findings.filter { $0.code == code && (seq == nil || $0.seqs.first == seq) }
            // The most severe occurrence (a warning, not a benign info-level deferral), the first of those.
            guard let top = candidates.map(\.severity).max(), let f = candidates.first(where: { $0.severity == top }) else { return nil }
            self.code = code
            rule = f.rule
            findingSeq = f.seqs.first
            severity = f.severity
            verdict = r.verdicts.first { $0.seq == f.seqs.first }
        case .divergence:
            guard let d = r.divergences.first(where: \.unexplained) ?? r.divergences.first else { return nil }
            predicted = d.predicted
            actual = d.actual
            actualSeq = d.actualSeq
            predictedSeq = d.predictedSeq
            explained = d.explained
        case .expectFail:
            guard let e = r.failedExpectations.first else { return nil }
            keepSeq = e.seq
            expectType = e.type
            got = e.actual
        }
    }

    func matches(_ r: ReplayResult) -> Bool {
        switch goal {
        case .finding:
            guard r.findings.contains(where: { $0.code == code && $0.seqs.first == findingSeq && $0.severity == severity }) else { return false }
            guard let v = verdict else { return true }
            return r.verdicts.contains { $0.seq == findingSeq && $0.verdict == v.verdict && $0.cause == v.cause }
        case .divergence:
            return r.divergences.contains {
                $0.explained == explained && $0.predicted == predicted && $0.actual == actual && $0.actualSeq == actualSeq
                    && $0.predictedSeq == predictedSeq
            }
        case .expectFail:
            return r.expectations.contains { $0.seq == keepSeq && !$0.passed && $0.actual == got }
        }
    }

    func remapped(_ map: [Int: Int]) -> Target {
        var t = self
        t.findingSeq = findingSeq.flatMap { map[$0] }
        t.verdict?.seq = t.findingSeq ?? -1
        t.actualSeq = actualSeq.flatMap { map[$0] }
        t.predictedSeq = predictedSeq.flatMap { map[$0] }
        t.keepSeq = keepSeq.flatMap { map[$0] }
        return t
    }

    var description: String {
        switch goal {
        case .finding(let code): ReductionWords.finding(code, decidedBy: findingSeq)
        case .divergence:
            ReductionWords.divergence(explained: explained, predicted: predicted, actual: actual, predictedSeq: predictedSeq, actualSeq: actualSeq)
        case .expectFail: ReductionWords.failingExpectation(type: expectType, seq: keepSeq, got: got)
        }
    }
}

extension TraceMinimizer {
    /// Replays the records as they will read back from the file: each encoded and decoded again, seqs
    /// consecutive from 0, time never going back (a late record by no more than the match window). A
    /// reduction that would not survive that fails here, not in the user's `check`.
    func verifiedAsWritten(_ records: [Record]) throws -> ReplayResult {
        var previousT = Int64.min
        var decoded: [Record] = []
        for (i, r) in records.enumerated() {
            let line = r.jsonLine
            guard r.seq == i else { throw ReduceError(description: ReductionWords.outOfPlace(seq: r.seq, position: i)) }
            guard r.t >= previousT || r.late && previousT - r.t <= Record.lateWindow else {
                throw ReduceError(description: ReductionWords.timeGoesBack(seq: r.seq, t: r.t))
            }
            previousT = max(previousT, r.t)
            do {
                let back = try RecordDecoder().decode(line, lineNumber: i + 1)
                guard back.seq == r.seq, back.t == r.t else {
                    throw ReduceError(description: ReductionWords.readsBackAs(seq: r.seq, backSeq: back.seq, backT: back.t))
                }
                decoded.append(back)
            } catch let e as ReduceError {
                throw e
            } catch {
                throw ReduceError(description: ReductionWords.wouldNotReadBack(seq: r.seq, type: r.type, error: error))
            }
        }
        return Replay.run(records: decoded, options: options.replay)
    }

    /// Replaces personal values as `redact` does (same tokens for the same salt; without one, a key used
    /// once, as `redact` makes).
    static func redacted(_ records: [Record], salt: String?) -> [Record] {
        let redactor = Redactor(salt: salt ?? Redactor.oneTimeKey())
        for r in records { redactor.learn(r) }
        redactor.finishLearning()
        return records.map(redactor.redact)
    }

    /// Adds back the context that makes a quality or speaker problem visible to a reader, as long as the
    /// problem still shows: the transport changes (a reconnect that should have reset the speaker cache
    /// or the quality baseline, Q4) and the quality reports in the 10 s before the deciding record.
    func restoreContext(_ kept: [Record], from all: [Record], _ target: Target) -> [Record] {
        guard case .finding(let code) = options.goal, code.family == .quality || code.family == .speakers,
              let decidingT = all.first(where: { $0.seq == target.findingSeq })?.t ?? kept.last?.t else { return kept }
        let keptSeqs = Set(kept.map(\.seq))
        let context = all.filter { r in
            guard !keptSeqs.contains(r.seq), r.t <= decidingT else { return false }
            if r.body.kind == .connState { return true }
            return r.body.kind == .qualityReport && decidingT - r.t <= 10_000
        }
        guard !context.isEmpty, budgetLeft else { return kept }
        let merged = merge(kept, context)
        return holds(merged, target) ? merged : kept
    }

    /// Shortens each gap between consecutive timestamps to the smallest of a few round values that
    /// still shows the problem (later records move with it, so order and the other gaps are kept).
    func simplifyTimes(_ input: [Record], _ target: Target) -> [Record] {
        var records = input
        var previous = header.t
        for i in records.indices {
            guard budgetLeft else { break }
            let gap = records[i].t - previous
            if gap > 0 {
                let candidates = Set([0, 1, 10, 100, 500, 1000, 2000, 5000, 10_000, gap / 1000 * 1000, gap / 100 * 100].filter { $0 < gap }).sorted()
                for c in candidates where budgetLeft {
                    var trial = records
                    for j in i..<trial.count { trial[j].t -= gap - c }
                    if holds(trial, target) {
                        records = trial
                        break
                    }
                }
            }
            previous = records[i].t
            report("timestamps", records.count)
        }
        return records
    }

    /// Renumbers seqs from 1 after the header, points `expect.verdict` refs at the new seqs, appends the
    /// pins and checks that the result still shows the problem and that its pins hold.
    func finish(_ records: [Record], _ target: Target, originalCount: Int) throws -> ReduceResult {
        var map: [Int: Int] = [header.seq: 0]
        for (i, r) in records.enumerated() { map[r.seq] = i + 1 }
        var out = [Record(seq: 0, t: header.t, header.body)]
        for r in records {
            var n = r
            n.seq = map[r.seq] ?? 0
            if case .expect(var e) = n.body, case .verdict(let ref, let v, let c) = e.kind {
                // A ref whose call was dropped points past the end: still "no verdict".
                e.kind = .verdict(ref: map[ref] ?? records.count + 1000, verdict: v, cause: c)
                n.body = .expect(e)
            }
            if case .unknown(let type, let json) = n.body {
                // The line is kept as written, so its own seq and t must follow the renumbering too.
                guard let line = RecordDecoder.replacingSeqAndTime(in: Array(json.utf8), seq: n.seq, t: n.t) else {
                    throw ReduceError(description: ReductionWords.cannotRenumber(seq: r.seq, type: type))
                }
                n.body = .unknown(type: type, json: String(decoding: line, as: UTF8.self))
            }
            out.append(n)
        }
        let pinned = target.remapped(map)
        report("verify", records.count)
        let check = Replay.run(records: out, options: options.replay)
        replays += 1
        guard pinned.matches(check) else {
            throw ReduceError(description: ReductionWords.renumberingLost(pinned.description))
        }
        let t = out.last?.t ?? 0
        var pins: [Expectation] = []
        switch options.goal {
        case .divergence:
            pins.append(Expectation(.divergences(count: check.divergenceCount), atEnd: true, rule: .X2))
            pins.append(Expectation(.finding(code: .routeDivergence, count: check.findingCounts[.routeDivergence] ?? 0),
                                    atEnd: true, rule: target.explained ? .X3 : .X2))
        case .finding(let code):
            pins.append(Expectation(.finding(code: code, count: check.findingCounts[code] ?? 0), atEnd: true, rule: target.rule))
        case .expectFail: break
        }
        for p in pins { out.append(Record(seq: out.count, t: t, .expect(p))) }
        if options.redact { out = Self.redacted(out, salt: options.salt) }
        let final = try verifiedAsWritten(out)
        replays += 1
        let failedPins = final.failedExpectations.filter { $0.seq > records.count }
        guard pinned.matches(final), failedPins.isEmpty else {
            throw ReduceError(description: ReductionWords.pinsDoNotHold(failedPins))
        }
        // What `check` would say of the file: every expectation holds (except the one an
        // --expect-fail reduction keeps failing on purpose).
        let failing = final.failedExpectations.filter { options.goal != .expectFail || $0.seq != pinned.keepSeq }
        guard failing.isEmpty else {
            throw ReduceError(description: ReductionWords.wouldFailCheck(failing))
        }
        return ReduceResult(records: out, originalRecords: originalCount, keptRecords: records.count, replays: replays,
                            hitReplayBound: hitBound, problem: target.description)
    }
}

/// Reading and writing whole traces for the tools.
package enum TraceFiles {
    /// Every record of a trace, in order; reader problems go to `onProblem`.
    package static func load(_ path: String, onProblem: (TraceProblem) -> Void = { _ in }) throws -> [Record] {
        let reader = try TraceReader(path: path)
        var out: [Record] = []
        while let e = reader.next() {
            switch e {
            case .record(let r): out.append(r)
            case .problem(let p): onProblem(p)
            }
        }
        return out
    }

    /// Every record of the parts of one trace (a session's, in part order) as one self-contained trace:
    /// the first part's header, then every part's records; a later part's header and the checkpoint that
    /// opens it are left out (the records before them give that state).
    package static func load(_ session: TraceSession, onProblem: (TraceProblem) -> Void = { _ in }) throws -> [Record] {
        var out: [Record] = []
        for (k, path) in session.paths.enumerated() {
            var records = try load(path, onProblem: onProblem)
            if k > 0, case .header = records.first?.body {
                records.removeFirst()
                if case .checkpoint = records.first?.body { records.removeFirst() }
            }
            out += records
        }
        return out
    }

    /// Writes records (seqs from 0, t non-decreasing) as a trace, atomically: a temporary sibling, then a rename.
    package static func write(_ records: [Record], to path: String) throws {
        try AtomicFile.replace(path) { tmp in
            let writer = try TraceWriter(path: tmp, exclusive: true)
            for r in records { try writer.append(r) }
            try writer.close()
        }
    }
}
