import Contract
import Replay
import TraceCodec
import TraceModel

/// A redaction that could not be written.
package struct RedactionError: Error, CustomStringConvertible {
    /// What went wrong, naming the file.
    package var description: String
}

/// What a redaction changed.
package struct RedactionReport: Sendable {
    /// Records written.
    package var records = 0
    /// Fields replaced, by kind (`device name`, `uid`, …), in the order of `Redactor.Kind.allCases`.
    package var changed: [(kind: String, count: Int)] = []
    /// Whether no key was given, so the tokens were made with a random key used once (`Redactor.oneTimeKey`).
    package var usedOneTimeKey = false
    /// A report of nothing redacted yet.
    package init() {}
}

/// Redacts a trace file into a new one.
package enum Redaction {
    /// Reads `input` twice (first to learn the order of uids and track ids, then to redact) and writes
    /// the redacted records to `output` atomically with `TraceWriter`. Reader problems go to `onProblem`.
    package static func run(input: String, output: String, salt: String?, onProblem: (TraceProblem) -> Void = { _ in }) throws -> RedactionReport {
        try run(TraceSession(path: input), outputs: [output], salt: salt, onProblem: onProblem)
    }

    /// Redacts the parts of one trace (a session's, in part order) with one set of tokens, so the redacted
    /// parts still form one session: into one output per part (`outputs` as many as the session's paths), or all into
    /// one merged trace (one output; the parts' headers stay as the part boundaries). A part that
    /// continues a session keeps its seqs: its output starts at the seq its first record carries.
    package static func run(_ session: TraceSession, outputs: [String], salt: String?, onProblem: (TraceProblem) -> Void = { _ in }) throws -> RedactionReport {
        let parts = session.paths
        precondition(outputs.count == parts.count || outputs.count == 1, "one output per part, or one merged output")
        let redactor = Redactor(salt: salt ?? Redactor.oneTimeKey())
        for part in parts {
            let reader = try TraceReader(path: part)
            while let e = reader.next() { if case .record(let r) = e { redactor.learn(r) } }
        }
        redactor.finishLearning()
        var report = RedactionReport()
        report.usedOneTimeKey = salt == nil
        let groups: [(output: String, inputs: ArraySlice<String>)] = outputs.count == parts.count
            ? zip(outputs, parts).map { ($0, [$1][...]) } : [(outputs[0], parts[...])]
        for (output, inputs) in groups {
            var options = TraceWriter.Options()
            options.firstSeq = try firstSeq(of: inputs.first!)
            try AtomicFile.replace(output) { tmp in
                let writer = try TraceWriter(path: tmp, options: options, exclusive: true)
                for input in inputs {
                    let reader = try TraceReader(path: input)
                    while let e = reader.next() {
                        switch e {
                        case .record(let r):
                            do { try writer.append(redactor.redact(r)) } catch let w as WriteError {
                                // Said in the input's terms, without the writer's advice: `--renumber` is not
                                // redact's, and `record --renumber` fails on the same trace when its time goes back.
                                let why: String
                                switch w.naming(output, insteadOf: tmp) {
                                case .badSeq(_, let expected, _): why = RedactionWords.seqGap(expected: expected)
                                case .timeBackwards(_, _, let last, let t): why = RedactionWords.timeBackwards(last: last, t: t)
                                case .closed(let path): why = RedactionWords.writerClosed(path)
                                }
                                throw RedactionError(description: RedactionWords.cannotKeep(input: input, seq: r.seq, why: why))
                            }
                            report.records += 1
                        case .problem(let p): onProblem(p)
                        }
                    }
                }
                try writer.close()
            }
        }
        report.changed = Redactor.Kind.allCases.compactMap { k in redactor.changed[k].map { (k.rawValue, $0) } }
        return report
    }

    /// The seq a trace's output starts at: a continuation part's header carries the seq where the part
    /// before it stopped; every other trace starts at 0.
    static func firstSeq(of path: String) throws -> Int {
        let reader = try TraceReader(path: path)
        while let e = reader.next() {
            if case .record(let r) = e {
                if case .header(let h) = r.body, let s = h.session, s.part > 1 { return r.seq }
                return 0
            }
        }
        return 0
    }

    /// Differences between two replays in what a redaction must keep: verdicts, divergences and
    /// findings (codes, severities, rules, records and times; messages may differ by their tokens).
    /// Empty when they agree.
    package static func differences(_ a: ReplayResult, _ b: ReplayResult) -> [String] {
        var out: [String] = []
        if a.records != b.records { out.append("records: \(a.records) vs \(b.records)") }
        // A verdict's `api` is the call's spelling, redacted when it is not a Swift spelling: not a conclusion.
        func judged(_ r: ReplayResult) -> [Verdict] { r.verdicts.map { var v = $0; v.api = nil; return v } }
        if judged(a) != judged(b) {
            out.append("verdicts differ (\(a.verdicts.count) vs \(b.verdicts.count))")
        }
        if a.divergences != b.divergences || a.divergenceCount != b.divergenceCount {
            out.append("divergences differ (\(a.divergenceCount) vs \(b.divergenceCount))")
        }
        let fa = a.findings.map(FindingKey.init), fb = b.findings.map(FindingKey.init)
        if fa != fb || a.findingCounts != b.findingCounts {
            let first = zip(fa, fb).first { $0 != $1 }
            out.append("findings differ (\(a.findings.count) vs \(b.findings.count))" + (first.map { ": \($0.0.code) vs \($0.1.code)" } ?? ""))
        }
        if a.expectations.map(\.passed) != b.expectations.map(\.passed) { out.append(RedactionWords.expectationsDiffer) }
        return out
    }

    /// A finding without its prose.
    struct FindingKey: Equatable {
        let code: FindingCode
        let severity: Severity
        let rule: RuleID?
        let seqs: [Int]
        let t: Int64
        init(_ f: Finding) {
            code = f.code
            severity = f.severity
            rule = f.rule
            seqs = f.seqs
            t = f.t
        }
    }
}
